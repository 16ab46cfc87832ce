package pipeline

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

func TestMergeVerdicts(t *testing.T) {
	v := func(name string, r selection.Reason, msg string) selection.Verdict {
		return selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: name, Reason: r, Message: msg}
	}
	sel := []selection.Verdict{v("a", selection.Accepted, ""), v("b", selection.Accepted, ""), v("c", selection.NotSelectedByLabels, "labels")}
	gen := []selection.Verdict{v("b", selection.InvalidConfiguration, "bad regex"), v("c", selection.Accepted, "")}
	got := mergeVerdicts(sel, gen)
	want := []selection.Verdict{v("a", selection.Accepted, ""), v("b", selection.InvalidConfiguration, "bad regex"), v("c", selection.NotSelectedByLabels, "labels")}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] %+v, want %+v", i, got[i], want[i])
		}
	}
}

func sm(name string, labels map[string]string, mut ...func(*monitoringv1.ServiceMonitor)) *monitoringv1.ServiceMonitor {
	s := &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name, UID: types.UID("uid-" + name), Generation: 1, Labels: labels},
		Spec:       monitoringv1.ServiceMonitorSpec{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}, Endpoints: []monitoringv1.Endpoint{{Port: "web"}}},
	}
	for _, m := range mut {
		m(s)
	}
	return s
}

// TestRun: one run selects, generates and gives every candidate its verdict: the selected
// monitor's job is in the config, the unlabelled one is not selected, and the one the
// generator rejects is InvalidConfiguration and absent from the config.
func TestRun(t *testing.T) {
	p := &monitoringv1.Prometheus{
		ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "k8s"},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			ServiceMonitorNamespaceSelector: &metav1.LabelSelector{},
		}},
	}
	sel, err := Compile(promserver.Of(p))
	if err != nil {
		t.Fatal(err)
	}
	team := map[string]string{"team": "a"}
	bad := sm("bad", team, func(s *monitoringv1.ServiceMonitor) {
		s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{SourceLabels: []monitoringv1.LabelName{"a"}, Regex: "(", TargetLabel: "b"}}
	})
	out := Run(promcfg.NewGenerator(), Input{
		Prometheus: promserver.Of(p), Selectors: sel, NamespaceLabels: func(string) (map[string]string, bool) { return map[string]string{}, true },
		Candidates: Candidates{ServiceMonitors: []*monitoringv1.ServiceMonitor{sm("good", team), sm("other", nil), bad}},
	})
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	cfg := string(out.Result.Config)
	if !strings.Contains(cfg, "job_name: serviceMonitor/app/good/0") || strings.Contains(cfg, "serviceMonitor/app/bad/0") || strings.Contains(cfg, "serviceMonitor/app/other/0") {
		t.Fatalf("config:\n%s", cfg)
	}
	got := map[string]selection.Reason{}
	for _, v := range out.Verdicts[monitoringv1.ServiceMonitorsKind] {
		got[v.Name] = v.Reason
	}
	want := map[string]selection.Reason{"good": selection.Accepted, "other": selection.NotSelectedByLabels, "bad": selection.InvalidConfiguration}
	for n, r := range want {
		if got[n] != r {
			t.Errorf("%s: %v, want %v (all %v)", n, got[n], r, got)
		}
	}
	if len(out.Selected.ServiceMonitors) != 2 {
		t.Errorf("selected %d, want 2 (good and bad; generation rejects bad)", len(out.Selected.ServiceMonitors))
	}
}

func TestCompileNamesTheField(t *testing.T) {
	p := &monitoringv1.Prometheus{Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
		PodMonitorSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}},
	}}}
	if _, err := Compile(promserver.Of(p)); err == nil || !strings.Contains(err.Error(), "spec.podMonitorSelector or spec.podMonitorNamespaceSelector") {
		t.Fatalf("error %v", err)
	}
}

// TestMergeVerdictsInOrderAndOutOfOrder: generation's verdicts in selection's order are
// merged side by side; in another order (or of several kinds, a kind met twice) they are
// merged by key; both give the same result.
func TestMergeVerdictsInOrderAndOutOfOrder(t *testing.T) {
	v := func(kind, name string, r selection.Reason) selection.Verdict {
		return selection.Verdict{Kind: kind, Namespace: "app", Name: name, Reason: r}
	}
	sel := []selection.Verdict{v("ServiceMonitor", "a", selection.Accepted), v("ServiceMonitor", "b", selection.NotSelectedByLabels),
		v("ServiceMonitor", "c", selection.Accepted), v("ServiceMonitor", "d", selection.Accepted)}
	want := []selection.Verdict{v("ServiceMonitor", "a", selection.Accepted), v("ServiceMonitor", "b", selection.NotSelectedByLabels),
		v("ServiceMonitor", "c", selection.InvalidConfiguration), v("ServiceMonitor", "d", selection.Accepted)}
	inOrder := []selection.Verdict{v("ServiceMonitor", "a", selection.Accepted), v("ServiceMonitor", "c", selection.InvalidConfiguration), v("ServiceMonitor", "d", selection.Accepted)}
	shuffled := []selection.Verdict{inOrder[2], inOrder[0], inOrder[1]}
	for name, gen := range map[string][]selection.Verdict{"in order": inOrder, "shuffled": shuffled} {
		got := mergeVerdicts(sel, gen)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: [%d] %+v, want %+v", name, i, got[i], want[i])
			}
		}
	}
	mixed := []selection.Verdict{v("ServiceMonitor", "a", selection.Accepted), v("PodMonitor", "p", selection.Accepted), v("ServiceMonitor", "c", selection.InvalidConfiguration)}
	runs := verdictRuns(mixed)
	if len(runs["ServiceMonitor"]) != 2 || len(runs["PodMonitor"]) != 1 {
		t.Fatalf("runs of a kind met twice: %v", runs)
	}
	if got := mergeVerdicts(sel, runs["ServiceMonitor"]); got[2] != want[2] {
		t.Fatalf("merged %+v, want %+v", got[2], want[2])
	}
}
