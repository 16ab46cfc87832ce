package monitorcost

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// targetLabels are the labels of target i of monitor m, as a ServiceMonitor's relabeling
// leaves them (job is the Service's name).
func targetLabels(m, i int) string {
	return fmt.Sprintf(`"container":"app","endpoint":"http","instance":"10.%[1]d.%[2]d.%[3]d:8080","job":"app%[4]d","namespace":"ns%[5]d","pod":"app%[4]d-%[3]d","service":"app%[4]d"`,
		m/256%256, m%256, i, m, m%50)
}

// generateTargets writes an /api/v1/targets answer shaped like Prometheus's (discovered
// labels included) for monitors ServiceMonitors of targets targets each.
func generateTargets(w io.Writer, monitors, targets int) {
	fmt.Fprint(w, `{"status":"success","data":{"activeTargets":[`)
	for m := 0; m < monitors; m++ {
		for i := 0; i < targets; i++ {
			if m+i > 0 {
				fmt.Fprint(w, ",")
			}
			fmt.Fprintf(w, `{"discoveredLabels":{"__address__":"10.%[1]d.%[2]d.%[3]d:8080","__meta_kubernetes_namespace":"ns%[4]d",`+
				`"__meta_kubernetes_service_name":"app%[5]d","__meta_kubernetes_pod_name":"app%[5]d-%[3]d","__meta_kubernetes_pod_ready":"true",`+
				`"__meta_kubernetes_endpointslice_port_name":"http","__meta_kubernetes_pod_container_name":"app","__scheme__":"http","__metrics_path__":"/metrics","job":"serviceMonitor/ns%[4]d/app%[5]d/0"},`+
				`"labels":{%[6]s},"scrapePool":"serviceMonitor/ns%[4]d/app%[5]d/0","scrapeUrl":"http://10.%[1]d.%[2]d.%[3]d:8080/metrics","globalUrl":"http://app%[5]d-%[3]d:8080/metrics",`+
				`"lastError":"","lastScrape":"2026-12-02T21:00:00.123456789Z","lastScrapeDuration":0.00123,"health":"up","scrapeInterval":"30s","scrapeTimeout":"10s"}`,
				m/256%256, m%256, i, m%50, m, targetLabels(m, i))
		}
	}
	fmt.Fprint(w, `],"droppedTargets":[],"droppedTargetCounts":{}}}`)
}

// generateSeries writes the answer of Query for the same targets: target i of monitor m
// keeps 100+m samples and added i series.
func generateSeries(w io.Writer, monitors, targets int) {
	fmt.Fprint(w, `{"status":"success","data":{"resultType":"vector","result":[`)
	first := true
	for m := 0; m < monitors; m++ {
		for i := 0; i < targets; i++ {
			for _, s := range []struct {
				name string
				v    int
			}{{SamplesMetric, 100 + m}, {SeriesAddedMetric, i}} {
				if !first {
					fmt.Fprint(w, ",")
				}
				first = false
				fmt.Fprintf(w, `{"metric":{"__name__":"%s",%s},"value":[1764709200.123,"%d"]}`, s.name, targetLabels(m, i), s.v)
			}
		}
	}
	fmt.Fprint(w, `]}}`)
}

func TestGeneratedJoin(t *testing.T) {
	var tg, se bytes.Buffer
	generateTargets(&tg, 30, 2)
	generateSeries(&se, 30, 2)
	s := NewSnapshot(Limits{})
	joinShard(t, s, tg.String(), se.String())
	if len(s.Monitors) != 30 || s.Unmatched != 0 {
		t.Fatalf("%d monitors, %d unmatched", len(s.Monitors), s.Unmatched)
	}
	if c := s.Monitors[key("ServiceMonitor", "ns7", "app7")]; *c != (Cost{Samples: 214, SeriesAdded: 1, MaxTargetSamples: 107, Targets: 2, Scraped: 2}) {
		t.Errorf("app7: %+v", c)
	}
}

// BenchmarkJoin parses one shard's targets answer and cost query answer for 5,000
// ServiceMonitors with two targets each (10,000 targets, 20,000 series) and joins them:
// the work of one poll of one shard. bytes/poll is what the poll reads.
func BenchmarkJoin(b *testing.B) {
	var tg, se bytes.Buffer
	generateTargets(&tg, 5000, 2)
	generateSeries(&se, 5000, 2)
	targets, series := tg.Bytes(), se.Bytes()
	b.SetBytes(int64(len(targets) + len(series)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := NewSnapshot(Limits{})
		sh := s.Shard()
		if err := targethealth.ParseTargets(bytes.NewReader(targets), sh.AddTarget); err != nil {
			b.Fatal(err)
		}
		if err := ParseVector(bytes.NewReader(series), sh.AddSample); err != nil {
			b.Fatal(err)
		}
		sh.Done()
		if len(s.Monitors) != 5000 || s.Unmatched != 0 {
			b.Fatalf("%d monitors, %d unmatched", len(s.Monitors), s.Unmatched)
		}
	}
	b.ReportMetric(float64(len(targets)), "targets-bytes/poll")
	b.ReportMetric(float64(len(series)), "query-bytes/poll")
}

// BenchmarkParseVector is the query answer alone (the cost's addition to a poll).
func BenchmarkParseVector(b *testing.B) {
	var se bytes.Buffer
	generateSeries(&se, 5000, 2)
	series := se.Bytes()
	b.SetBytes(int64(len(series)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		if err := ParseVector(bytes.NewReader(series), func(Sample) { n++ }); err != nil || n != 20000 {
			b.Fatal(n, err)
		}
	}
}
