package reloader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// BenchmarkRenderConfigSize renders configs of 1, 10 and 50 MB (gzipped, projected
// kubelet-style), alternating between two versions so that every iteration reads,
// decompresses, hashes, expands, compares and writes the whole config. With -benchmem,
// B/op shows how much the reloader allocates per render: it should not grow with the
// config. cmd/config-reloader's BenchmarkConfigSizeFootprint measures the resident
// memory of the binary doing the same.
//
//	go test -run '^$' -bench RenderConfigSize -benchmem ./pkg/reloader
func BenchmarkRenderConfigSize(b *testing.B) {
	for _, mb := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("config=%dMB", mb), func(b *testing.B) {
			dir := b.TempDir()
			cfgDir, out := filepath.Join(dir, "config"), filepath.Join(dir, "prometheus.env.yaml")
			var versions [2][]byte
			for i := range versions {
				versions[i] = reloadertest.Gzip(b, reloadertest.SizedConfig(mb<<20, fmt.Sprintf("v%d", i)))
			}
			rl, err := reloader.New(reloader.Options{
				ConfigFile:    filepath.Join(cfgDir, "prometheus.yaml.gz"),
				ConfigOutFile: out,
				LookupEnv: func(k string) (string, bool) {
					return map[string]string{"POD_NAME": "prometheus-k8s-0", "SHARD": "0"}[k], k == "POD_NAME" || k == "SHARD"
				},
			})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(mb << 20))
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": versions[i%2]}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := rl.RenderOnce(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if st, err := os.Stat(out); err != nil || st.Size() < int64(mb<<20)*9/10 {
				b.Fatalf("output %v, %v", st, err)
			}
		})
	}
}
