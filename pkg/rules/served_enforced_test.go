package rules

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestSatisfiesEnforcement(t *testing.T) {
	rule := &monitoringv1.PrometheusRule{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "r", UID: "u1", Generation: 3}}
	spec := monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{
		{Alert: "A", Expr: intstr.FromString(`sum(rate(http_requests_total{code="500"}[5m])) / sum(rate(http_requests_total[5m])) > 0.1`)},
		{Record: "x:y", Expr: intstr.FromString(`up`)},
	}}}}
	plain, err := RenderFile(rule, spec)
	if err != nil {
		t.Fatal(err)
	}
	enforcedSpec, err := EnforceNamespaceLabel(spec, "namespace", "team")
	if err != nil {
		t.Fatal(err)
	}
	enforced, err := RenderFile(rule, enforcedSpec)
	if err != nil {
		t.Fatal(err)
	}
	otherSpec, _ := EnforceNamespaceLabel(spec, "namespace", "other")
	other, _ := RenderFile(rule, otherSpec)
	otherLabelSpec, _ := EnforceNamespaceLabel(spec, "tenant", "team")
	otherLabel, _ := RenderFile(rule, otherLabelSpec)

	for _, c := range []struct {
		name  string
		file  []byte
		label string
		want  bool
	}{
		{"no enforcement asked", plain, "", true},
		{"rendered before enforcement was turned on", plain, "namespace", false},
		{"rendered with enforcement", enforced, "namespace", true},
		{"enforced for another namespace", other, "namespace", false},
		{"enforced with another label", otherLabel, "namespace", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := SatisfiesEnforcement(c.file, c.label, "team")
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	if _, err := SatisfiesEnforcement([]byte("groups: [ {"), "namespace", "team"); err == nil {
		t.Fatal("a damaged file: want an error")
	}
}
