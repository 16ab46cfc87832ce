package selection_test

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"testing"

	"github.com/lookout-operator/lookout/pkg/selection"
)

func TestScope(t *testing.T) {
	cases := []struct {
		name        string
		scope       selection.Scope
		in, out     []string
		all         bool
		description string
	}{
		{"zero value is every namespace", selection.Scope{}, []string{"a", "kube-system"}, nil, true, "all"},
		{"nil is every namespace", selection.Scope(nil), []string{"a"}, nil, true, "all"},
		{"map literal allow list", selection.Scope{"a": true}, []string{"a"}, []string{"b"}, false, "a"},
		{"empty allow list is every namespace", selection.NewScope(nil), []string{"a"}, nil, true, "all"},
		{"allow list", selection.NewScope([]string{"b", "a"}), []string{"a", "b"}, []string{"c"}, false, "a,b"},
		{"deny list", selection.NewScopeExcept(nil, []string{"kube-system"}), []string{"a"}, []string{"kube-system"}, false, "all except kube-system"},
		{"deny list ignored next to an allow list", selection.NewScopeExcept([]string{"a"}, []string{"a"}), []string{"a"}, []string{"b"}, false, "a"},
		{"union of allow lists", selection.NewScope([]string{"a"}).Union(selection.NewScope([]string{"b"})), []string{"a", "b"}, []string{"c"}, false, "a,b"},
		{"union of deny and allow lifts the deny", selection.NewScopeExcept(nil, []string{"x", "y"}).Union(selection.NewScope([]string{"x"})), []string{"x", "a"}, []string{"y"}, false, "all except y"},
		{"union of allow and deny", selection.NewScope([]string{"x"}).Union(selection.NewScopeExcept(nil, []string{"x", "y"})), []string{"x"}, []string{"y"}, false, "all except y"},
		{"union with everything", selection.NewScope([]string{"x"}).Union(selection.Scope{}), []string{"x", "z"}, nil, true, "all"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, ns := range c.in {
				if !c.scope.Contains(ns) {
					t.Errorf("%q should be in scope %s", ns, c.scope)
				}
			}
			for _, ns := range c.out {
				if c.scope.Contains(ns) {
					t.Errorf("%q should be out of scope %s", ns, c.scope)
				}
			}
			if c.scope.All() != c.all {
				t.Errorf("All() = %v, want %v", c.scope.All(), c.all)
			}
			if got := c.scope.String(); got != c.description {
				t.Errorf("String() = %q, want %q", got, c.description)
			}
		})
	}
}

func TestScopeEqual(t *testing.T) {
	if !selection.NewScope([]string{"a", "b"}).Equal(selection.NewScope([]string{"b", "a"})) {
		t.Error("same allow lists differ")
	}
	if selection.NewScope(nil).Equal(selection.NewScope([]string{"a"})) {
		t.Error("every namespace equals one namespace")
	}
	if selection.NewScopeExcept(nil, []string{"a"}).Equal(selection.Scope{}) {
		t.Error("a deny list equals every namespace")
	}
}

func TestJudgeDeniedNamespace(t *testing.T) {
	comp, err := selection.Compile(selection.Selector{Kind: "ServiceMonitor", Labels: &metav1.LabelSelector{}, Namespaces: &metav1.LabelSelector{}, OwnNamespace: "monitoring"})
	if err != nil {
		t.Fatal(err)
	}
	scope := selection.NewScopeExcept(nil, []string{"dev"})
	if v := comp.Judge(obj("dev", "a", nil), scope, nsLabels); v.Reason != selection.NamespaceNotWatched {
		t.Errorf("denied namespace: %s, want %s", v.Reason, selection.NamespaceNotWatched)
	}
	if v := comp.Judge(obj("prod", "a", nil), scope, nsLabels); v.Reason != selection.Accepted {
		t.Errorf("other namespace: %s, want Accepted", v.Reason)
	}
}
