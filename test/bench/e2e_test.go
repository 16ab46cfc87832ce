package main

import (
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
