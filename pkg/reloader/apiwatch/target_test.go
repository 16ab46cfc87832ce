package apiwatch

import (
	"reflect"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
)

func TestParseTarget(t *testing.T) {
	t.Parallel()
	got, err := ParseTarget(KindSecret, "monitoring/prometheus-k8s=/etc/prometheus/config/")
	if err != nil {
		t.Fatal(err)
	}
	want := Target{Kind: KindSecret, Namespace: "monitoring", Name: "prometheus-k8s", Dir: "/etc/prometheus/config"}
	if got != want {
		t.Fatalf("%+v, want %+v", got, want)
	}
	for _, bad := range []string{"", "monitoring/prometheus-k8s", "prometheus-k8s=/x", "monitoring/=/x",
		"/name=/x", "monitoring/name=", "Monitoring/name=/x", "ns/Bad_Name=/x"} {
		if _, err := ParseTarget(KindConfigMap, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPolicyRules(t *testing.T) {
	t.Parallel()
	rules := PolicyRules([]Target{
		{Kind: KindConfigMap, Namespace: "m", Name: "rules-1"},
		{Kind: KindSecret, Namespace: "m", Name: "cfg"},
		{Kind: KindConfigMap, Namespace: "m", Name: "rules-0"},
		{Kind: KindConfigMap, Namespace: "m", Name: "rules-0"},
	})
	want := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"secrets"}, ResourceNames: []string{"cfg"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"rules-0", "rules-1"}, Verbs: []string{"get", "list", "watch"}},
	}
	if !reflect.DeepEqual(rules, want) {
		t.Fatalf("%+v", rules)
	}
}
