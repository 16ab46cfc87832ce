package integration

import (
	"fmt"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// TestSwapWithOperatorLabels takes over the StatefulSets prometheus-operator made for a
// Prometheus, an Alertmanager and a ThanosRuler, and gives them back, with and without
// the operator's --labels (the community chart's CI values set cluster=talos-cluster),
// which prometheus-operator puts into every StatefulSet selector (issue 33): no StatefulSet
// is re-created either way (same UID), each operator rewrites them, and after giving back
// prometheus-operator's own pod template is restored.
func TestSwapWithOperatorLabels(t *testing.T) {
	t.Parallel()
	for _, withLabels := range []bool{false, true} {
		t.Run(map[bool]string{false: "without-labels", true: "with-labels"}[withLabels], func(t *testing.T) {
			t.Parallel()
			ns := newNamespace(t, nil)
			own := map[string]string{dedicatedLabel: ns}
			p := newPrometheus(ns, "swap", func(p *monitoringv1.Prometheus) { p.Labels = own })
			a := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "swap", Labels: own}}
			tr := newThanosRuler(ns, "swap", func(t *monitoringv1.ThanosRuler) { t.Labels = own })
			create(t, p, a, tr)
			sets := []string{"prometheus-swap", "alertmanager-swap", "thanos-ruler-swap"}
			get := func(name string) (*appsv1.StatefulSet, error) {
				s := &appsv1.StatefulSet{}
				return s, k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, s)
			}
			sel := own[dedicatedLabel]
			upstreamArgs := []string{"--alertmanager-instance-selector=" + dedicatedLabel + "=" + sel, "--thanos-ruler-instance-selector=" + dedicatedLabel + "=" + sel}
			lookoutLabels := map[string]string(nil)
			if withLabels {
				upstreamArgs = append(upstreamArgs, "--labels=cluster=talos-cluster")
				lookoutLabels = map[string]string{"cluster": "talos-cluster"}
			}

			// prometheus-operator made them.
			stopUpstream, _ := startPrometheusOperatorAt(t, ns, upstreamArgs...)
			first := map[string]*appsv1.StatefulSet{}
			eventually(t, 90*time.Second, "prometheus-operator's StatefulSets", func() error {
				for _, n := range sets {
					s, err := get(n)
					if err != nil {
						return err
					}
					if s.Annotations[upstreamInputHash] == "" {
						return fmt.Errorf("%s not reconciled by prometheus-operator yet", n)
					}
					first[n] = s
				}
				return nil
			})
			stopUpstream()
			if withLabels {
				for n, s := range first {
					if s.Spec.Selector.MatchLabels["cluster"] != "talos-cluster" {
						t.Fatalf("prometheus-operator's %s selector lacks --labels: %v", n, s.Spec.Selector.MatchLabels)
					}
				}
			}

			// Lookout takes over in place.
			stop, err := startOperator(ctx, labels.SelectorFromSet(own), func(o *operator.Options) {
				o.Labels = lookoutLabels
			})
			if err != nil {
				t.Fatal(err)
			}
			eventually(t, 60*time.Second, "Lookout's version of the StatefulSets", func() error {
				for _, n := range sets {
					s, err := get(n)
					if err != nil {
						return err
					}
					if s.UID != first[n].UID {
						return fmt.Errorf("%s was re-created by Lookout (UID %s → %s)", n, first[n].UID, s.UID)
					}
					if s.Annotations[layout.InputHashAnnotation] == "" || s.ResourceVersion == first[n].ResourceVersion {
						return fmt.Errorf("%s not rewritten by Lookout yet", n)
					}
				}
				return nil
			})
			stop()

			// And gives them back: prometheus-operator restores its own template in place.
			stopUpstream, _ = startPrometheusOperatorAt(t, ns, upstreamArgs...)
			defer stopUpstream()
			eventually(t, 90*time.Second, "prometheus-operator's version again", func() error {
				for _, n := range sets {
					s, err := get(n)
					if err != nil {
						return err
					}
					if s.UID != first[n].UID {
						return fmt.Errorf("%s was re-created by prometheus-operator (UID %s → %s)", n, first[n].UID, s.UID)
					}
					if !equality.Semantic.DeepEqual(s.Spec.Template, first[n].Spec.Template) || !equality.Semantic.DeepEqual(s.Spec.Selector, first[n].Spec.Selector) {
						return fmt.Errorf("%s: prometheus-operator has not restored its own pod template yet", n)
					}
				}
				return nil
			})
		})
	}
}
