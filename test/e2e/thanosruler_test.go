//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// TestThanosRuler: a ThanosRuler's pod runs the real `thanos rule` with the generated
// arguments and rule files; it evaluates a PrometheusRule's alert against a real `thanos
// query` reading a Prometheus through its Thanos sidecar, and sends the firing alert to the
// suite's real Alertmanager, with the ThanosRuler's labels and without its replica label.
func TestThanosRuler(t *testing.T) {
	sc := newScenario(t, 4*time.Minute)
	defer sc.done()
	st := sc.thanosStack()
	sc.step("thanos query answers up{job=\"sample\"} through the sidecar", 60*time.Second, func() error {
		res, err := st.query.query(`up{job="sample"}`)
		if err != nil {
			return err
		}
		if len(res) != 1 {
			return fmt.Errorf("%d series", len(res))
		}
		return nil
	})

	mustCreate(t,
		&monitoringv1.ThanosRuler{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "ruler"},
			Spec: monitoringv1.ThanosRulerSpec{
				Version:            ptr.To(st.version),
				ServiceAccountName: prometheusSA,
				QueryEndpoints:     []string{strings.TrimPrefix(st.query.base, "http://")},
				AlertManagersURL:   []string{s.am.url},
				RuleSelector:       &metav1.LabelSelector{MatchLabels: sc.labels()},
				EvaluationInterval: "1s",
				Labels:             map[string]string{"ruler": "e2e"},
			},
		},
		&monitoringv1.PrometheusRule{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "global-alerts", Labels: sc.labels()},
			Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{
				Name:                    "e2e-thanos",
				PartialResponseStrategy: "warn",
				Rules: []monitoringv1.Rule{{
					Alert:  "E2ESampleUpGlobally",
					Expr:   intstr.FromString(`sum by (job, namespace) (up{job="sample"}) >= 1`),
					Labels: map[string]string{"severity": "info"},
				}},
			}}},
		},
	)
	ruler := sc.runPods(sc.ns, "thanos-ruler-ruler")[0]
	api := promAPI{base: ruler.url("web")}
	sc.step("the ruler loaded the rule and its alert fires", 60*time.Second, func() error {
		r, _, err := api.findRule("E2ESampleUpGlobally")
		if err != nil {
			return err
		}
		if r.Health != "ok" || r.State != "firing" {
			return fmt.Errorf("rule health %q state %q: %s", r.Health, r.State, r.LastError)
		}
		return nil
	})
	match := map[string]string{"alertname": "E2ESampleUpGlobally", "namespace": sc.ns}
	sc.step("the ruler's alert reaches Alertmanager", 60*time.Second, func() error {
		alerts, err := alertmanagerAlerts(s.am.url, match)
		if err != nil {
			return err
		}
		if len(alerts) != 1 {
			return fmt.Errorf("Alertmanager holds %d alerts matching %v", len(alerts), match)
		}
		a := alerts[0]
		if a.Labels["ruler"] != "e2e" || a.Labels["severity"] != "info" || a.Labels["job"] != "sample" {
			return fmt.Errorf("alert labels %v", a.Labels)
		}
		if _, ok := a.Labels["thanos_ruler_replica"]; ok {
			return fmt.Errorf("alert carries thanos_ruler_replica (--alert.label-drop should drop it): %v", a.Labels)
		}
		return nil
	})
}
