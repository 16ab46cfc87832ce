//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// twoSeries is an instant vector of two series, {a="1"} and {a="2"}: matched on() no
// label, they make a many-to-many match, a PromQL error at evaluation time only.
const twoSeries = `(label_replace(vector(1), "a", "1", "", "") or label_replace(vector(1), "a", "2", "", ""))`

// TestRuleHealth: a real Prometheus evaluates three PrometheusRules; the operator
// (--target-health-interval=2s) reads the pod's /api/v1/rules and writes RulesHealthy
// into each one's binding: the evaluation error Prometheus reports for a many-to-many
// match (within a poll of Prometheus reporting it), the fix clearing it with the alerts it
// then fires, an alert firing, and a group whose evaluation takes longer than its 1s
// interval in Prometheus's own evaluationTime.
func TestRuleHealth(t *testing.T) {
	sc := newScenario(t, 4*time.Minute)
	defer sc.done()
	ctx := context.Background()

	sc.startOperator("rulehealth", "--target-health-interval=2s")
	rule := func(name, group, interval, alert, record, expr string) *monitoringv1.PrometheusRule {
		d := monitoringv1.Duration(interval)
		return &monitoringv1.PrometheusRule{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: name, Labels: sc.labels()},
			Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: group, Interval: &d,
				Rules: []monitoringv1.Rule{{Alert: alert, Record: record, Expr: intstr.FromString(expr)}}}}},
		}
	}
	// About 3.6 million subquery steps per rule, three rules evaluated one after the other:
	// the group's evaluation took 0.5 to 3 s on 2-core machines (the first is the
	// slowest). The interval is 100ms so that every evaluation overruns it: with 1s, a
	// faster machine's evaluations after the first fit the interval, the condition rightly
	// stays RulesEvaluating and the step fails.
	heavy := rule("heavy", "heavy", "100ms", "", "heavy:sum", "sum_over_time(vector(1)[1h:1ms])")
	for i := 2; i <= 3; i++ {
		heavy.Spec.Groups[0].Rules = append(heavy.Spec.Groups[0].Rules,
			monitoringv1.Rule{Record: fmt.Sprintf("heavy:sum%d", i), Expr: intstr.FromString(fmt.Sprintf("sum_over_time(vector(%d)[1h:1ms])", i))})
	}
	mustCreate(t,
		sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{operatorLabel: "rulehealth"} }),
		rule("broken", "g", "1s", "ManyToMany", "", twoSeries+" * on() "+twoSeries),
		rule("firing", "f", "1s", "AlwaysFiring", "", "vector(1)"),
		heavy,
	)
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	if err := createPodObject(ctx, pd); err != nil {
		t.Fatal(err)
	}
	prom := promAPI{base: pd.url("web")}

	rulesHealthy := func(name string) (string, error) {
		var r monitoringv1.PrometheusRule
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: name}, &r); err != nil {
			return "", err
		}
		if err := accepted(r.Status.Bindings, sc.ns, "main", true); err != nil {
			return "", err
		}
		for _, b := range r.Status.Bindings {
			for _, c := range b.Conditions {
				if c.Type == "RulesHealthy" {
					return fmt.Sprintf("%s %s %s", c.Status, c.Reason, c.Message), nil
				}
			}
		}
		return "", fmt.Errorf("no RulesHealthy condition in %+v", r.Status.Bindings)
	}
	expect := func(name, want string) func() error {
		return func() error {
			got, err := rulesHealthy(name)
			if err != nil {
				return err
			}
			if got != want {
				return fmt.Errorf("RulesHealthy: %q, want %q", got, want)
			}
			return nil
		}
	}

	var reported time.Time
	sc.step("Prometheus reports the many-to-many error", 90*time.Second, func() error {
		r, _, err := prom.findRule("ManyToMany")
		if err != nil {
			return err
		}
		if r.Health != "err" || !strings.Contains(r.LastError, "many-to-many matching not allowed") {
			return fmt.Errorf("ManyToMany: health %q, lastError %q", r.Health, r.LastError)
		}
		reported = time.Now()
		return nil
	})
	sc.step("broken: the evaluation error in its status", 30*time.Second,
		expect("broken", "False RuleErrors 0/1: rule ManyToMany (group g): many-to-many matching not allowed: matching labels must be unique on one side"))
	// One poll is 2 s; the status write follows it at once.
	if d := time.Since(reported); d > 6*time.Second {
		t.Errorf("the error reached the status %s after Prometheus reported it, want within a poll (2 s) and the write", d.Round(100*time.Millisecond))
	} else {
		t.Logf("the error reached the status %s after Prometheus reported it", d.Round(100*time.Millisecond))
	}
	sc.step("firing: the alert firing", 60*time.Second, expect("firing", "True RulesEvaluating 1/1 rules evaluating, 1 firing"))

	sc.step("heavy: Prometheus's evaluationTime is over the interval", 60*time.Second, func() error {
		var data struct {
			Groups []struct {
				Name           string  `json:"name"`
				Interval       float64 `json:"interval"`
				EvaluationTime float64 `json:"evaluationTime"`
			} `json:"groups"`
		}
		if err := prom.get("/api/v1/rules", nil, &data); err != nil {
			return err
		}
		for _, g := range data.Groups {
			if g.Name == "heavy" {
				if g.EvaluationTime <= g.Interval {
					return fmt.Errorf("group heavy: evaluationTime %gs, interval %gs", g.EvaluationTime, g.Interval)
				}
				t.Logf("group heavy: evaluationTime %.2fs, interval %gs", g.EvaluationTime, g.Interval)
				return nil
			}
		}
		return fmt.Errorf("no group heavy among %d", len(data.Groups))
	})
	sc.step("heavy: SlowEvaluation in its status", 30*time.Second,
		expect("heavy", "True SlowEvaluation 3/3 rules evaluating; warning: group heavy takes longer to evaluate than its 100ms interval (evaluations are skipped)"))

	// The fix: matched on a, one to one; both series fire.
	var fixed monitoringv1.PrometheusRule
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "broken"}, &fixed); err != nil {
		t.Fatal(err)
	}
	fixed.Spec.Groups[0].Rules[0].Expr = intstr.FromString(twoSeries + " * on(a) " + twoSeries)
	if err := s.k8s.Update(ctx, &fixed); err != nil {
		t.Fatal(err)
	}
	sc.step("broken fixed: the error cleared, two alerts firing", 90*time.Second,
		expect("broken", "True RulesEvaluating 1/1 rules evaluating, 2 firing"))
}

// TestThanosRulerRuleHealth: a real `thanos rule` whose query endpoint refuses
// connections fails every evaluation; the operator reads the ruler's /api/v1/rules (port
// web, 10902) and writes that error into the PrometheusRule's binding by the ThanosRuler.
func TestThanosRulerRuleHealth(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()
	sc.startOperator("tr-rulehealth", "--target-health-interval=2s")
	refused := allocateIPs(1)[0]
	if err := addHostAddress(refused); err != nil {
		t.Fatal(err)
	}
	mustCreate(t,
		&monitoringv1.ThanosRuler{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "ruler", Labels: map[string]string{operatorLabel: "tr-rulehealth"}},
			Spec: monitoringv1.ThanosRulerSpec{
				Version:            ptrTo("v" + imageVersion(thanosImageRepo)),
				ServiceAccountName: prometheusSA,
				QueryEndpoints:     []string{refused + ":9090"},
				RuleSelector:       &metav1.LabelSelector{MatchLabels: sc.labels()},
				EvaluationInterval: "1s",
			},
		},
		&monitoringv1.PrometheusRule{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "global", Labels: sc.labels()},
			Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g",
				Rules: []monitoringv1.Rule{{Alert: "NeedsQuery", Expr: intstr.FromString(`up == 0`)}}}}},
		},
	)
	ruler := sc.runPods(sc.ns, "thanos-ruler-ruler")[0]
	if err := createPodObject(ctx, ruler); err != nil {
		t.Fatal(err)
	}
	api := promAPI{base: ruler.url("web")}
	sc.step("the ruler reports the query error", 60*time.Second, func() error {
		r, _, err := api.findRule("NeedsQuery")
		if err != nil {
			return err
		}
		if r.Health != "err" {
			return fmt.Errorf("health %q: %s", r.Health, r.LastError)
		}
		t.Logf("the ruler's lastError: %s", r.LastError)
		return nil
	})
	sc.step("the PrometheusRule's binding by the ThanosRuler: RuleErrors", 30*time.Second, func() error {
		var r monitoringv1.PrometheusRule
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "global"}, &r); err != nil {
			return err
		}
		for _, b := range r.Status.Bindings {
			if b.Resource != monitoringv1.ThanosRulerName || b.Name != "ruler" {
				continue
			}
			for _, c := range b.Conditions {
				if c.Type != "RulesHealthy" {
					continue
				}
				got := fmt.Sprintf("%s %s %s", c.Status, c.Reason, c.Message)
				// Thanos's error when no query endpoint answers.
				if want := "False RuleErrors 0/1: rule NeedsQuery (group g): no query API server reachable"; got != want {
					return fmt.Errorf("RulesHealthy: %q, want %q", got, want)
				}
				return nil
			}
		}
		return fmt.Errorf("no RulesHealthy condition by the ThanosRuler in %+v", r.Status.Bindings)
	})
}
