package resourcestatus

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/lookout-operator/lookout/pkg/selection"
)

// BenchmarkStorePublishOneChange: one Prometheus republishes the verdicts on 20,000
// ServiceMonitors after one of them changed (what every one-monitor change does).
func BenchmarkStorePublishOneChange(b *testing.B) {
	const n = 20000
	vs := make([]selection.Verdict, n)
	for i := range vs {
		vs[i] = selection.Verdict{Kind: "ServiceMonitor", Namespace: fmt.Sprintf("ns-%02d", i%50), Name: fmt.Sprintf("sm-%05d", i), Generation: 1, Reason: selection.Accepted}
	}
	s := NewStore()
	s.Publish(promA, "ServiceMonitor", vs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vs[i%n].Generation++
		s.Publish(promA, "ServiceMonitor", vs)
	}
}

// BenchmarkStoreRetained reports the heap the store keeps for 20,000 objects with one
// owner each (retained-B/object), after their first Publish.
func BenchmarkStoreRetained(b *testing.B) {
	const n = 20000
	vs := make([]selection.Verdict, n)
	for i := range vs {
		vs[i] = selection.Verdict{Kind: "ServiceMonitor", Namespace: fmt.Sprintf("ns-%02d", i%50), Name: fmt.Sprintf("sm-%05d", i), Generation: 1, Reason: selection.Accepted}
	}
	var retained uint64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := NewStore()
		s.Publish(promA, "ServiceMonitor", vs)
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(retained)/n, "retained-B/object")
}
