package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func newThanosRuler(ns, name string, mut ...func(*monitoringv1.ThanosRuler)) *monitoringv1.ThanosRuler {
	t := &monitoringv1.ThanosRuler{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: monitoringv1.ThanosRulerSpec{
			QueryEndpoints:   []string{"dnssrv+_http._tcp.thanos-query." + ns + ".svc"},
			AlertManagersURL: []string{"dnssrv+http://_web._tcp.alertmanager-operated." + ns + ".svc"},
			RuleSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
		},
	}
	for _, m := range mut {
		m(t)
	}
	return t
}

func thanosRulerCondition(ns, name string, typ monitoringv1.ConditionType) (*monitoringv1.Condition, *monitoringv1.ThanosRuler, error) {
	t := &monitoringv1.ThanosRuler{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, t); err != nil {
		return nil, nil, err
	}
	for i := range t.Status.Conditions {
		if t.Status.Conditions[i].Type == typ {
			return &t.Status.Conditions[i], t, nil
		}
	}
	return nil, t, fmt.Errorf("no %s condition in %+v", typ, t.Status)
}

// thanosRulerBinding is the binding of thanosrulers/<name> on a PrometheusRule.
func thanosRulerBinding(ns, rule, ruler string) (*monitoringv1.WorkloadBinding, error) {
	r := &monitoringv1.PrometheusRule{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: rule}, r); err != nil {
		return nil, err
	}
	for i, b := range r.Status.Bindings {
		if b.Resource == "thanosrulers" && b.Name == ruler && b.Namespace == ns && len(b.Conditions) == 1 {
			return &r.Status.Bindings[i], nil
		}
	}
	return nil, fmt.Errorf("no binding of thanosrulers/%s: %+v", ruler, r.Status.Bindings)
}

// TestThanosRuler: in the real API server a ThanosRuler and a PrometheusRule become the
// rule ConfigMap (in Thanos's format, partial_response_strategy kept), the StatefulSet
// and the governing Service under upstream's names, owned by the ThanosRuler; its status
// says Reconciled and Available; the rule's binding names thanosrulers, and turns to
// rejected (still serving the last good version) on a bad edit; a ThanosRuler with no
// query endpoint is refused with a status that says why.
func TestThanosRuler(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	tr := newThanosRuler(ns, "rules")
	rule := &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "alerts", Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{
			Name: "availability", PartialResponseStrategy: "warn",
			Rules: []monitoringv1.Rule{{Alert: "TargetDown", Expr: intstr.FromString("up == 0")}},
		}}},
	}
	create(t, tr, rule)

	eventually(t, 20*time.Second, "the rule ConfigMap in Thanos's format", func() error {
		cm := &corev1.ConfigMap{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "thanos-ruler-rules-rulefiles-0"}, cm); err != nil {
			return err
		}
		if cm.Labels["thanos-ruler-name"] != "rules" || len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != tr.UID {
			return fmt.Errorf("labels %v, owners %+v", cm.Labels, cm.OwnerReferences)
		}
		for _, f := range cm.Data {
			if strings.Contains(f, "alert: TargetDown") && strings.Contains(f, "partial_response_strategy: warn") {
				return nil
			}
		}
		return fmt.Errorf("data %v", cm.Data)
	})
	eventually(t, 20*time.Second, "the StatefulSet", func() error {
		sts, err := statefulSet(ns, "thanos-ruler-rules")
		if err != nil {
			return err
		}
		if o := sts.OwnerReferences; len(o) != 1 || o[0].Kind != "ThanosRuler" || o[0].UID != tr.UID {
			return fmt.Errorf("owners %+v", o)
		}
		if sts.Spec.ServiceName != "thanos-ruler-operated" {
			return fmt.Errorf("service name %q", sts.Spec.ServiceName)
		}
		c := sts.Spec.Template.Spec.Containers[0]
		args := strings.Join(c.Args, " ")
		if c.Name != "thanos-ruler" || c.Args[0] != "rule" || !strings.Contains(args, "--query=dnssrv+_http._tcp.thanos-query."+ns+".svc") ||
			!strings.Contains(args, `--label=thanos_ruler_replica="$(POD_NAME)"`) {
			return fmt.Errorf("container %s args %s", c.Name, args)
		}
		return nil
	})
	svc := &corev1.Service{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "thanos-ruler-operated"}, svc); err != nil {
		t.Fatal(err)
	}
	if len(svc.Spec.Ports) != 2 || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("service %+v", svc.Spec)
	}
	for _, name := range []string{"thanos-ruler-rules-config", "thanos-ruler-rules-web-config"} {
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &corev1.Secret{}); err != nil {
			t.Errorf("Secret %s: %v", name, err)
		}
	}
	eventually(t, 20*time.Second, "status and the rule's binding", func() error {
		c, live, err := thanosRulerCondition(ns, "rules", monitoringv1.Reconciled)
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue || c.ObservedGeneration != live.Generation {
			return fmt.Errorf("Reconciled %+v", c)
		}
		// envtest runs no pods: the StatefulSet has no available replica.
		if a, _, err := thanosRulerCondition(ns, "rules", monitoringv1.Available); err != nil || a.Status != monitoringv1.ConditionFalse {
			return fmt.Errorf("Available %+v %v", a, err)
		}
		b, err := thanosRulerBinding(ns, "alerts", "rules")
		if err != nil {
			return err
		}
		if b.Conditions[0].Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("binding %+v", b)
		}
		return nil
	})

	update(t, rule, func() { rule.Spec.Groups[0].Rules[0].Expr = intstr.FromString("up ==") })
	eventually(t, 20*time.Second, "the bad edit rejected, the last good version served", func() error {
		b, err := thanosRulerBinding(ns, "alerts", "rules")
		if err != nil {
			return err
		}
		if c := b.Conditions[0]; c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, "still serving generation 1") {
			return fmt.Errorf("binding %+v", b)
		}
		cm := &corev1.ConfigMap{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "thanos-ruler-rules-rulefiles-0"}, cm); err != nil {
			return err
		}
		for _, f := range cm.Data {
			if strings.Contains(f, "expr: up == 0") {
				return nil
			}
		}
		return fmt.Errorf("the last good version is not served: %v", cm.Data)
	})

	create(t, newThanosRuler(ns, "noquery", func(t *monitoringv1.ThanosRuler) { t.Spec.QueryEndpoints = nil }))
	eventually(t, 20*time.Second, "refusal of a ThanosRuler without query endpoint", func() error {
		c, _, err := thanosRulerCondition(ns, "noquery", monitoringv1.Reconciled)
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionFalse || c.Reason != "InvalidConfiguration" || !strings.Contains(c.Message, "spec.queryEndpoints and spec.queryConfig are both empty") {
			return fmt.Errorf("condition %+v", c)
		}
		return nil
	})
	if _, err := statefulSet(ns, "thanos-ruler-noquery"); err == nil {
		t.Error("a StatefulSet for a ThanosRuler without query endpoint")
	}
}
