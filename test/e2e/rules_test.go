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

// TestAlertReachesAlertmanager: a PrometheusRule is loaded by Prometheus (/api/v1/rules);
// when the sample app's gauge crosses the threshold the alert fires and reaches the real
// Alertmanager (/api/v2/alerts) that Prometheus discovered from spec.alerting, with the
// external labels and without the replica label.
func TestAlertReachesAlertmanager(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(1))
	mustCreate(t, sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) {
		p.Spec.Alerting = &monitoringv1.AlertingSpec{Alertmanagers: []monitoringv1.AlertmanagerEndpoints{{
			Namespace: ptrTo(alertmanagerNamespace), Name: alertmanagerService, Port: intstr.FromString("web"),
		}}}
	}))
	prom := promAPI{base: sc.runPods(sc.ns, statefulSetName("main", 0))[0].url("web")}

	mustCreate(t,
		&monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
				Endpoints: []monitoringv1.Endpoint{{Port: samplePortName, Interval: "1s"}},
			},
		},
		&monitoringv1.PrometheusRule{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "alerts", Labels: sc.labels()},
			Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{
				Name: "e2e",
				Rules: []monitoringv1.Rule{
					{Record: "e2e:sample_gauge:max", Expr: intstr.FromString("max(e2e_sample_gauge)")},
					{
						Alert:       "E2EGaugeHigh",
						Expr:        intstr.FromString("e2e_sample_gauge > 5"),
						Labels:      map[string]string{"severity": "warning"},
						Annotations: map[string]string{"summary": "the gauge is {{ $value }}"},
					},
				},
			}}},
		},
	)
	sc.step("PrometheusRule created: both rules loaded and healthy", 60*time.Second, func() error {
		for _, name := range []string{"e2e:sample_gauge:max", "E2EGaugeHigh"} {
			r, _, err := prom.findRule(name)
			if err != nil {
				return err
			}
			if r.Health != "ok" {
				return fmt.Errorf("rule %s health %q: %s", name, r.Health, r.LastError)
			}
		}
		return nil
	})
	sc.step("target scraped and recording rule evaluated", 60*time.Second, func() error {
		res, err := prom.query(`e2e:sample_gauge:max`)
		if err != nil {
			return err
		}
		if len(res) != 1 {
			return fmt.Errorf("e2e:sample_gauge:max has %d series", len(res))
		}
		return nil
	})

	app.instances[0].gauge.Set(10)
	sc.step("gauge set to 10: alert firing in Prometheus", 30*time.Second, func() error {
		r, _, err := prom.findRule("E2EGaugeHigh")
		if err != nil {
			return err
		}
		if r.State != "firing" {
			return fmt.Errorf("alert state %q", r.State)
		}
		return nil
	})
	match := map[string]string{"alertname": "E2EGaugeHigh", "namespace": sc.ns}
	sc.step("alert received by Alertmanager", 60*time.Second, func() error {
		alerts, err := alertmanagerAlerts(s.am.url, match)
		if err != nil {
			return err
		}
		if len(alerts) != 1 {
			return fmt.Errorf("Alertmanager holds %d alerts matching %v", len(alerts), match)
		}
		a := alerts[0]
		want := map[string]string{"severity": "warning", "prometheus": sc.ns + "/main", "pod": app.instances[0].pod, "job": "sample"}
		for k, v := range want {
			if a.Labels[k] != v {
				return fmt.Errorf("alert label %s=%q, want %q (labels %v)", k, a.Labels[k], v, a.Labels)
			}
		}
		if _, ok := a.Labels["prometheus_replica"]; ok {
			return fmt.Errorf("alert carries prometheus_replica (alert_relabel_configs should drop it): %v", a.Labels)
		}
		if a.Status.State != "active" || a.Annotations["summary"] != "the gauge is 10" {
			return fmt.Errorf("alert state %q, annotations %v", a.Status.State, a.Annotations)
		}
		return nil
	})
}

// TestInvalidRuleKeepsServing: an edit that makes a PrometheusRule invalid is rejected
// (status says so) while Prometheus keeps serving the last accepted version of it, and
// keeps taking other changes: a new rule created after the bad edit is loaded, with the
// old version of the first one next to it and no failed reload. Fixing the rule serves
// the fix.
func TestInvalidRuleKeepsServing(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	mustCreate(t, sc.prometheus(sc.ns, "main"))
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}

	first := recordingRule(sc, "first", "e2e:first", "vector(1)")
	mustCreate(t, first)
	sc.step("rule first (generation 1) served", 60*time.Second, func() error {
		return servesRule(prom, "e2e:first", "vector(1)")
	})

	// The reloader's first reload at start can find Prometheus not yet listening; it is
	// retried (5 s later in the sidecar), so wait for a successful last reload before
	// counting failures from here on.
	sc.step("config-reloader: last reload successful", 30*time.Second, func() error {
		m, err := scrapeMetrics(pd.url("reloader-web") + "/metrics")
		if err != nil {
			return err
		}
		if m["reloader_last_reload_successful"] != 1 {
			return fmt.Errorf("reloader_last_reload_successful = %v", m["reloader_last_reload_successful"])
		}
		return nil
	})
	failedBefore := reloaderFailures(t, pd)
	setExpr(t, first, "sum(rate(e2e_sample_gauge[1m])") // unbalanced parenthesis
	sc.step("invalid edit rejected in PrometheusRule status", 30*time.Second, func() error {
		var got monitoringv1.PrometheusRule
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "first"}, &got); err != nil {
			return err
		}
		if err := accepted(got.Status.Bindings, sc.ns, "main", false); err != nil {
			return err
		}
		for _, b := range got.Status.Bindings {
			for _, c := range b.Conditions {
				if !strings.Contains(c.Message, "still serving generation 1") {
					return fmt.Errorf("condition message %q does not say the old version is served", c.Message)
				}
			}
		}
		return nil
	})

	mustCreate(t, recordingRule(sc, "second", "e2e:second", "vector(2)"))
	sc.step("rule second, created after the bad edit, served", 60*time.Second, func() error {
		return servesRule(prom, "e2e:second", "vector(2)")
	})
	if err := servesRule(prom, "e2e:first", "vector(1)"); err != nil {
		t.Errorf("after the invalid edit: %v", err)
	}
	if failed := reloaderFailures(t, pd); failed != failedBefore {
		t.Errorf("config-reloader: %v failed reloads after the invalid edit, %v before", failed, failedBefore)
	}

	setExpr(t, first, "vector(3)")
	sc.step("rule first fixed: generation 3 served", 60*time.Second, func() error {
		return servesRule(prom, "e2e:first", "vector(3)")
	})
	sc.step("fixed rule accepted in status", 30*time.Second, func() error {
		var got monitoringv1.PrometheusRule
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "first"}, &got); err != nil {
			return err
		}
		return accepted(got.Status.Bindings, sc.ns, "main", true)
	})
}

// recordingRule is a PrometheusRule with one recording rule.
func recordingRule(sc *scenario, name, record, expr string) *monitoringv1.PrometheusRule {
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: name, Labels: sc.labels()},
		Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{
			Name:  name,
			Rules: []monitoringv1.Rule{{Record: record, Expr: intstr.FromString(expr)}},
		}}},
	}
}

// setExpr updates the expression of a recordingRule.
func setExpr(t *testing.T, r *monitoringv1.PrometheusRule, expr string) {
	t.Helper()
	mustUpdate(t, r, func() { r.Spec.Groups[0].Rules[0].Expr = intstr.FromString(expr) })
}

// servesRule checks that Prometheus has the rule loaded with that query and healthy (or
// not yet evaluated).
func servesRule(prom promAPI, name, query string) error {
	r, _, err := prom.findRule(name)
	if err != nil {
		return err
	}
	if r.Query != query {
		return fmt.Errorf("rule %s has query %q, want %q", name, r.Query, query)
	}
	if r.Health == "err" {
		return fmt.Errorf("rule %s: %s", name, r.LastError)
	}
	return nil
}

// reloaderFailures reads reloader_reloads_failed_total from the config-reloader, after
// checking that its last reload succeeded.
func reloaderFailures(t *testing.T, p *pod) float64 {
	t.Helper()
	m, err := scrapeMetrics(p.url("reloader-web") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	if m["reloader_last_reload_successful"] != 1 {
		t.Errorf("config-reloader: reloader_last_reload_successful = %v", m["reloader_last_reload_successful"])
	}
	return m["reloader_reloads_failed_total"]
}

func ptrTo[T any](v T) *T { return &v }
