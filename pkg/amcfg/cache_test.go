package amcfg_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/amcfg"
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
			t.Fatalf("run %d: cached output differs from cold output:\n%s", i, diff(string(cold.Config), string(res.Config)))
		}
	}
}
