package amcfg_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
	"github.com/lookout-operator/lookout/test/goldentest"
)

// A Generator's cache must never carry a verdict over to inputs that changed.
func TestGeneratorCacheFollowsChanges(t *testing.T) {
	g := amcfg.NewGenerator()
	obj := badRecv("emailConfigs", "    - to: a@example.com\n      from: b@example.com")
	key := types.NamespacedName{Namespace: "ns1", Name: "bad"}
	for i, c := range []struct {
		base   string
		accept bool
	}{
		{"", false},
		{"global:\n  smtp_smarthost: smtp.example.com:25\nroute:\n  receiver: x\nreceivers:\n- name: x\n", true},
		{"", false},
		{"global:\n  smtp_smarthost: smtp.example.com:25\nroute:\n  receiver: x\nreceivers:\n- name: x\n", true},
	} {
		res, err := g.Generate(tcase{base: c.base, configs: []string{obj, good}}.input(t))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Verdicts[key].Accepted; got != c.accept {
			t.Fatalf("run %d: accepted = %v, want %v (%+v)", i, got, c.accept, res.Verdicts[key])
		}
		cold, err := amcfg.Generate(tcase{base: c.base, configs: []string{obj, good}}.input(t))
		if err != nil {
			t.Fatal(err)
		}
		if string(cold.Config) != string(res.Config) {
			t.Fatalf("run %d: cached output differs from cold output:\n%s", i, goldentest.FirstDiff(string(cold.Config), string(res.Config)))
		}
	}
}

// Changing a Secret value or the spec between runs of one Generator gives what a cold
// run gives.
func TestGeneratorCacheFollowsSecretsAndSpecs(t *testing.T) {
	g := amcfg.NewGenerator()
	key := types.NamespacedName{Namespace: "ns1", Name: "team"}
	assets := mergedAssets(nil)
	for i, step := range []struct {
		url    string
		spec   string
		accept bool
	}{
		{"not a url", "    - apiURL: {name: s, key: url}", false},
		{"https://hooks.example.com/a", "    - apiURL: {name: s, key: url}", true},
		{"https://hooks.example.com/b", "    - apiURL: {name: s, key: url}", true},
		{"https://hooks.example.com/b", "    - apiURL: {name: s, key: url}\n      channel: '#x'", true},
		{"https://hooks.example.com/b", "    - apiURL: {name: s, key: url}\n      channel: '#x'", true},
	} {
		assets["secret/ns1/s/url"] = step.url
		tc := tcase{assets: assets, configs: []string{recv("slackConfigs", step.spec), good}}
		res, err := g.Generate(tc.input(t))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Verdicts[key].Accepted; got != step.accept {
			t.Fatalf("step %d: accepted = %v, want %v (%+v)", i, got, step.accept, res.Verdicts[key])
		}
		cold, err := amcfg.Generate(tc.input(t))
		if err != nil {
			t.Fatal(err)
		}
		if string(cold.Config) != string(res.Config) || len(cold.TLSAssets) != len(res.TLSAssets) {
			t.Fatalf("step %d: cached output differs from cold output:\n%s", i, goldentest.FirstDiff(string(cold.Config), string(res.Config)))
		}
	}
}
