package reloader_test

import (
	"compress/gzip"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader"
)

// changesPerRun is how many config changes one benchmark iteration makes.
const changesPerRun = 100

// BenchmarkReloadLatency measures, against a real Prometheus, the time from publishing a
// config change kubelet-style (the "..data" swap) to the reloader's confirmed reload, over
// 100 changes per iteration, and reports the median, p99 and maximum. The default debounce
// (100ms) is part of the figure; delay=0 shows the pipeline alone.
//
//	go test -run '^$' -bench ReloadLatency -benchtime 1x ./pkg/reloader
func BenchmarkReloadLatency(b *testing.B) {
	for _, delay := range []time.Duration{reloader.DefaultDelayInterval, 0} {
		b.Run(fmt.Sprintf("delay=%s", delay), func(b *testing.B) {
			h := newHarness(b, harnessOptions{modify: func(o *reloader.Options) { o.DelayInterval = delay }})
			h.awaitAction(reloader.ActionReloaded)
			var lat []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range changesPerRun {
					marker := fmt.Sprintf("n%d-%d", i, j)
					raw := gzipBytes(b, configYAML(marker, h.rulesDir), gzip.DefaultCompression)
					start := time.Now()
					h.writeConfig(raw)
					r := h.await("reload of "+marker, func(r reloader.Result) bool {
						return r.Action == reloader.ActionReloaded || r.Action == reloader.ActionFailed
					})
					lat = append(lat, time.Since(start))
					if r.Action != reloader.ActionReloaded {
						b.Fatalf("reload of %s failed: %v", marker, r.Err)
					}
					b.StopTimer()
					h.requireMarker(marker)
					b.StartTimer()
				}
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
			b.ReportMetric(ms(lat[(len(lat)*99+99)/100-1]), "p99-ms")
			b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
