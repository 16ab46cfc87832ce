package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/atomicwriter"
	"github.com/lookout-operator/lookout/test/testenv"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat (100 on Linux).
const clockTicks = 100

// BenchmarkIdleFootprint builds the binary as the Makefile does, runs it as the sidecar of
// a real Prometheus (file mode, and API mode against a real kube-apiserver), waits for its
// first confirmed reload, then measures its CPU use and resident memory over an idle
// period (LOOKOUT_IDLE_SECONDS, default 30).
//
//	go test -run '^$' -bench IdleFootprint -benchtime 1x ./cmd/config-reloader
func BenchmarkIdleFootprint(b *testing.B) {
	idle := 30 * time.Second
	if s := os.Getenv("LOOKOUT_IDLE_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("LOOKOUT_IDLE_SECONDS=%q: want a positive integer", s)
		}
		idle = time.Duration(n) * time.Second
	}
	bin := buildBinary(b)
	b.Run("file", func(b *testing.B) {
		for range b.N {
			measureIdle(b, bin, idle, false)
		}
	})
	b.Run("api", func(b *testing.B) {
		for range b.N {
			measureIdle(b, bin, idle, true)
		}
	})
}

// buildBinary builds the command as the Makefile and the Dockerfile do (static,
// stripped) into a temporary directory.
func buildBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "config-reloader")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the binary: %v\n%s", err, out)
	}
	if st, err := os.Stat(bin); err == nil {
		b.Logf("binary size %.1f MiB", float64(st.Size())/(1<<20))
	}
	return bin
}

func measureIdle(b *testing.B, bin string, idle time.Duration, api bool) {
	b.Helper()
	dir := b.TempDir()
	cfgDir, rulesDir := filepath.Join(dir, "config"), filepath.Join(dir, "rules")
	out := filepath.Join(dir, "out", "prometheus.env.yaml")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		b.Fatal(err)
	}
	raw := reloadertest.Gzip(b, configYAML("idle"))
	args := []string{"--config-file=" + filepath.Join(cfgDir, "prometheus.yaml.gz"), "--config-envsubst-file=" + out,
		"--watched-dir=" + rulesDir}
	if api {
		env, err := testenv.Start(context.Background(), testenv.Options{SkipCRDs: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = env.Stop() })
		kc := filepath.Join(dir, "kubeconfig")
		if err := os.WriteFile(kc, env.KubeConfig, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := env.Client.Create(context.Background(), &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "prometheus-k8s"},
			Data:       map[string][]byte{"prometheus.yaml.gz": raw},
		}); err != nil {
			b.Fatal(err)
		}
		args = append(args, "--kubeconfig="+kc, "--watch-secret=default/prometheus-k8s="+cfgDir,
			"--watch-configmap=default/prometheus-k8s-rulefiles-0="+rulesDir)
	} else if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": raw}); err != nil {
		b.Fatal(err)
	}
	if o, err := exec.Command(bin, append(args, "--watch-interval=0")...).CombinedOutput(); err != nil {
		b.Fatalf("init run: %v\n%s", err, o)
	}
	p := reloadertest.Start(b, out, reloadertest.Options{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, append(args, "--reload-url="+p.ReloadURL(), "--runtimeinfo-url="+p.RuntimeInfoURL(),
		"--listen-address="+addr)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The first confirmed reload ends the start-up phase.
	reloaded := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if !once && strings.Contains(sc.Text(), "prometheus reloaded") {
				close(reloaded)
				once = true
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case <-reloaded:
	case <-time.After(60 * time.Second):
		b.Fatal("no confirmed reload within 60s")
	}
	pid := cmd.Process.Pid
	cpu0, err := cpuTicks(pid)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	time.Sleep(idle) // the measured idle period itself
	b.StopTimer()
	cpu1, err := cpuTicks(pid)
	if err != nil {
		b.Fatal(err)
	}
	rss, hwm, err := memory(pid)
	if err != nil {
		b.Fatal(err)
	}
	cpuSeconds := float64(cpu1-cpu0) / clockTicks
	b.ReportMetric(100*cpuSeconds/idle.Seconds(), "cpu-%")
	b.ReportMetric(cpuSeconds*1000, "cpu-ms")
	b.ReportMetric(float64(rss)/1024, "rss-MiB")
	b.ReportMetric(float64(hwm)/1024, "peak-rss-MiB")
	b.ReportMetric(0, "ns/op")
}

// cpuTicks returns utime+stime of pid in clock ticks.
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the parenthesised command name; utime and stime are fields 14 and 15.
	rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, fmt.Errorf("short stat line %q", b)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("parsing stat line %q", b)
	}
	return utime + stime, nil
}

// memory returns VmRSS and VmHWM of pid in KiB.
func memory(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = v
		case "VmHWM:":
			hwm = v
		}
	}
	if rss == 0 {
		return 0, 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
	}
	return rss, hwm, nil
}
