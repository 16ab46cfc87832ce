//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/reloader/dirhash"
)

// TestThanosRuler: a ThanosRuler's pod runs the real `thanos rule` with the generated
// arguments and rule files; it evaluates a PrometheusRule's alert against a real `thanos
// query` reading a Prometheus through its Thanos sidecar, and sends the firing alert to the
// suite's real Alertmanager, with the ThanosRuler's labels and without its replica label.
// Its operator runs with --reloader-report-config: the real reloader reports the hash of
// the rule files the ruler accepted on its pod, so ConfigLoaded is True for the rule
// ConfigMaps' hash, and after a rule edit True again for the new one.
func TestThanosRuler(t *testing.T) {
	sc := newScenario(t, 4*time.Minute)
	defer sc.done()
	ctx := context.Background()
	sc.startOperator("tr-cl", "--reloader-report-config")
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

	rule := &monitoringv1.PrometheusRule{
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
	}
	mustCreate(t,
		&monitoringv1.ThanosRuler{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "ruler", Labels: map[string]string{operatorLabel: "tr-cl"}},
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
		rule,
	)
	// No StatefulSet controller runs here: the Pod object the reloader reports on is
	// created as it would create it, before the pod starts.
	var sts appsv1.StatefulSet
	sc.step("StatefulSet with --report-pod", 30*time.Second, func() error {
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "thanos-ruler-ruler"}, &sts); err != nil {
			return err
		}
		for _, c := range sts.Spec.Template.Spec.Containers {
			if c.Name == "config-reloader" && slices.Contains(c.Args, "--report-pod="+sc.ns+"/$(POD_NAME)") {
				return nil
			}
		}
		return fmt.Errorf("the reloader has no --report-pod")
	})
	mustCreate(t, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: sts.Name + "-0", Labels: sts.Spec.Template.Labels,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: sts.Name, UID: sts.UID}}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "thanos-ruler", Image: "localhost/lookout/thanos:e2e"}}},
	})
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

	hash := rulerRulesHash(ctx, sc.ns)
	sc.step("ConfigLoaded=True for the rule files (sha256 "+hash[:12]+")", 60*time.Second, func() error {
		return rulerLoaded(ctx, sc.ns, hash)
	})

	// A rule edit: the reloader reports the new rule files once the ruler accepted them.
	mustUpdate(t, rule, func() { rule.Spec.Groups[0].Rules[0].Labels["severity"] = "warning" })
	t0 := time.Now()
	var edited string
	sc.step("the operator writes the edited rule", 30*time.Second, func() error {
		if edited = rulerRulesHash(ctx, sc.ns); edited == hash {
			return fmt.Errorf("rule ConfigMaps unchanged")
		}
		return nil
	})
	sc.step("ConfigLoaded=True for the edited rule files (sha256 "+edited[:12]+")", s.kubeSync+60*time.Second+kubeletSlack(), func() error {
		return rulerLoaded(ctx, sc.ns, edited)
	})
	t.Logf("rule edit -> ConfigLoaded=True in %s (kubelet sync every %s)", time.Since(t0).Round(time.Millisecond), s.kubeSync)
	sc.step("the ruler serves the edited rule", 30*time.Second, func() error {
		r, _, err := api.findRule("E2ESampleUpGlobally")
		if err != nil {
			return err
		}
		if r.Labels["severity"] != "warning" {
			return fmt.Errorf("rule labels %v", r.Labels)
		}
		return nil
	})
}

// rulerRulesHash is the hash of the rule ConfigMaps of the ThanosRuler "ruler" of ns, as
// the operator computes it (package dirhash); "" when they cannot be read.
func rulerRulesHash(ctx context.Context, ns string) string {
	var data []map[string]string
	for n := 0; ; n++ {
		var cm corev1.ConfigMap
		err := s.k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.ThanosRuler("ruler").RuleConfigMap(n)}, &cm)
		if apierrors.IsNotFound(err) {
			return dirhash.OfData(data...)
		}
		if err != nil {
			return ""
		}
		data = append(data, cm.Data)
	}
}

// rulerLoaded is nil when the ThanosRuler "ruler" of ns has ConfigLoaded True for hash.
func rulerLoaded(ctx context.Context, ns, hash string) error {
	var tr monitoringv1.ThanosRuler
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "ruler"}, &tr); err != nil {
		return err
	}
	for _, c := range tr.Status.Conditions {
		if c.Type != "ConfigLoaded" {
			continue
		}
		if want := "the 1 replica runs the latest configuration (sha256 " + hash[:12] + ")"; c.Status != monitoringv1.ConditionTrue || c.Message != want {
			return fmt.Errorf("ConfigLoaded=%s %s: %s", c.Status, c.Reason, c.Message)
		}
		return nil
	}
	return fmt.Errorf("no ConfigLoaded condition")
}
