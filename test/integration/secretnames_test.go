package integration

import (
	"fmt"
	"slices"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestGeneratedObjectNamesAsUpstream runs the real prometheus-operator and Lookout, each
// on the same Prometheus, Alertmanager and ThanosRuler in a namespace of its own, and
// compares the names of the Secrets and ConfigMaps each generates for them: scripts,
// NetworkPolicies and backups name them (issue 33). <kind>-<name>-tls-assets-0 exists
// even when no TLS file is referenced.
func TestGeneratedObjectNamesAsUpstream(t *testing.T) {
	t.Parallel()
	owners := map[string]bool{monitoringv1.PrometheusesKind: true, monitoringv1.AlertmanagersKind: true, monitoringv1.ThanosRulerKind: true}
	names := func(ns string) ([]string, error) {
		var out []string
		secrets := &corev1.SecretList{}
		if err := k8s.List(ctx, secrets, client.InNamespace(ns)); err != nil {
			return nil, err
		}
		for _, s := range secrets.Items {
			if len(s.OwnerReferences) > 0 && owners[s.OwnerReferences[0].Kind] {
				out = append(out, "Secret/"+s.Name)
			}
		}
		cms := &corev1.ConfigMapList{}
		if err := k8s.List(ctx, cms, client.InNamespace(ns)); err != nil {
			return nil, err
		}
		for _, c := range cms.Items {
			if len(c.OwnerReferences) > 0 && owners[c.OwnerReferences[0].Kind] {
				out = append(out, "ConfigMap/"+c.Name)
			}
		}
		slices.Sort(out)
		return out, nil
	}
	run := func(upstream bool) []string {
		ns := newNamespace(t, nil)
		own := map[string]string{dedicatedLabel: ns}
		p := newPrometheus(ns, "names", func(p *monitoringv1.Prometheus) { p.Labels = own })
		a := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "names", Labels: own}}
		tr := newThanosRuler(ns, "names", func(t *monitoringv1.ThanosRuler) { t.Labels = own })
		create(t, p, newServiceMonitor(ns, "web"), a, tr)
		if upstream {
			stop, _ := startPrometheusOperatorAt(t, ns, "--alertmanager-instance-selector="+dedicatedLabel+"="+ns, "--thanos-ruler-instance-selector="+dedicatedLabel+"="+ns)
			defer stop()
		} else {
			stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}))
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
		}
		var got []string
		eventually(t, 60*time.Second, fmt.Sprintf("the StatefulSet and Secrets (upstream %v)", upstream), func() error {
			for _, sts := range []string{"prometheus-names", "alertmanager-names", "thanos-ruler-names"} {
				if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: sts}, &appsv1.StatefulSet{}); err != nil {
					return err
				}
			}
			var err error
			if got, err = names(ns); err != nil {
				return err
			}
			for _, want := range []string{"Secret/prometheus-names", "Secret/alertmanager-names-generated", "Secret/thanos-ruler-names-config"} {
				if !slices.Contains(got, want) {
					return fmt.Errorf("no %s yet: %v", want, got)
				}
			}
			return nil
		})
		return got
	}
	want := run(true)
	got := run(false)
	if !slices.Equal(got, want) {
		t.Errorf("Lookout generates\n%q\nprometheus-operator\n%q", got, want)
	}
	if !slices.Contains(got, "Secret/prometheus-names-tls-assets-0") {
		t.Errorf("no tls-assets-0 Secret: %q", got)
	}
}
