package rulehealth

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/rules"
)

func goldenSnapshot(t *testing.T, shards int) *Snapshot {
	t.Helper()
	s := NewSnapshot()
	for range shards {
		s.Shard()
		if err := ParseRules(strings.NewReader(string(readGolden(t, "rules.json"))), s.AddGroup); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestHealthMessages: the RulesHealthy condition of each kind of health, exact.
func TestHealthMessages(t *testing.T) {
	s := goldenSnapshot(t, 1)
	for _, tc := range []struct {
		ns, name string
		status   monitoringv1.ConditionStatus
		reason   string
		msg      string
	}{
		{"app", "latency-rules", "False", ReasonRuleErrors,
			"2/4, 1 firing: rule Broken (group latency): many-to-many matching not allowed: matching labels must be unique on one side; warning: group heavy takes longer to evaluate than its 1s interval (evaluations are skipped)"},
		{"mon", "node", "True", ReasonRulesEvaluating, "1/1 rules evaluating, 3 firing"},
		{"mon", "other", "Unknown", ReasonNotLoaded, "no rule group of this object is loaded yet (the rule file is not in the running configuration, or the object has no groups)"},
	} {
		st, reason, msg := s.Health(tc.ns, tc.name).Condition()
		if st != tc.status || reason != tc.reason || msg != tc.msg {
			t.Errorf("%s/%s: got %s %s %q\nwant %s %s %q", tc.ns, tc.name, st, reason, msg, tc.status, tc.reason, tc.msg)
		}
	}
	for _, tc := range []struct {
		h      Health
		status monitoringv1.ConditionStatus
		reason string
		msg    string
	}{
		{Health{State: StateEvaluating, OK: 12, Total: 12}, "True", ReasonRulesEvaluating, "12/12 rules evaluating"},
		{Health{State: StateEvaluating, OK: 2, Total: 2, SlowGroup: "g", SlowInterval: 60}, "True", ReasonSlowEvaluation,
			"2/2 rules evaluating; warning: group g takes longer to evaluate than its 1m interval (evaluations are skipped)"},
		{Health{State: StateNotEvaluatedYet, OK: 10, Total: 12}, "Unknown", ReasonNotEvaluatedYet, "10/12 rules evaluating: 2 not evaluated yet"},
		{Health{State: StateUnreachable, Class: "shard 0 (pod p-0): connection refused"}, "Unknown", ReasonPrometheusUnreachable, "the rules API could not be asked: shard 0 (pod p-0): connection refused"},
	} {
		st, reason, msg := tc.h.Condition()
		if st != tc.status || reason != tc.reason || msg != tc.msg {
			t.Errorf("%+v: got %s %s %q\nwant %s %s %q", tc.h, st, reason, msg, tc.status, tc.reason, tc.msg)
		}
	}
}

// TestHealthShards: two shards evaluating the same rules count each rule once; their
// firing alerts add up.
func TestHealthShards(t *testing.T) {
	one, two := goldenSnapshot(t, 1).Health("mon", "node"), goldenSnapshot(t, 2).Health("mon", "node")
	if one.Total != 1 || two.Total != 1 || one.Firing != 3 || two.Firing != 6 {
		t.Errorf("one shard %+v, two shards %+v", one, two)
	}
	// A rule failing in one shard only is failing.
	s := NewSnapshot()
	file := "/r/mon-node-9f5c2b7e-1d2a-4b3c-8e4f-5a6b7c8d9e0f.yaml"
	s.Shard()
	s.AddGroup(Group{Name: "g", File: file, Interval: 30, Rules: []Rule{{Name: "A", Health: "ok"}, {Name: "B", Health: "ok"}}})
	s.Shard()
	s.AddGroup(Group{Name: "g", File: file, Interval: 30, Rules: []Rule{{Name: "A", Health: "ok"}, {Name: "B", Health: "err", LastError: "query timed out in expression evaluation"}}})
	h := s.Health("mon", "node")
	want := Health{State: StateFailing, OK: 1, Total: 2, Rule: "B", Group: "g", Class: "query timed out"}
	if h != want {
		t.Errorf("got %+v, want %+v", h, want)
	}
}

// TestHealthStable: the health does not depend on the evaluation times (only on whether
// a group is slower than its interval) nor on the order of the answer.
func TestHealthStable(t *testing.T) {
	file := "/r/mon-node-9f5c2b7e-1d2a-4b3c-8e4f-5a6b7c8d9e0f.yaml"
	groups := []Group{
		{Name: "b", File: file, Interval: 30, EvaluationTime: 0.1, Rules: []Rule{{Name: "Y", Health: "err", LastError: "query timed out in expression evaluation"}}},
		{Name: "a", File: file, Interval: 30, EvaluationTime: 0.2, Rules: []Rule{{Name: "X", Health: "err", LastError: `x {a="1"} boom`}}},
	}
	first := NewSnapshot()
	for _, g := range groups {
		first.AddGroup(g)
	}
	second := NewSnapshot()
	for i := len(groups) - 1; i >= 0; i-- {
		g := groups[i]
		g.EvaluationTime *= 3
		g.Rules = []Rule{{Name: g.Rules[0].Name, Health: "err", LastError: strings.ReplaceAll(g.Rules[0].LastError, `"1"`, `"2"`)}}
		second.AddGroup(g)
	}
	if a, b := first.Health("mon", "node"), second.Health("mon", "node"); a != b || a.Group != "a" {
		t.Errorf("first %+v, second %+v", a, b)
	}
}

// TestFilePrefix: the prefix matches the file names pkg/rules generates, long names
// included, and file names not of that form belong to no object.
func TestFilePrefix(t *testing.T) {
	for _, name := range []string{"latency-rules", strings.Repeat("n", 253)} {
		r := &monitoringv1.PrometheusRule{}
		r.Namespace, r.Name, r.UID = "app", name, types.UID("0b0e1d5c-3a7f-4c3e-9a59-2f1f8c0f5c11")
		p, ok := prefixOfFile("/etc/prometheus/rules/x-rulefiles-0/" + rules.FileName(r))
		if !ok || p != FilePrefix("app", name) {
			t.Errorf("%s: prefix %q %v, want %q", name, p, ok, FilePrefix("app", name))
		}
	}
	for _, f := range []string{"/etc/x/hand-written.yaml", "a-0b0e1d5c-3a7f-4c3e-9a59-2f1f8c0f5c11.yml", "a-0b0e1d5cx3a7f-4c3e-9a59-2f1f8c0f5c11.yaml", "-0b0e1d5c-3a7f-4c3e-9a59-2f1f8c0f5c1z.yaml", ""} {
		if p, ok := prefixOfFile(f); ok {
			t.Errorf("prefixOfFile(%q) = %q, want none", f, p)
		}
	}
}

// TestUnreachable: an unreachable snapshot says so for every object.
func TestUnreachable(t *testing.T) {
	s := goldenSnapshot(t, 1)
	s.Unreachable = "shard 0: no ready pod"
	if h := s.Health("mon", "node"); h != (Health{State: StateUnreachable, Class: "shard 0: no ready pod"}) {
		t.Errorf("got %+v", h)
	}
}
