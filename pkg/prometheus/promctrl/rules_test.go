package promctrl

import (
	"context"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/selection"
)

func prometheusRule(expr string, generation int64) *monitoringv1.PrometheusRule {
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "r", UID: "uid-rule", Generation: generation, Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{
			{Alert: "Down", Expr: intstr.FromString(expr)},
		}}}},
	}
}

// ruleFiles returns the rule files of Prometheus p across its rule ConfigMaps.
func (f *fixture) ruleFiles(p string) map[string]string {
	f.t.Helper()
	out := map[string]string{}
	for i := 0; ; i++ {
		cm := &corev1.ConfigMap{}
		if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: layout.Prometheus(p).RuleConfigMap(i)}, cm); err != nil {
			return out
		}
		for k, v := range cm.Data {
			out[k] = v
		}
	}
}

func (f *fixture) ruleVerdict(p string) selection.Verdict {
	vs, _ := f.store.Verdicts(monitoringv1.PrometheusRuleKind, types.NamespacedName{Namespace: "app", Name: "r"})
	return vs[f.r.Owner(types.NamespacedName{Namespace: "mon", Name: p})]
}

// An invalid new version of a rule keeps its last accepted version served, unless that
// version does not satisfy the namespace enforcement now in place.
func TestLastKnownGoodRespectsEnforcement(t *testing.T) {
	for _, enforceLater := range []bool{false, true} {
		name := "enforcement unchanged"
		if enforceLater {
			name = "enforcement turned on"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, Config{}, prom("p"), prometheusRule("up == 0", 1))
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			if files := f.ruleFiles("p"); len(files) != 1 {
				t.Fatalf("rule files %v", files)
			}
			p := &monitoringv1.Prometheus{}
			f.get(p, "mon", "p")
			if enforceLater {
				p.Spec.EnforcedNamespaceLabel = "namespace"
				p.Generation = 2
				if err := f.c.Update(context.Background(), p); err != nil {
					t.Fatal(err)
				}
			}
			rule := &monitoringv1.PrometheusRule{}
			f.get(rule, "app", "r")
			rule.Spec.Groups[0].Rules[0].Expr = intstr.FromString("up ==")
			rule.Generation = 2
			if err := f.c.Update(context.Background(), rule); err != nil {
				t.Fatal(err)
			}
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			files := f.ruleFiles("p")
			v := f.ruleVerdict("p")
			if v.Reason != selection.InvalidConfiguration {
				t.Fatalf("verdict %+v", v)
			}
			if enforceLater {
				if len(files) != 0 {
					t.Fatalf("a version rendered before enforcement is still served: %v", files)
				}
				if !strings.Contains(v.Message, "not served") {
					t.Fatalf("message %q", v.Message)
				}
				return
			}
			if len(files) != 1 || !strings.Contains(v.Message, "still serving generation 1") {
				t.Fatalf("files %v, message %q", files, v.Message)
			}
		})
	}
}

// Rules are judged with the name validation scheme the Prometheus runs with.
func TestRulesFollowTheNameValidationScheme(t *testing.T) {
	rule := prometheusRule("up == 0", 1)
	rule.Spec.Groups[0].Rules[0].Labels = map[string]string{"service.name": "api"}
	for _, c := range []struct {
		scheme monitoringv1.NameValidationSchemeOptions
		want   selection.Reason
	}{{"", selection.Accepted}, {monitoringv1.LegacyNameValidationScheme, selection.InvalidConfiguration}} {
		t.Run(string(c.scheme)+"-scheme", func(t *testing.T) {
			p := prom("p", func(p *monitoringv1.Prometheus) {
				p.Spec.Version = "v3.5.0"
				if c.scheme != "" {
					p.Spec.NameValidationScheme = &c.scheme
				}
			})
			f := newFixture(t, Config{}, p, rule.DeepCopy())
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			if v := f.ruleVerdict("p"); v.Reason != c.want {
				t.Fatalf("verdict %+v, want %s", v, c.want)
			}
		})
	}
}

// A bad edit with more problems than status shows still says which version is served.
func TestLastKnownGoodNoteSurvivesLongProblems(t *testing.T) {
	f := newFixture(t, Config{}, prom("p"), prometheusRule("up == 0", 1))
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	rule := &monitoringv1.PrometheusRule{}
	f.get(rule, "app", "r")
	rule.Spec.Groups[0].Rules = make([]monitoringv1.Rule, 500)
	for i := range rule.Spec.Groups[0].Rules {
		rule.Spec.Groups[0].Rules[i] = monitoringv1.Rule{Alert: "Down", Expr: intstr.FromString("up ==")}
	}
	rule.Generation = 2
	if err := f.c.Update(context.Background(), rule); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	v := f.ruleVerdict("p")
	if len(v.Message) > resourcestatus.MaxMessageBytes || !strings.HasPrefix(v.Message, "spec.groups[0].rules[0].expr") ||
		!strings.HasSuffix(v.Message, "; still serving generation 1, the last accepted version") {
		t.Errorf("message of %d bytes: %.80q … %q", len(v.Message), v.Message, v.Message[max(0, len(v.Message)-80):])
	}
	if files := f.ruleFiles("p"); len(files) != 1 {
		t.Errorf("rule files %v", files)
	}
}

// A last accepted version is served only while the Prometheus's current settings accept
// it: a changed name validation scheme, a feature flag taken away or an older version
// would make Prometheus refuse the rule file (and exit on a restart), so the rule is then
// served in no version and its binding says why (issue 32, item 4).
func TestLastKnownGoodFollowsCurrentSettings(t *testing.T) {
	legacy := monitoringv1.LegacyNameValidationScheme
	cases := []struct {
		name   string
		rule   func(*monitoringv1.RuleGroup)
		before func(*monitoringv1.Prometheus)
		change func(*monitoringv1.Prometheus)
		want   string
	}{
		{"name validation scheme", func(g *monitoringv1.RuleGroup) { g.Rules[0].Labels = map[string]string{"my.label": "x"} },
			nil, func(p *monitoringv1.Prometheus) { p.Spec.NameValidationScheme = &legacy }, "invalid label name: my.label"},
		{"experimental feature removed", func(g *monitoringv1.RuleGroup) { g.Rules[0].Expr = intstr.FromString("sort_by_label(up, \"job\")") },
			func(p *monitoringv1.Prometheus) {
				p.Spec.EnableFeatures = []monitoringv1.EnableFeature{"promql-experimental-functions"}
			},
			func(p *monitoringv1.Prometheus) { p.Spec.EnableFeatures = nil }, "sort_by_label"},
		{"older version", func(g *monitoringv1.RuleGroup) { g.QueryOffset = ptrTo(monitoringv1.Duration("1m")) },
			nil, func(p *monitoringv1.Prometheus) { p.Spec.Version = "v2.50.0" }, "query_offset"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule := prometheusRule("up == 0", 1)
			c.rule(&rule.Spec.Groups[0])
			f := newFixture(t, Config{}, prom("p", func(p *monitoringv1.Prometheus) {
				if c.before != nil {
					c.before(p)
				}
			}), rule)
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			if v := f.ruleVerdict("p"); v.Reason != selection.Accepted || len(f.ruleFiles("p")) != 1 {
				t.Fatalf("before the change: %+v, files %v", v, f.ruleFiles("p"))
			}
			p := &monitoringv1.Prometheus{}
			f.get(p, "mon", "p")
			c.change(p)
			p.Generation++
			if err := f.c.Update(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			v := f.ruleVerdict("p")
			if files := f.ruleFiles("p"); len(files) != 0 {
				t.Fatalf("a version the current settings refuse is still served: %v (verdict %+v)", files, v)
			}
			if v.Reason != selection.InvalidConfiguration || !strings.Contains(v.Message, "its last accepted version (generation 1) is not served either: the current version, features or name validation scheme refuse it") || !strings.Contains(v.Message, c.want) {
				t.Fatalf("verdict %+v", v)
			}
		})
	}
}
