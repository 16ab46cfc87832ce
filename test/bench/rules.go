package main

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// rulesPerObject is how many rules each PrometheusRule of -rules holds (in one group).
const rulesPerObject = 10

func ruleObjectName(j int) string { return fmt.Sprintf("pr-%04d", j) }

// ruleObjects splits n rules into PrometheusRules of rulesPerObject rules (the last one
// holds the rest), spread over the scenario's namespaces; their UIDs are not known yet.
func (s scenario) ruleObjects(n int) []ruleObject {
	var out []ruleObject
	for j := 0; n > 0; j++ {
		k := min(n, rulesPerObject)
		out = append(out, ruleObject{namespace: s.namespace(j), name: ruleObjectName(j), rules: k})
		n -= k
	}
	return out
}

// prometheusRule is o as created: one group "bench" whose rules match what rulesAnswer
// reports for them.
func prometheusRule(o ruleObject) *monitoringv1.PrometheusRule {
	g := monitoringv1.RuleGroup{Name: "bench"}
	for r := 0; r < o.rules; r++ {
		rule := monitoringv1.Rule{Expr: intstr.FromString(recordExpr(o.namespace))}
		if r%2 == 0 {
			rule.Alert = ruleName(r)
			rule.Expr = intstr.FromString(alertExpr(o.namespace))
			rule.For = ptr.To(monitoringv1.Duration("5m"))
			rule.Labels = map[string]string{"severity": "warning"}
			rule.Annotations = map[string]string{"summary": "bench alert"}
		} else {
			rule.Record = ruleName(r)
			rule.Labels = map[string]string{"team": "bench"}
		}
		g.Rules = append(g.Rules, rule)
	}
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Name: o.name, Namespace: o.namespace, Labels: map[string]string{selectLabel: "true"}},
		Spec:       monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{g}},
	}
}

// createRules creates n rules in PrometheusRules selected by the benchmark Prometheus
// (given a ruleSelector on the label every object of the harness carries) and returns
// them with their UIDs.
func createRules(ctx context.Context, cl *cluster, s scenario, n, workers int) ([]ruleObject, error) {
	objs := s.ruleObjects(n)
	jobs := make([]func(context.Context) error, len(objs))
	for j := range objs {
		jobs[j] = func(ctx context.Context) error {
			pr := prometheusRule(objs[j])
			if err := cl.c.Create(ctx, pr); err != nil {
				return err
			}
			objs[j].uid = string(pr.UID)
			return nil
		}
	}
	if err := runJobs(ctx, "PrometheusRules", jobs, workers); err != nil {
		return nil, err
	}
	for j := range objs { // an AlreadyExists retry left no UID
		if objs[j].uid == "" {
			pr := &monitoringv1.PrometheusRule{}
			if err := cl.c.Get(ctx, types.NamespacedName{Namespace: objs[j].namespace, Name: objs[j].name}, pr); err != nil {
				return nil, err
			}
			objs[j].uid = string(pr.UID)
		}
	}
	p := &monitoringv1.Prometheus{}
	if err := cl.c.Get(ctx, types.NamespacedName{Namespace: promNamespace, Name: promName}, p); err != nil {
		return nil, err
	}
	p.Spec.RuleSelector = &metav1.LabelSelector{MatchLabels: map[string]string{selectLabel: "true"}}
	p.Spec.RuleNamespaceSelector = &metav1.LabelSelector{}
	if err := cl.c.Update(ctx, p); err != nil {
		return nil, fmt.Errorf("giving the Prometheus a ruleSelector: %w", err)
	}
	return objs, nil
}
