package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func msList(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func TestWithin20(t *testing.T) {
	idle := msList(50, 60, 70, 100)
	for _, c := range []struct {
		name    string
		startup []time.Duration
		after   int
		failed  int
		want    bool
	}{
		{"same", msList(50, 60, 70, 100), 10, 0, true},
		{"20% slower", msList(60, 72, 84, 120), 10, 0, true},
		{"median too slow", msList(80, 80, 80, 100), 10, 0, false},
		{"worst too slow", msList(50, 60, 70, 121), 10, 0, false},
		{"start-up writes over before the changes ended", msList(50, 60, 70, 100), 0, 0, false},
		{"a change never seen", msList(50, 60, 70, 100), 10, 1, false},
		{"no changes", nil, 10, 0, false},
	} {
		r := &result{latencies: idle, startupLatencies: c.startup, writesAfterStartupCh: c.after, startupFailed: c.failed}
		if got := within20(r); got != c.want {
			t.Errorf("%s: within20 = %v, want %v", c.name, got, c.want)
		}
	}
}

// The table gets a target and a met column for each target size that ran, and judges
// each size against its own goals.
func TestTargetColumns(t *testing.T) {
	r5 := &result{n: 5000, objects: 1, complete: 4500 * time.Millisecond, peakRSS: 300 << 20, latencies: msList(100), lastStartupWrite: 12 * time.Second}
	r20 := &result{n: 20000, objects: 1, complete: 4500 * time.Millisecond, peakRSS: 300 << 20, latencies: msList(100), lastStartupWrite: 30 * time.Second}
	rep := report{opts: options{kind: serviceMonitorKind, changes: 1, startupChanges: 1, restartWait: time.Second, quiet: time.Second, idle: time.Second, settle: time.Second, sample: time.Second},
		results: []*result{r5, r20}}
	md := rep.markdown()
	if !strings.Contains(md, "| target at N = 5,000 | met | target at N = 20,000 | met |") {
		t.Fatalf("no target columns for both sizes:\n%s", md)
	}
	line := func(prefix string) string {
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "| "+prefix) {
				return l
			}
		}
		t.Fatalf("no row %q", prefix)
		return ""
	}
	for prefix, want := range map[string]string{
		"**start → config Secret":           "| 4.50 s | 4.50 s | ≤ 5 s | yes | ≤ 2 s | no |",
		"**peak RSS**":                      "| ≤ 250 MiB | no | ≤ 300 MiB | yes |",
		"**complete config → last start-up": "| 7.50 s | 25.50 s | ≤ 10 s | yes | ≤ 30 s | yes |",
		"objects created":                   "| – | | – | |",
	} {
		if l := line(prefix); !strings.HasSuffix(l, want) {
			t.Errorf("row %q = %q, want it to end in %q", prefix, l, want)
		}
	}
}

func TestSectionSlug(t *testing.T) {
	for in, want := range map[string]string{"prometheus-operator v0.93.1": "prometheus-operator-v0-93-1", " Upstream!": "upstream"} {
		if got := sectionSlug(in); got != want {
			t.Errorf("sectionSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

// The status poll's rows show the idle period's per-poll figures with the fake API, and
// "–" without it.
func TestStatusPollRows(t *testing.T) {
	withAPI := &result{n: 5000, objects: 1, fakeAPI: true,
		conditions: statusConditions{monitors: 5000, targetsHealthy: 5000, sampleCost: 4999, rules: 100, rulesHealthy: 100},
		idlePoll:   pollFigures{counts: apiCounts{pathTargets: {requests: 6, bytes: 6 << 20}, pathRules: {requests: 6, bytes: 3 << 20}}, cpu: 1200 * time.Millisecond}}
	without := &result{n: 100, objects: 1}
	rep := report{opts: options{kind: serviceMonitorKind, fakePromAPI: true, rules: 1000, healthInterval: 10 * time.Second, changes: 1, quiet: time.Second, idle: time.Minute, settle: time.Second, sample: time.Second},
		results: []*result{without, withAPI}}
	md := rep.markdown()
	for _, want := range []string{
		"| status polls while idle (fake Prometheus API) | – | 6 |",
		"| **requests per status poll** | – | 2.0 |",
		"| **bytes read per status poll** | – | 1.5 MiB |",
		"| **operator CPU per status poll** (idle CPU / polls) | – | 200 ms |",
		"| – | 5,000 / 4,999 of 5,000; 100 of 100 |",
		"`--target-health-interval=10s`",
		"for the 1,000 rules",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
}

// TestSideBySide: with a compared operator, each size gets a table of both, judged
// against the size's targets each.
func TestSideBySide(t *testing.T) {
	*compareName = "prometheus-operator"
	*compareCmd = "bin/prometheus-operator"
	defer func() { *compareCmd = "" }()
	r := &result{n: 20000, objects: 1, complete: 1500 * time.Millisecond, peakRSS: 290 << 20, latencies: msList(100)}
	c := &result{n: 20000, objects: 1, complete: 23 * time.Second, peakRSS: 3 << 30, latencies: msList(100)}
	rep := report{opts: options{kind: serviceMonitorKind, operator: "bin/lookout-operator run", changes: 1, quiet: time.Second, idle: time.Second, settle: time.Second, sample: time.Second},
		results: []*result{r}, compared: []*result{c}}
	md := rep.markdown()
	for _, want := range []string{
		"### Lookout and prometheus-operator side by side",
		"| measure | Lookout | prometheus-operator | target | Lookout met | prometheus-operator met |",
		"| **start → config Secret with every job** | 1.50 s | 23.00 s | ≤ 2 s | yes | no |",
		"| **peak RSS** (VmHWM) | 290 MiB | 3072 MiB | ≤ 300 MiB | yes | no |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no line %q in\n%s", want, md)
		}
	}
}

// TestSplitChanges: each change is split at the last config Secret write received after
// its edit and completed before the watch delivered it; a change no write carries is
// left out.
func TestSplitChanges(t *testing.T) {
	at := func(ms int) time.Time { return time.Unix(1000, 0).Add(time.Duration(ms) * time.Millisecond) }
	writes := []writeSpan{{at(50), at(60)}, {at(150), at(170)}, {at(300), at(330)}}
	seen := []changeSeen{
		{written: at(0), at: at(80)},    // carried by the first write
		{written: at(10), at: at(200)},  // by the second (the last done before 200)
		{written: at(100), at: at(400)}, // by the third
		{written: at(310), at: at(400)}, // no write received after 310: left out
	}
	s := splitChanges(seen, writes)
	ms := func(ds []time.Duration) []int64 {
		out := make([]int64, len(ds))
		for i, d := range ds {
			out[i] = d.Milliseconds()
		}
		return out
	}
	if s.n != 3 || !slices.Equal(ms(s.react), []int64{50, 140, 200}) || !slices.Equal(ms(s.write), []int64{10, 20, 30}) || !slices.Equal(ms(s.deliver), []int64{20, 30, 70}) {
		t.Fatalf("split %d: react %v write %v deliver %v", s.n, ms(s.react), ms(s.write), ms(s.deliver))
	}
}
