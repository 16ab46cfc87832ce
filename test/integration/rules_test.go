package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/rules"
)

func newRule(ns, name string, groups ...monitoringv1.RuleGroup) *monitoringv1.PrometheusRule {
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"team": "a"}},
		Spec:       monitoringv1.PrometheusRuleSpec{Groups: groups},
	}
}

func alertGroup(name, alert, expr string) monitoringv1.RuleGroup {
	return monitoringv1.RuleGroup{Name: name, Rules: []monitoringv1.Rule{{
		Alert: alert, Expr: intstr.FromString(expr), Labels: map[string]string{"severity": "warning"},
		Annotations: map[string]string{"summary": "s"},
	}}}
}

// ruleFile returns the rule file of a PrometheusRule from the Prometheus's ConfigMaps.
func ruleFile(ns, prom string, r *monitoringv1.PrometheusRule) (string, error) {
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(r), r); err != nil {
		return "", err
	}
	var cms corev1.ConfigMapList
	if err := k8s.List(ctx, &cms, client.InNamespace(ns)); err != nil {
		return "", err
	}
	for _, cm := range cms.Items {
		if strings.HasPrefix(cm.Name, "prometheus-"+prom+"-rulefiles-") {
			if f, ok := cm.Data[rules.FileName(r)]; ok {
				return f, nil
			}
		}
	}
	return "", fmt.Errorf("no rule ConfigMap of %s holds %s", prom, rules.FileName(r))
}

func ruleBinding(ns, name string) (*monitoringv1.ConfigResourceCondition, int64, error) {
	r := &monitoringv1.PrometheusRule{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, r); err != nil {
		return nil, 0, err
	}
	if len(r.Status.Bindings) != 1 || len(r.Status.Bindings[0].Conditions) != 1 {
		return nil, r.Generation, fmt.Errorf("bindings %+v", r.Status.Bindings)
	}
	return &r.Status.Bindings[0].Conditions[0], r.Generation, nil
}

// TestRuleConfigMapsAndEnforcement: a selected PrometheusRule becomes a rule file in the
// rule ConfigMap, with the namespace label enforced on labels and selectors.
func TestRuleConfigMapsAndEnforcement(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	r := newRule(ns, "app", alertGroup("app.rules", "AppDown", `up{job="app"} == 0`))
	create(t, newPrometheus(ns, "rules", func(p *monitoringv1.Prometheus) { p.Spec.EnforcedNamespaceLabel = "namespace" }), r)
	eventually(t, 20*time.Second, "rule file", func() error {
		f, err := ruleFile(ns, "rules", r)
		if err != nil {
			return err
		}
		for _, want := range []string{"alert: AppDown", `up{job="app",namespace="` + ns + `"} == 0`, "namespace: " + ns, "lookout.dev/source"} {
			if !strings.Contains(f, want) {
				return fmt.Errorf("rule file lacks %q:\n%s", want, f)
			}
		}
		return nil
	})
	eventually(t, 10*time.Second, "rule accepted", func() error {
		c, gen, err := ruleBinding(ns, "app")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue || c.ObservedGeneration != gen {
			return fmt.Errorf("condition %+v", c)
		}
		return nil
	})
	if err := configContains(ns, "rules", layout.RulesDir+"/prometheus-rules-rulefiles-0/*.yaml"); err != nil {
		t.Error(err)
	}
}

// TestRuleLastKnownGood: an invalid edit keeps the last accepted version served and says so
// in status; a rule invalid from the start is simply left out.
func TestRuleLastKnownGood(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	r := newRule(ns, "keep", alertGroup("keep.rules", "KeepMe", `up == 0`))
	broken := newRule(ns, "broken", alertGroup("broken.rules", "Never", `up ==`))
	create(t, newPrometheus(ns, "lkg"), r, broken)
	eventually(t, 20*time.Second, "first version served", func() error {
		_, err := ruleFile(ns, "lkg", r)
		return err
	})
	eventually(t, 10*time.Second, "broken from the start is rejected and not served", func() error {
		c, _, err := ruleBinding(ns, "broken")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionFalse || strings.Contains(c.Message, "still serving") {
			return fmt.Errorf("condition %+v", c)
		}
		if _, err := ruleFile(ns, "lkg", broken); err == nil {
			return fmt.Errorf("an invalid new rule is served")
		}
		return nil
	})

	breakRule(t, r, "KeepMe", `sum(rate(up[5m])`)
	eventually(t, 20*time.Second, "Accepted=False naming the served generation", func() error {
		c, gen, err := ruleBinding(ns, "keep")
		if err != nil {
			return err
		}
		want := `(group "keep.rules", alert "KeepMe")`
		if c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, want) ||
			!strings.Contains(c.Message, "still serving generation 1") || c.ObservedGeneration != gen || gen != 2 {
			return fmt.Errorf("condition %+v (generation %d)", c, gen)
		}
		return nil
	})
	f, err := ruleFile(ns, "lkg", r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f, "expr: up == 0") || !strings.Contains(f, `"generation":1`) {
		t.Errorf("last accepted version not served:\n%s", f)
	}
	p, _ := getPrometheus(ns, "lkg")
	if c := condition(p, monitoringv1.Reconciled); c == nil || c.Status != monitoringv1.ConditionTrue {
		t.Errorf("an invalid rule must not fail the whole Prometheus: %+v", c)
	}
}

func breakRule(t *testing.T, r *monitoringv1.PrometheusRule, alert, expr string) {
	t.Helper()
	update(t, r, func() { r.Spec.Groups[0].Rules[0].Expr = intstr.FromString(expr) })
}

// TestRuleLastKnownGoodAcrossRestart: the last accepted version is read back from the live
// ConfigMap by a freshly started operator.
func TestRuleLastKnownGoodAcrossRestart(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	dedicated := labels.SelectorFromSet(labels.Set{dedicatedLabel: ns})
	stop, err := startOperator(ctx, dedicated)
	if err != nil {
		t.Fatal(err)
	}
	r := newRule(ns, "survive", alertGroup("survive.rules", "Survive", `up == 0`))
	create(t, newPrometheus(ns, "restart", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{dedicatedLabel: ns} }), r)
	eventually(t, 20*time.Second, "first version served", func() error { _, err := ruleFile(ns, "restart", r); return err })
	stop()

	breakRule(t, r, "Survive", `up ==`)
	stop, err = startOperator(ctx, dedicated)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	eventually(t, 20*time.Second, "new operator keeps the served version", func() error {
		c, _, err := ruleBinding(ns, "survive")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, "still serving generation 1") {
			return fmt.Errorf("condition %+v", c)
		}
		f, err := ruleFile(ns, "restart", r)
		if err != nil {
			return err
		}
		if !strings.Contains(f, "expr: up == 0") {
			return fmt.Errorf("served file changed:\n%s", f)
		}
		return nil
	})
}

// TestRulePackingDoesNotRoll: rules larger than one ConfigMap spread over two; going from
// one rule ConfigMap to two leaves the StatefulSet untouched.
func TestRulePackingDoesNotRoll(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "pack"), bigRule(ns, "big-1"))
	eventually(t, 20*time.Second, "one rule ConfigMap", func() error { return ruleConfigMaps(ns, "pack", 1) })
	eventually(t, 20*time.Second, "StatefulSet", func() error { _, err := statefulSet(ns, "prometheus-pack"); return err })
	before, _ := statefulSet(ns, "prometheus-pack")

	create(t, bigRule(ns, "big-2"))
	eventually(t, 20*time.Second, "two rule ConfigMaps", func() error { return ruleConfigMaps(ns, "pack", 2) })
	after, _ := statefulSet(ns, "prometheus-pack")
	if after.ResourceVersion != before.ResourceVersion {
		t.Error("adding a rule ConfigMap changed the StatefulSet (the pods would roll)")
	}
	if err := configContains(ns, "pack", "prometheus-pack-rulefiles-1/*.yaml"); err != nil {
		t.Error(err)
	}
}

// bigRule is a PrometheusRule of about 300 KiB, so two do not fit one ConfigMap.
func bigRule(ns, name string) *monitoringv1.PrometheusRule {
	g := monitoringv1.RuleGroup{Name: name}
	for i := 0; i < 150; i++ {
		g.Rules = append(g.Rules, monitoringv1.Rule{
			Record: fmt.Sprintf("job:metric_%d:rate5m", i), Expr: intstr.FromString(fmt.Sprintf("sum by (job) (rate(metric_%d_total[5m]))", i)),
			Labels: map[string]string{"padding": strings.Repeat("x", 1900)},
		})
	}
	return newRule(ns, name, g)
}

func ruleConfigMaps(ns, prom string, want int) error {
	var cms corev1.ConfigMapList
	if err := k8s.List(ctx, &cms, client.InNamespace(ns)); err != nil {
		return err
	}
	n := 0
	for _, cm := range cms.Items {
		if strings.HasPrefix(cm.Name, "prometheus-"+prom+"-rulefiles-") {
			n++
		}
	}
	if n != want {
		return fmt.Errorf("%d rule ConfigMaps, want %d", n, want)
	}
	return nil
}

// TestRuleLastKnownGoodFollowsSettings: a rule accepted with a dotted label name is no
// longer served, in any version, once its Prometheus switches to the Legacy name
// validation scheme (Prometheus would refuse the rule file and exit on a restart); the
// binding says why (issue 32, item 4; the message of the first reconcile is checked in
// TestLastKnownGoodFollowsCurrentSettings).
func TestRuleLastKnownGoodFollowsSettings(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	g := alertGroup("dotted.rules", "Dotted", `up == 0`)
	g.Rules[0].Labels["my.label"] = "x"
	r := newRule(ns, "dotted", g)
	p := newPrometheus(ns, "scheme")
	create(t, p, r)
	eventually(t, 20*time.Second, "accepted under the UTF-8 scheme", func() error {
		_, err := ruleFile(ns, "scheme", r)
		return err
	})
	update(t, p, func() {
		legacy := monitoringv1.LegacyNameValidationScheme
		p.Spec.NameValidationScheme = &legacy
	})
	eventually(t, 20*time.Second, "not served under the Legacy scheme", func() error {
		c, _, err := ruleBinding(ns, "dotted")
		if err != nil {
			return err
		}
		// The reconcile that stops serving it says "its last accepted version (generation 1)
		// is not served either: ..."; later ones find nothing served and give the problem.
		if c.Status != monitoringv1.ConditionFalse || strings.Contains(c.Message, "still serving") || !strings.Contains(c.Message, "invalid label name: my.label") {
			return fmt.Errorf("condition %+v", c)
		}
		if f, err := ruleFile(ns, "scheme", r); err == nil {
			return fmt.Errorf("still served:\n%s", f)
		}
		return nil
	})
}
