package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/rulehealth"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// TestFakeAnswersJoin runs the fake targets and query answers through the operator's own
// parsers and join: every series is attributed to its monitor, with the figures the
// harness put in.
func TestFakeAnswersJoin(t *testing.T) {
	s := scenario{items: 7, namespaces: 3}
	snap := monitorcost.NewSnapshot(monitorcost.Limits{})
	sh := snap.Shard()
	if err := targethealth.ParseTargets(bytes.NewReader(targetsAnswer(s)), sh.AddTarget); err != nil {
		t.Fatal(err)
	}
	series := 0
	if err := monitorcost.ParseVector(bytes.NewReader(queryAnswer(s)), func(x monitorcost.Sample) { series++; sh.AddSample(x) }); err != nil {
		t.Fatal(err)
	}
	sh.Done()
	if want := s.items * targetsPerMonitor * 2; series != want {
		t.Errorf("%d series, want %d (two per target)", series, want)
	}
	if snap.Unmatched != 0 || snap.Ambiguous != 0 {
		t.Errorf("unmatched %d, ambiguous %d; want every series attributed", snap.Unmatched, snap.Ambiguous)
	}
	if len(snap.Monitors) != s.items {
		t.Fatalf("%d monitors, want %d", len(snap.Monitors), s.items)
	}
	for i := 0; i < s.items; i++ {
		k := monitorcost.Key{Kind: "ServiceMonitor", Namespace: s.namespace(i), Name: monitorName(i)}
		got := snap.Monitors[k]
		if got == nil {
			t.Errorf("%v: no cost", k)
			continue
		}
		var want monitorcost.Cost
		for tg := 0; tg < targetsPerMonitor; tg++ {
			want.Samples += int64(costSamples(i, tg))
			want.SeriesAdded += int64(costSamples(i, tg) / 10)
			want.MaxTargetSamples = max(want.MaxTargetSamples, int64(costSamples(i, tg)))
		}
		want.Targets, want.Scraped = targetsPerMonitor, targetsPerMonitor
		if *got != want {
			t.Errorf("%v: %+v, want %+v", k, *got, want)
		}
	}
}

// TestFakeAnswersTargetsAndPools: every monitor's targets are up and its pool is listed.
func TestFakeAnswersTargetsAndPools(t *testing.T) {
	s := scenario{items: 5, namespaces: 2}
	snap := targethealth.NewSnapshot()
	if err := targethealth.ParseTargets(bytes.NewReader(targetsAnswer(s)), snap.AddTarget); err != nil {
		t.Fatal(err)
	}
	pools, err := targethealth.ParseScrapePools(bytes.NewReader(poolsAnswer(s)))
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) != s.items {
		t.Fatalf("%d pools, want %d", len(pools), s.items)
	}
	for i := 0; i < s.items; i++ {
		if pools[i] != s.job(i) {
			t.Errorf("pool %d = %q, want %q", i, pools[i], s.job(i))
		}
	}
}

// TestFakeRulesAnswer runs the fake rules answer through pkg/rulehealth: every
// PrometheusRule's group is matched to its object by the rule file name, all its rules
// evaluating and every fourth firing; a look-alike name gets nothing.
func TestFakeRulesAnswer(t *testing.T) {
	s := scenario{items: 1, namespaces: 3}
	objs := s.ruleObjects(25)
	if len(objs) != 3 || objs[2].rules != 5 {
		t.Fatalf("ruleObjects(25) = %+v, want 10, 10 and 5 rules", objs)
	}
	for j := range objs {
		objs[j].uid = fmt.Sprintf("0123abcd-0000-4000-8000-%012d", j)
	}
	snap := rulehealth.NewSnapshot()
	snap.Shard()
	if err := rulehealth.ParseRules(bytes.NewReader(rulesAnswer(objs)), snap.AddGroup); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		firing := 0
		for r := 0; r < o.rules; r++ {
			if firingRule(r) {
				firing++
			}
		}
		want := rulehealth.Health{State: rulehealth.StateEvaluating, OK: o.rules, Total: o.rules, Firing: firing}
		if got := snap.Health(o.namespace, o.name); got != want {
			t.Errorf("%s/%s: %+v, want %+v", o.namespace, o.name, got, want)
		}
		// The object as created holds the rules the answer reports.
		pr := prometheusRule(o)
		if n := len(pr.Spec.Groups[0].Rules); n != o.rules {
			t.Errorf("%s/%s created with %d rules, want %d", o.namespace, o.name, n, o.rules)
		}
	}
	if got := snap.Health(objs[0].namespace, "pr-9999"); got.State != rulehealth.StateNotLoaded {
		t.Errorf("an object without rules: %+v, want NotLoaded", got)
	}
}

// TestPollFigures: per-poll figures from the counts of a period.
func TestPollFigures(t *testing.T) {
	p := pollFigures{counts: apiCounts{
		pathTargets: {requests: 6, bytes: 6000},
		pathPools:   {requests: 6, bytes: 600},
		pathQuery:   {requests: 6, bytes: 12000},
		pathRules:   {requests: 7, bytes: 7000},
	}, cpu: 600_000_000}
	if p.polls() != 6 {
		t.Errorf("polls = %d, want 6", p.polls())
	}
	if got := p.requestsPerPoll(); got != 25.0/6 {
		t.Errorf("requests per poll = %v, want %v", got, 25.0/6)
	}
	if got := p.bytesPerPoll(); got != 1000+100+2000+1000 {
		t.Errorf("bytes per poll = %d, want 4100", got)
	}
	if got := p.cpuPerPoll(); got != 100_000_000 {
		t.Errorf("CPU per poll = %v, want 100ms", got)
	}
	if (pollFigures{}).cpuPerPoll() != 0 || (pollFigures{}).requestsPerPoll() != 0 {
		t.Error("no polls: want zero figures")
	}
	old := apiCounts{pathTargets: {requests: 2, bytes: 2000}}
	if d := p.counts.sub(old); d[pathTargets] != (pathCount{4, 4000}) || d[pathRules] != (pathCount{7, 7000}) {
		t.Errorf("sub = %+v", d)
	}
}
