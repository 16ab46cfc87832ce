package main

import (
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

func TestParsePromReload(t *testing.T) {
	at := time.Date(2026, 12, 6, 2, 6, 59, 123e6, time.UTC)
	for _, tc := range []struct {
		line string
		ok   bool
		took time.Duration
	}{
		// Prometheus 3 (slog logfmt).
		{`time=2026-12-06T02:06:59.123Z level=INFO source=main.go:1520 msg="Completed loading of configuration file" db_storage=1.2µs remote_storage=2.1µs web_handler=400ns query_engine=700ns scrape=1.5ms scrape_sd=3.2ms notify=20µs notify_sd=10µs rules=5µs tracing=4µs filename=/p/prometheus.env.yaml totalDuration=31.9ms`, true, 31900 * time.Microsecond},
		// Prometheus 2 (go-kit logfmt).
		{`ts=2026-12-06T02:06:59.123Z caller=main.go:1261 level=info msg="Completed loading of configuration file" filename=/p/prometheus.env.yaml totalDuration=1.5s db_storage=1.1µs`, true, 1500 * time.Millisecond},
		{`time=2026-12-06T02:06:59.123Z level=INFO source=main.go:1480 msg="Loading configuration file" filename=/p/prometheus.env.yaml`, false, 0},
		{`time=2026-12-06T02:06:59.123Z level=INFO msg="Server is ready to receive web requests."`, false, 0},
		{`garbage`, false, 0},
	} {
		got, ok := parsePromReload(tc.line)
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.line, ok, tc.ok)
			continue
		}
		if ok && (!got.at.Equal(at) || got.took != tc.took) {
			t.Errorf("%q: got %v %v, want %v %v", tc.line, got.at, got.took, at, tc.took)
		}
	}
}

func TestParseMirrored(t *testing.T) {
	line := `time=2026-12-06T02:07:01.004Z level=INFO msg="mirrored object updated" target="secret lookout-bench/prometheus-bench=/d/volumes/config" keys=1`
	at, ok := parseMirrored(line, "lookout-bench/prometheus-bench")
	if !ok || !at.Equal(time.Date(2026, 12, 6, 2, 7, 1, 4e6, time.UTC)) {
		t.Fatalf("got %v %v", at, ok)
	}
	if _, ok := parseMirrored(`time=2026-12-06T02:07:01.004Z level=INFO msg="mirrored object updated" target="configmap lookout-bench/prometheus-bench-rulefiles-0=/d" keys=0`, "lookout-bench/prometheus-bench"); ok {
		t.Fatal("matched a rule ConfigMap")
	}
	if _, ok := parseMirrored(`time=2026-12-06T02:07:01.004Z level=INFO msg="mirrored object updated" target="secret lookout-bench/prometheus-bench-config-part-1=/d" keys=1`, "lookout-bench/prometheus-bench"); !ok {
		t.Fatal("a config part Secret not matched")
	}
	if _, ok := parseMirrored(`time=2026-12-06T02:07:01.004Z level=INFO msg="API objects mirrored" targets=5`, "lookout-bench/prometheus-bench"); ok {
		t.Fatal("matched another message")
	}
	if v, ok := logfmtValue(`a=1 xa=2 b="q \"x\" y"`, "b"); !ok || v != `q "x" y` {
		t.Fatalf("logfmtValue b = %q %v", v, ok)
	}
	if v, ok := logfmtValue(`xa=2 a=1`, "a"); !ok || v != "1" {
		t.Fatalf("logfmtValue a = %q %v", v, ok)
	}
}

func TestSteps(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 2, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	edits := []e2eEdit{
		{written: ms(0), inSecret: ms(10), configLoaded: ms(400), pods: []podEdit{
			{pod: "a", input: ms(15), loaded: ms(200), took: 50 * time.Millisecond},
			{pod: "b", input: ms(8), loaded: ms(300), took: 70 * time.Millisecond},
		}},
		{written: ms(1000), inSecret: ms(1020), pods: []podEdit{ // upstream-style: no ConfigLoaded
			{pod: "a", input: ms(1030), loaded: ms(1100), took: 40 * time.Millisecond},
			{pod: "b", loaded: ms(1500), took: 60 * time.Millisecond}, // input not seen
		}},
	}
	s := steps(edits)
	d := func(n ...int) []time.Duration {
		var out []time.Duration
		for _, x := range n {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	check := func(name string, got, want []time.Duration) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: %v, want %v", name, got, want)
			}
		}
	}
	check("operator", s.operator, d(10, 20))
	check("toInput", s.toInput, d(5, -2, 10))
	check("toLoaded", s.toLoaded, d(185, 292, 70))
	check("live", s.live, d(300, 500))
	check("toStatus", s.toStatus, d(100))
	check("total", s.total, d(400, 500))
	check("reloadTimes", s.reloadTimes, d(50, 70, 40, 60))
	if got := medWorst(s.total); got != "400 ms / 500 ms" {
		t.Fatalf("medWorst = %q", got)
	}
	pending := e2eEdit{pods: []podEdit{{pod: "a", input: ms(1)}, {pod: "b"}, {pod: "c", loaded: ms(2)}}}
	if got := pending.pending(); got != "a not reloaded, b no reloader input, ConfigLoaded" {
		t.Fatalf("pending = %q", got)
	}
	if pending.total() != -1 {
		t.Fatalf("total of an edit not live = %v", pending.total())
	}
}

func TestFirstReloadAndCondition(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 2, 0, 0, 500_700_000, time.UTC)
	rs := []promReload{{at: t0.Add(-time.Second)}, {at: t0.Truncate(time.Millisecond), took: time.Millisecond}, {at: t0.Add(time.Second)}}
	if r, ok := firstReloadAfter(rs, t0); !ok || r.took != time.Millisecond {
		t.Fatalf("a load logged in t0's millisecond: %v %v", r, ok)
	}
	evs := []condEvent{
		{at: t0.Add(-time.Second), status: monitoringv1.ConditionTrue, message: "all 2 replicas run the latest configuration (sha256 aaaaaaaaaaaa)"},
		{at: t0.Add(time.Second), status: monitoringv1.ConditionFalse, message: "1 of 2 replicas do not run the latest configuration (sha256 bbbbbbbbbbbb) yet"},
		{at: t0.Add(2 * time.Second), status: monitoringv1.ConditionTrue, message: "all 2 replicas run the latest configuration (sha256 bbbbbbbbbbbb)"},
	}
	if at, ok := firstTrueIn(evs, t0, shortHash("bbbbbbbbbbbbbbbbbbbb")); !ok || !at.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("firstTrue = %v %v", at, ok)
	}
	if _, ok := firstTrueIn(evs, t0, "aaaaaaaaaaaa"); ok {
		t.Fatal("a condition from before the edit counted")
	}
	if d, err := apiServerEnv("https://127.0.0.1:39123"); err != nil || d[0].Value != "127.0.0.1" || d[1].Value != "39123" {
		t.Fatalf("apiServerEnv = %v %v", d, err)
	}
}

// The end-to-end table: the steps' medians and worsts, the 20,000 target, and no table
// without -e2e.
func TestE2ETable(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 2, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	r := &result{n: 20000, objects: 1, e2e: &e2eResult{firstLive: 30 * time.Second, firstLoads: []time.Duration{time.Second, 2 * time.Second},
		edits: []e2eEdit{{written: ms(0), inSecret: ms(100), configLoaded: ms(1900), pods: []podEdit{
			{pod: "a", input: ms(120), loaded: ms(1500), took: time.Second},
			{pod: "b", input: ms(130), loaded: ms(1700), took: 1200 * time.Millisecond},
		}}}}}
	o := options{kind: serviceMonitorKind, changes: 1, quiet: time.Second, idle: time.Minute, settle: time.Second, sample: time.Second,
		e2e: e2eOptions{on: true, reloader: reloaderAPI, replicas: 2, shards: 1, kubeletSync: time.Minute, version: "3.16.0"}}
	md := (&report{opts: o, results: []*result{r}}).markdown()
	for _, want := range []string{
		"### End to end: api reloader, 2 replicas",
		"| **edit → ConfigLoaded=True, median / worst** (1 edits) | 1900 ms / 1900 ms | ≤ 2 s / ≤ 5 s | yes |",
		"| step 2: config Secret → reloader input (t2 − t1, per replica), median / worst | 20 ms / 30 ms |",
		"| step 4: last replica loaded → ConfigLoaded=True (t4 − max t3), median / worst | 200 ms / 200 ms |",
		"`spec.version: v3.16.0`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
	o.e2e = e2eOptions{on: true, reloader: reloaderUpstream, replicas: 2, shards: 2, kubeletSync: time.Minute}
	md = (&report{opts: o, results: []*result{r}}).markdown()
	if !strings.Contains(md, "2 shards × 2 replicas, kubelet sync 1m0s") || strings.Contains(md, "step 4") {
		t.Errorf("upstream table:\n%s", md)
	}
	o.e2e = e2eOptions{}
	if md = (&report{opts: o, results: []*result{r}}).markdown(); strings.Contains(md, "End to end") {
		t.Errorf("an end-to-end table without -e2e:\n%s", md)
	}
}
