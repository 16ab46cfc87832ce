package selection_test

import (
	"fmt"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/selection"
)

func obj(ns, name string, labels map[string]string) *monitoringv1.ServiceMonitor {
	return &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
}

var namespaces = map[string]map[string]string{
	"monitoring": {"team": "platform"},
	"prod":       {"env": "prod", "monitor": "yes"},
	"dev":        {"env": "dev"},
}

func nsLabels(ns string) (map[string]string, bool) { l, ok := namespaces[ns]; return l, ok }

func TestJudge(t *testing.T) {
	all := &metav1.LabelSelector{}
	team := &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	prodNS := &metav1.LabelSelector{MatchLabels: map[string]string{"monitor": "yes"}}
	cases := []struct {
		name      string
		sel, nsel *metav1.LabelSelector
		scope     []string
		o         *monitoringv1.ServiceMonitor
		want      selection.Reason
	}{
		{"nil selector selects nothing", nil, nil, nil, obj("monitoring", "a", map[string]string{"team": "a"}), selection.NotSelectedByLabels},
		{"empty selector selects all in own namespace", all, nil, nil, obj("monitoring", "a", nil), selection.Accepted},
		{"nil namespace selector: own namespace only", all, nil, nil, obj("prod", "a", nil), selection.NamespaceNotSelected},
		{"empty namespace selector: every namespace", all, all, nil, obj("dev", "a", nil), selection.Accepted},
		{"namespace selector matches", team, prodNS, nil, obj("prod", "a", map[string]string{"team": "a"}), selection.Accepted},
		{"namespace selector does not match", team, prodNS, nil, obj("dev", "a", map[string]string{"team": "a"}), selection.NamespaceNotSelected},
		{"unknown namespace", team, prodNS, nil, obj("ghost", "a", map[string]string{"team": "a"}), selection.NamespaceNotSelected},
		{"labels do not match", team, all, nil, obj("prod", "a", map[string]string{"team": "b"}), selection.NotSelectedByLabels},
		{"outside watched namespaces", all, all, []string{"monitoring"}, obj("prod", "a", nil), selection.NamespaceNotWatched},
		{"inside watched namespaces", all, all, []string{"monitoring", "prod"}, obj("prod", "a", nil), selection.Accepted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			comp, err := selection.Compile(selection.Selector{Kind: "ServiceMonitor", Labels: c.sel, Namespaces: c.nsel, OwnNamespace: "monitoring"})
			if err != nil {
				t.Fatal(err)
			}
			v := comp.Judge(c.o, selection.NewScope(c.scope), nsLabels)
			if v.Reason != c.want {
				t.Fatalf("reason %s (%s), want %s", v.Reason, v.Message, c.want)
			}
			if v.Reason != selection.Accepted && v.Message == "" {
				t.Error("a rejection without a message")
			}
			if got := comp.Matches(c.o, selection.NewScope(c.scope), nsLabels); got != (c.want == selection.Accepted) {
				t.Errorf("Matches=%v disagrees with Judge", got)
			}
		})
	}
}

func TestSelectSortsAndReportsAll(t *testing.T) {
	comp, err := selection.Compile(selection.Selector{Kind: "ServiceMonitor", Labels: &metav1.LabelSelector{}, Namespaces: &metav1.LabelSelector{}, OwnNamespace: "monitoring"})
	if err != nil {
		t.Fatal(err)
	}
	objs := []*monitoringv1.ServiceMonitor{obj("prod", "b", nil), obj("dev", "z", nil), obj("prod", "a", nil), obj("ghost", "x", nil)}
	sel, verdicts := selection.Select(comp, objs, selection.NewScope([]string{"prod", "dev"}), nsLabels)
	var names []string
	for _, s := range sel {
		names = append(names, s.Namespace+"/"+s.Name)
	}
	if got := names; len(got) != 3 || got[0] != "dev/z" || got[1] != "prod/a" || got[2] != "prod/b" {
		t.Fatalf("selected %v, want sorted dev/z prod/a prod/b", got)
	}
	if len(verdicts) != 4 || verdicts[1].Name != "x" || verdicts[1].Reason != selection.NamespaceNotWatched {
		t.Fatalf("verdicts %+v", verdicts)
	}
}

// TestSelectSortsWhateverTheMemo: objects in the order Select last left them are taken
// as sorted; any other order, of the same number of objects, is sorted again.
func TestSelectSortsWhateverTheMemo(t *testing.T) {
	comp, err := selection.Compile(selection.Selector{Kind: "ServiceMonitor", Labels: &metav1.LabelSelector{}, Namespaces: &metav1.LabelSelector{}})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := obj("dev", "a", nil), obj("dev", "b", nil), obj("prod", "a", nil)
	order := func(objs ...*monitoringv1.ServiceMonitor) string {
		sel, _ := selection.Select(comp, objs, selection.NewScope(nil), nsLabels)
		var names []string
		for _, s := range sel {
			names = append(names, s.Namespace+"/"+s.Name)
		}
		return strings.Join(names, " ")
	}
	const want = "dev/a dev/b prod/a"
	for i, objs := range [][]*monitoringv1.ServiceMonitor{{c, a, b}, {a, b, c}, {b, c, a}, {a, b, c}, {c, b, a}} {
		if got := order(objs...); got != want {
			t.Errorf("call %d: %s, want %s", i, got, want)
		}
	}
}

func TestCompileRejectsInvalidSelectors(t *testing.T) {
	bad := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Sometimes"}}}
	if _, err := selection.Compile(selection.Selector{Kind: "PodMonitor", Labels: bad}); err == nil {
		t.Error("invalid label selector accepted")
	}
	if _, err := selection.Compile(selection.Selector{Kind: "PodMonitor", Labels: &metav1.LabelSelector{}, Namespaces: bad}); err == nil {
		t.Error("invalid namespace selector accepted")
	}
}

// TestSelectJudgesChangedObjectsAgain: Select remembers the label match of the objects it
// saw, by position, namespace, name and resourceVersion; an object replaced by a new
// version (as the informer replaces a changed object) is judged on its own labels, at the
// same position and after the set changed, and objects without a resourceVersion always.
func TestSelectJudgesChangedObjectsAgain(t *testing.T) {
	comp, err := selection.Compile(selection.Selector{Kind: "ServiceMonitor", Labels: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}, Namespaces: &metav1.LabelSelector{}})
	if err != nil {
		t.Fatal(err)
	}
	a := map[string]string{"team": "a"}
	version := 0
	at := func(name string, labels map[string]string) *monitoringv1.ServiceMonitor {
		o := obj("prod", name, labels)
		version++
		o.ResourceVersion = fmt.Sprint(version)
		return o
	}
	objs := []*monitoringv1.ServiceMonitor{at("a", a), at("b", a), at("c", a)}
	reasons := func(objs []*monitoringv1.ServiceMonitor) string {
		t.Helper()
		_, verdicts := selection.Select(comp, objs, nil, nsLabels)
		var s []string
		for _, v := range verdicts {
			s = append(s, v.Name+"="+string(v.Reason))
		}
		return strings.Join(s, " ")
	}
	if got, want := reasons(objs), "a=Accepted b=Accepted c=Accepted"; got != want {
		t.Fatalf("first: %s, want %s", got, want)
	}
	objs[1] = at("b", map[string]string{"team": "b"})
	if got, want := reasons(objs), "a=Accepted b=NotSelectedByLabels c=Accepted"; got != want {
		t.Fatalf("b relabelled: %s, want %s", got, want)
	}
	objs[1] = at("b", a)
	objs = append(objs, at("0", map[string]string{"team": "b"}))
	if got, want := reasons(objs), "0=NotSelectedByLabels a=Accepted b=Accepted c=Accepted"; got != want {
		t.Fatalf("b back, 0 added in front: %s, want %s", got, want)
	}
	objs[0] = at("a", nil)
	if got, want := reasons(objs), "0=NotSelectedByLabels a=NotSelectedByLabels b=Accepted c=Accepted"; got != want {
		t.Fatalf("a relabelled: %s, want %s", got, want)
	}
	// Without a resourceVersion nothing is known: the same name relabelled is judged again.
	objs[2] = obj("prod", "c", nil)
	if got, want := reasons(objs), "0=NotSelectedByLabels a=NotSelectedByLabels b=Accepted c=NotSelectedByLabels"; got != want {
		t.Fatalf("c relabelled, no resourceVersion: %s, want %s", got, want)
	}
	objs[2] = obj("prod", "c", a)
	if got, want := reasons(objs), "0=NotSelectedByLabels a=NotSelectedByLabels b=Accepted c=Accepted"; got != want {
		t.Fatalf("c back, no resourceVersion: %s, want %s", got, want)
	}
}
