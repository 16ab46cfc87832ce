package targethealth

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

const answer = `{"status":"success","data":{"activeTargets":[
 {"discoveredLabels":{"__address__":"10.0.0.1:80","__meta_kubernetes_namespace":"a"},"labels":{"job":"app"},
  "scrapePool":"serviceMonitor/a/app/0","scrapeUrl":"http://10.0.0.1:80/metrics","globalUrl":"http://x","lastError":"",
  "lastScrape":"2026-01-01T00:00:00Z","lastScrapeDuration":0.01,"health":"up","scrapeInterval":"30s","scrapeTimeout":"10s"},
 {"discoveredLabels":{},"labels":{},"scrapePool":"serviceMonitor/a/app/1","lastError":"Get \"http://10.0.0.2:80/metrics\": dial tcp 10.0.0.2:80: connect: connection refused","health":"down"},
 {"scrapePool":"podMonitor/b/pods/0","lastError":"","health":"unknown"},
 {"scrapePool":"kubelet","lastError":"","health":"up"}
],"droppedTargets":[{"discoveredLabels":{"a":"b"}}],"droppedTargetCounts":{"x":1}}}`

func TestParseTargets(t *testing.T) {
	var got []Target
	if err := ParseTargets(strings.NewReader(answer), func(tg Target) { got = append(got, tg) }); err != nil {
		t.Fatal(err)
	}
	want := []Target{
		{ScrapePool: "serviceMonitor/a/app/0", Health: "up", Labels: HashLabels(map[string]string{"job": "app"})},
		{ScrapePool: "serviceMonitor/a/app/1", Health: "down", LastError: `Get "http://10.0.0.2:80/metrics": dial tcp 10.0.0.2:80: connect: connection refused`, Labels: HashLabels(nil)},
		{ScrapePool: "podMonitor/b/pods/0", Health: "unknown"},
		{ScrapePool: "kubelet", Health: "up"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestParseTargetsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"status":"error","errorType":"bad_data","error":"invalid state"}`, "prometheus answered error: invalid state"},
		{`[]`, `decoding the targets answer: want "{", got [`},
		{`{"status":"success","data":{"activeTargets":{}}}`, `decoding the targets answer: data: activeTargets: want an array, got {`},
		{`{"status":"success","data":{"activeTargets":[{"scrapePool":`, `decoding the targets answer: data: activeTargets: unexpected EOF`},
		{``, `decoding the targets answer: EOF`},
	} {
		err := ParseTargets(strings.NewReader(tc.in), func(Target) {})
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseTargets(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	// null activeTargets: no target, no error.
	if err := ParseTargets(strings.NewReader(`{"status":"success","data":{"activeTargets":null}}`), func(Target) { t.Error("target") }); err != nil {
		t.Error(err)
	}
}

func TestParseScrapePools(t *testing.T) {
	got, err := ParseScrapePools(strings.NewReader(`{"status":"success","data":{"scrapePools":["serviceMonitor/a/app/0","probe/a/p"]}}`))
	if err != nil || !reflect.DeepEqual(got, []string{"serviceMonitor/a/app/0", "probe/a/p"}) {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := ParseScrapePools(strings.NewReader(`{"status":"error","error":"not found"}`)); err == nil || err.Error() != "prometheus answered error: not found" {
		t.Fatalf("error answer: %v", err)
	}
}

// generateAnswer writes an /api/v1/targets answer of monitors ServiceMonitors with
// targets targets each, shaped like Prometheus's (discovered labels included), every
// third monitor's targets down.
func generateAnswer(w io.Writer, monitors, targets int) {
	fmt.Fprint(w, `{"status":"success","data":{"activeTargets":[`)
	for m := 0; m < monitors; m++ {
		for i := 0; i < targets; i++ {
			if m+i > 0 {
				fmt.Fprint(w, ",")
			}
			health, lastErr := "up", ""
			if m%3 == 0 {
				health = "down"
				lastErr = fmt.Sprintf(`Get \"http://10.%d.%d.%d:8080/metrics\": dial tcp 10.%d.%d.%d:8080: connect: connection refused`, m/256%256, m%256, i, m/256%256, m%256, i)
			}
			fmt.Fprintf(w, `{"discoveredLabels":{"__address__":"10.%[1]d.%[2]d.%[3]d:8080","__meta_kubernetes_namespace":"ns%[4]d",`+
				`"__meta_kubernetes_service_name":"app%[5]d","__meta_kubernetes_pod_name":"app%[5]d-%[3]d","__meta_kubernetes_pod_ready":"true",`+
				`"__meta_kubernetes_endpointslice_port_name":"http","__meta_kubernetes_pod_container_name":"app","__scheme__":"http","__metrics_path__":"/metrics","job":"serviceMonitor/ns%[4]d/app%[5]d/0"},`+
				`"labels":{"container":"app","endpoint":"http","instance":"10.%[1]d.%[2]d.%[3]d:8080","job":"app%[5]d","namespace":"ns%[4]d","pod":"app%[5]d-%[3]d","service":"app%[5]d"},`+
				`"scrapePool":"serviceMonitor/ns%[4]d/app%[5]d/0","scrapeUrl":"http://10.%[1]d.%[2]d.%[3]d:8080/metrics","globalUrl":"http://app%[5]d-%[3]d:8080/metrics",`+
				`"lastError":"%[6]s","lastScrape":"2026-12-02T21:00:00.123456789Z","lastScrapeDuration":0.00123,"health":"%[7]s","scrapeInterval":"30s","scrapeTimeout":"10s"}`,
				m/256%256, m%256, i, m%50, m, lastErr, health)
		}
	}
	fmt.Fprint(w, `],"droppedTargets":[],"droppedTargetCounts":{}}}`)
}

func TestGeneratedAnswer(t *testing.T) {
	var buf bytes.Buffer
	generateAnswer(&buf, 30, 2)
	s := NewSnapshot()
	if err := ParseTargets(&buf, s.AddTarget); err != nil {
		t.Fatal(err)
	}
	if len(s.Monitors) != 30 {
		t.Fatalf("%d monitors, want 30", len(s.Monitors))
	}
	if h := s.Health(Key{Kind: "ServiceMonitor", Namespace: "ns0", Name: "app0"}); h != (Health{State: StateDown, Up: 0, Total: 2, Class: "connection refused"}) {
		t.Errorf("app0: %+v", h)
	}
	if h := s.Health(Key{Kind: "ServiceMonitor", Namespace: "ns1", Name: "app1"}); h != (Health{State: StateUp, Up: 2, Total: 2}) {
		t.Errorf("app1: %+v", h)
	}
}

// BenchmarkParseTargets parses and counts an answer of 5,000 ServiceMonitors with two
// targets each (10,000 active targets), generated in memory.
func BenchmarkParseTargets(b *testing.B) {
	var buf bytes.Buffer
	generateAnswer(&buf, 5000, 2)
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := NewSnapshot()
		if err := ParseTargets(bytes.NewReader(data), s.AddTarget); err != nil {
			b.Fatal(err)
		}
		if len(s.Monitors) != 5000 {
			b.Fatalf("%d monitors", len(s.Monitors))
		}
	}
}
