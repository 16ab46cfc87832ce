package integration

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestBindingsOfAnotherOperatorStay: a ServiceMonitor selected by a Lookout Prometheus and
// by a Prometheus another operator manages (here: prometheus-operator's field manager
// writing its own binding) keeps the other operator's binding through every change
// Lookout makes to its own: acceptance, rejection, and the Lookout Prometheus going away.
func TestBindingsOfAnotherOperatorStay(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	upstream := newPrometheus(ns, "upstream", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: "nobody"} // not Lookout's
	})
	create(t, newPrometheus(ns, "ours"), upstream, newServiceMonitor(ns, "shared"))
	eventually(t, 20*time.Second, "our binding", func() error {
		return bindingFor(ns, "shared", "ours", monitoringv1.ConditionTrue, "Accepted", "")
	})

	// The other operator applies its binding under its own field manager.
	theirs := monitoringv1.WorkloadBinding{Group: "monitoring.coreos.com", Resource: "prometheuses", Namespace: ns, Name: "upstream",
		Conditions: []monitoringv1.ConfigResourceCondition{{Type: monitoringv1.Accepted, Status: monitoringv1.ConditionTrue, Reason: "Accepted", ObservedGeneration: 1, LastTransitionTime: metav1.Now()}}}
	b, _ := json.Marshal([]monitoringv1.WorkloadBinding{theirs})
	var list []any
	_ = json.Unmarshal(b, &list)
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor",
		"metadata": map[string]any{"name": "shared", "namespace": ns},
		"status":   map[string]any{"bindings": list},
	}}
	if err := k8s.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("PrometheusOperator")); err != nil {
		t.Fatal(err)
	}

	hasTheirs := func() error {
		sm := &monitoringv1.ServiceMonitor{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "shared"}, sm); err != nil {
			return err
		}
		for _, b := range sm.Status.Bindings {
			if b.Name == "upstream" {
				return nil
			}
		}
		return fmt.Errorf("the other operator's binding is gone: %+v", sm.Status.Bindings)
	}

	// Lookout's verdict changes: rejected.
	sm := newServiceMonitor(ns, "shared")
	update(t, sm, func() {
		sm.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{SourceLabels: []monitoringv1.LabelName{"a"}, Regex: "(", TargetLabel: "b"}}
	})
	eventually(t, 20*time.Second, "our binding rejected", func() error {
		if err := bindingFor(ns, "shared", "ours", monitoringv1.ConditionFalse, "InvalidConfiguration", "invalid regex"); err != nil {
			return err
		}
		return hasTheirs()
	})

	// Our Prometheus goes away: our binding goes, theirs stays.
	if err := k8s.Delete(ctx, newPrometheus(ns, "ours")); err != nil {
		t.Fatal(err)
	}
	only := func(names ...string) func() error {
		return func() error {
			sm := &monitoringv1.ServiceMonitor{}
			if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "shared"}, sm); err != nil {
				return err
			}
			if len(sm.Status.Bindings) != len(names) {
				return fmt.Errorf("bindings %+v, want %v", sm.Status.Bindings, names)
			}
			for _, n := range names {
				if !slices.ContainsFunc(sm.Status.Bindings, func(b monitoringv1.WorkloadBinding) bool { return b.Name == n }) {
					return fmt.Errorf("bindings %+v, want %v", sm.Status.Bindings, names)
				}
			}
			return nil
		}
	}
	eventually(t, 20*time.Second, "only their binding left", only("upstream"))

	// A new Lookout Prometheus selects it; then the other operator releases its binding:
	// it is gone for good, Lookout does not carry it on in its own writes.
	create(t, newPrometheus(ns, "again"))
	eventually(t, 20*time.Second, "both bindings", only("again", "upstream"))
	u = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor",
		"metadata": map[string]any{"name": "shared", "namespace": ns},
		"status":   map[string]any{"bindings": []any{}},
	}}
	if err := k8s.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("PrometheusOperator")); err != nil {
		t.Fatal(err)
	}
	sm = newServiceMonitor(ns, "shared")
	update(t, sm, func() { sm.Spec.Endpoints[0].RelabelConfigs = nil })
	eventually(t, 20*time.Second, "our binding accepted again", func() error {
		return bindingFor(ns, "shared", "again", monitoringv1.ConditionTrue, "Accepted", "")
	})
	if err := only("again")(); err != nil {
		t.Fatal(err)
	}
}

// bindingFor checks the binding Prometheus prom holds on ServiceMonitor ns/name.
func bindingFor(ns, name, prom string, status monitoringv1.ConditionStatus, reason, msg string) error {
	sm := &monitoringv1.ServiceMonitor{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sm); err != nil {
		return err
	}
	for _, b := range sm.Status.Bindings {
		if b.Name != prom || len(b.Conditions) != 1 {
			continue
		}
		c := b.Conditions[0]
		if c.Status != status || c.Reason != reason || !strings.Contains(c.Message, msg) || c.ObservedGeneration != sm.Generation {
			return fmt.Errorf("%s: condition %+v (generation %d)", name, c, sm.Generation)
		}
		return nil
	}
	return fmt.Errorf("%s: no binding of %s among %+v", name, prom, sm.Status.Bindings)
}
