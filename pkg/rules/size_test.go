package rules

import (
	"strings"
	"testing"
	"unicode/utf8"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// boundSpec puts s in every string field of a two-group spec.
func boundSpec(s string) monitoringv1.PrometheusRuleSpec {
	d := monitoringv1.Duration("1m")
	kf := monitoringv1.NonEmptyDuration("1m")
	m := map[string]string{s: s, "k" + s: s + s}
	rules := []monitoringv1.Rule{
		{Alert: s, Expr: intstr.FromString(s), For: &d, KeepFiringFor: &kf, Labels: m, Annotations: m},
		{Record: s, Expr: intstr.FromString(s), Labels: m},
	}
	return monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{
		{Name: s, Labels: m, Interval: &d, QueryOffset: &d, Rules: rules},
		{Name: "x" + s, Rules: rules},
	}}
}

func checkBound(t *testing.T, s string) {
	t.Helper()
	spec := boundSpec(s)
	body, err := renderBody(spec)
	if err != nil {
		t.Fatal(err)
	}
	if bound := renderedSizeBound(spec); len(body) > bound {
		t.Errorf("%q: rendered %d bytes, bound %d", s, len(body), bound)
	}
}

func TestRenderedSizeBound(t *testing.T) {
	for _, s := range []string{
		"",
		"up",
		"1",
		"null",
		"'quoted' \"twice\"",
		strings.Repeat("\x01", 300),
		strings.Repeat("\U0001F600", 300),
		strings.Repeat("\xff\xfe", 300),
		strings.Repeat("\n", 300),
		strings.Repeat("a\n", 300),
		strings.Repeat("word ", 400),
		strings.Repeat("\t \u0085\u2028", 100),
		"- [x]: {y} # z &a *b !c |d >e %f @g `h",
	} {
		checkBound(t, s)
	}
}

func FuzzRenderedSizeBound(f *testing.F) {
	f.Add("up{job=\"x\"}\n== 0")
	f.Add("\x00\x01\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2000 {
			return
		}
		if !utf8.ValidString(s) && len(s) > 500 {
			return
		}
		checkBound(t, s)
	})
}
