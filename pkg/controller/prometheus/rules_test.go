package prometheus

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
		if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: layout.RuleConfigMapName(p, i)}, cm); err != nil {
			return out
		}
		for k, v := range cm.Data {
			out[k] = v
		}
	}
}

func (f *fixture) ruleVerdict(p string) selection.Verdict {
	vs, _ := f.store.Verdicts(monitoringv1.PrometheusRuleKind, types.NamespacedName{Namespace: "app", Name: "r"})
	return vs[f.r.owner(types.NamespacedName{Namespace: "mon", Name: p})]
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
