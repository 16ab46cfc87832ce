package integration

import (
	"fmt"
	"slices"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestGeneratedObjectNamesAsUpstream runs the real prometheus-operator and Lookout, each
// on the same Prometheus in a namespace of its own, and compares the names of the Secrets
// and ConfigMaps each generates for it: scripts, NetworkPolicies and backups name them
// (issue 33). prometheus-<name>-tls-assets-0 exists even when no TLS file is referenced.
func TestGeneratedObjectNamesAsUpstream(t *testing.T) {
	t.Parallel()
	names := func(ns string) ([]string, error) {
		var out []string
		secrets := &corev1.SecretList{}
		if err := k8s.List(ctx, secrets, client.InNamespace(ns)); err != nil {
			return nil, err
		}
		for _, s := range secrets.Items {
			if len(s.OwnerReferences) > 0 && s.OwnerReferences[0].Kind == monitoringv1.PrometheusesKind {
				out = append(out, "Secret/"+s.Name)
			}
		}
		cms := &corev1.ConfigMapList{}
		if err := k8s.List(ctx, cms, client.InNamespace(ns)); err != nil {
			return nil, err
		}
		for _, c := range cms.Items {
			if len(c.OwnerReferences) > 0 && c.OwnerReferences[0].Kind == monitoringv1.PrometheusesKind {
				out = append(out, "ConfigMap/"+c.Name)
			}
		}
		slices.Sort(out)
		return out, nil
	}
	run := func(upstream bool) []string {
		ns := newNamespace(t, nil)
		p := newPrometheus(ns, "names", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{dedicatedLabel: ns} })
		create(t, p, newServiceMonitor(ns, "web"))
		if upstream {
			defer startPrometheusOperator(t, ns)()
		} else {
			stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}))
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
		}
		var got []string
		eventually(t, 60*time.Second, fmt.Sprintf("the StatefulSet and Secrets (upstream %v)", upstream), func() error {
			if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-names"}, &appsv1.StatefulSet{}); err != nil {
				return err
			}
			var err error
			if got, err = names(ns); err != nil {
				return err
			}
			if !slices.Contains(got, "Secret/prometheus-names") {
				return fmt.Errorf("no config Secret yet: %v", got)
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
