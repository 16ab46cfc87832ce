package promplan

import (
	"testing"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// TestOperatorLabelsInSelectors: the operator's --labels are in the StatefulSet selector
// and pod labels of a Prometheus (every shard, and the topology spread selectors) and an
// Alertmanager, as prometheus-operator merges them in (winning on a clash).
func TestOperatorLabelsInSelectors(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.OperatorLabels = map[string]string{"cluster": "talos-cluster"}
	check := func(what string, sel, pod map[string]string) {
		t.Helper()
		if sel["cluster"] != "talos-cluster" || pod["cluster"] != "talos-cluster" {
			t.Errorf("%s: selector %v, pod labels %v lack the operator's labels", what, sel, pod)
		}
		for k, v := range sel {
			if pod[k] != v {
				t.Errorf("%s: pod labels %v do not carry the selector %v", what, pod, sel)
			}
		}
	}
	p := prom(func(p *monitoringv1.Prometheus) {
		p.Spec.Shards = ptr.To[int32](2)
		p.Spec.TopologySpreadConstraints = []monitoringv1.TopologySpreadConstraint{{
			CoreV1TopologySpreadConstraint: monitoringv1.CoreV1TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule},
			AdditionalLabelSelectors:       ptr.To(monitoringv1.ShardAndResourceNameLabelSelector),
		}}
	})
	sets, _, err := StatefulSets(Input{Prometheus: promserver.Of(p)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		check(s.Name, s.Spec.Selector.MatchLabels, s.Spec.Template.Labels)
		if l := s.Spec.Template.Spec.TopologySpreadConstraints[0].LabelSelector.MatchLabels; l["cluster"] != "talos-cluster" {
			t.Errorf("%s: topology spread selector %v", s.Name, l)
		}
	}
	a := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "main"}}
	sts, err := amplan.AlertmanagerStatefulSet(amplan.AlertmanagerInput{Alertmanager: a, TLSAssetSecrets: 1}, opts)
	if err != nil {
		t.Fatal(err)
	}
	check(sts.Name, sts.Spec.Selector.MatchLabels, sts.Spec.Template.Labels)

	// A clash: the operator's label wins, as prometheus-operator's Merge decides.
	opts.OperatorLabels = map[string]string{"app.kubernetes.io/managed-by": "flux"}
	sts, err = amplan.AlertmanagerStatefulSet(amplan.AlertmanagerInput{Alertmanager: a, TLSAssetSecrets: 1}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := sts.Spec.Selector.MatchLabels["app.kubernetes.io/managed-by"]; got != "flux" {
		t.Errorf("managed-by in the selector: %q, want the operator's label", got)
	}
}
