package rules

import (
	"errors"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

// TestCheckTemplateAgreesWithRulefmt checks that the template check gives the verdict and
// message of rulefmt's own check, which Prometheus runs when it loads rules.
func TestCheckTemplateAgreesWithRulefmt(t *testing.T) {
	texts := []string{
		"", "plain", "{{ $value }}", "{{ $labels.instance }} is down", "{{ $value | humanize }}",
		"{{ $externalLabels.cluster }}", "{{ $externalURL }}", "{{ .Labels.job }}",
		`{{ with query "up" }}{{ . | first | value }}{{ end }}`, "{{ humanizeDuration 3 }}",
		"{{ $value ", "{{ humanizeFoo $value }}", "{{ end }}", "{{ $foo }}", "{{ if }}", "}}{{",
	}
	p := parser.NewParser(parser.Options{})
	valid := newTemplateSet()
	for _, text := range texts {
		for range 2 { // the second round answers from the set of valid texts
			r := rulefmt.Rule{Alert: "A", Expr: "up", Annotations: map[string]string{"a": text}}
			var want string
			for _, we := range r.Validate(rulefmt.RuleNode{}, model.UTF8Validation, p) {
				want = errors.Unwrap(&we).Error()
			}
			var got string
			if err := checkTemplate(valid, "A", text); err != nil {
				got = `annotation "a": ` + err.Error()
			}
			if got != want {
				t.Errorf("%q: checkTemplate says %q, rulefmt says %q", text, got, want)
			}
		}
	}
}

func TestTemplateSetBounded(t *testing.T) {
	s := newTemplateSet()
	for i := range maxRememberedTemplates + 10 {
		s.add(string(rune(i)) + "{{ . }}")
	}
	if n := len(s.texts); n > maxRememberedTemplates {
		t.Errorf("set holds %d texts, more than %d", n, maxRememberedTemplates)
	}
	if !s.has(string(rune(maxRememberedTemplates+9)) + "{{ . }}") {
		t.Error("the last text added is not remembered")
	}
}

// TestTemplatesRememberedPerValidator: a validator remembers the templates it found valid,
// and only it does.
func TestTemplatesRememberedPerValidator(t *testing.T) {
	t.Parallel()
	const text = "{{ $labels.instance }} of {{ $labels.job }} is down"
	spec := monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{{
		Alert: "Down", Expr: intOrString("up == 0"), Annotations: map[string]string{"summary": text},
	}}}}}
	first, err := NewValidator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ps := first.Validate(spec); len(ps) > 0 {
		t.Fatalf("unexpected problems: %v", ps)
	}
	if !first.templates.has(text) {
		t.Error("the validator did not remember the template it checked")
	}
	second, err := NewValidator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if second.templates.has(text) {
		t.Error("a fresh validator knows a template another validator checked")
	}
}
