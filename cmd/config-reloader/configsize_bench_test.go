package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// BenchmarkConfigSizeFootprint runs the built binary on configs of 1, 10 and 50 MB
// (reloadertest.SizedConfig, gzipped and projected kubelet-style) and reports its peak
// resident memory: as the init container (render once, exit), and as the sidecar
// through its first reload and the reload of a changed config of the same size. The
// reload endpoint is a minimal one on loopback: what is measured is the reloader
// reading, decompressing, hashing, expanding, comparing and writing the config, which
// does not depend on what answers the reload.
//
//	go test -run '^$' -bench ConfigSizeFootprint -benchtime 1x ./cmd/config-reloader
func BenchmarkConfigSizeFootprint(b *testing.B) {
	bin := buildBinary(b)
	for _, mb := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("config=%dMB", mb), func(b *testing.B) {
			for range b.N {
				measureConfigSize(b, bin, mb<<20)
			}
		})
	}
}

func measureConfigSize(b *testing.B, bin string, size int) {
	b.Helper()
	b.StopTimer()
	dir := b.TempDir()
	cfgDir, out := filepath.Join(dir, "config"), filepath.Join(dir, "out", "prometheus.env.yaml")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		b.Fatal(err)
	}
	publish := func(marker string) {
		raw := reloadertest.Gzip(b, reloadertest.SizedConfig(size, marker))
		if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": raw}); err != nil {
			b.Fatal(err)
		}
	}
	publish("v1")
	args := []string{"--config-file=" + filepath.Join(cfgDir, "prometheus.yaml.gz"), "--config-envsubst-file=" + out}
	env := append(os.Environ(), "POD_NAME=prometheus-k8s-0", "SHARD=0")

	b.StartTimer()
	initRun := exec.Command(bin, append(args, "--watch-interval=0")...)
	initRun.Env = env
	initPeak, err := runPeakRSS(initRun)
	if err != nil {
		b.Fatalf("init run: %v", err)
	}
	b.StopTimer()
	rendered, err := os.ReadFile(out)
	if err != nil || len(rendered) < size*9/10 || !strings.Contains(string(rendered), "prometheus_replica: prometheus-k8s-0\n") {
		b.Fatalf("init output: %d bytes, %v", len(rendered), err)
	}
	rendered = nil

	prom := reloadertest.StartEndpoint(b, false)
	cmd := exec.Command(bin, append(args, "--reload-url="+prom.URL+"/-/reload",
		"--runtimeinfo-url="+prom.URL+"/api/v1/status/runtimeinfo", "--listen-address=", "--delay-interval=0")...)
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	reloaded := make(chan struct{}, 2)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "prometheus reloaded") {
				reloaded <- struct{}{}
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	await := func(what string) {
		select {
		case <-reloaded:
		case <-time.After(2 * time.Minute):
			b.Fatalf("no confirmed reload of %s within 2 minutes", what)
		}
	}
	await("the initial config")
	publish("v2")
	await("the changed config")
	b.StopTimer()
	rss, hwm, err := memory(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	if n := prom.Reloads(); n != 2 {
		b.Fatalf("%d reload requests, want 2", n)
	}
	b.ReportMetric(float64(initPeak)/1024, "init-peak-rss-MiB")
	b.ReportMetric(float64(hwm)/1024, "sidecar-peak-rss-MiB")
	b.ReportMetric(float64(rss)/1024, "sidecar-rss-MiB")
}
