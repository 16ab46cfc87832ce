package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

func configYAML(marker string) string {
	return fmt.Sprintf("global:\n  scrape_interval: 1m\n  external_labels:\n    marker: %s\n", marker)
}

// syncBuffer collects log output written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sidecar is an in-process run of the command in watch mode.
type sidecar struct {
	t       testing.TB
	results chan reloader.Result
	addr    string
	log     *syncBuffer
}

// startSidecar runs the command with args until the test ends.
func startSidecar(t testing.TB, args ...string) *sidecar {
	t.Helper()
	s := &sidecar{t: t, results: make(chan reloader.Result, 4096), log: &syncBuffer{}}
	listening := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append(args, "--listen-address=127.0.0.1:0"), s.log, hooks{
			observe: func(r reloader.Result) {
				select {
				case s.results <- r:
				default:
				}
			},
			listening: func(a net.Addr) { listening <- a },
		})
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("exit code %d; log:\n%s", code, s.log.String())
		}
	})
	select {
	case a := <-listening:
		s.addr = a.String()
	case code := <-done:
		t.Fatalf("exited with %d before listening:\n%s", code, s.log.String())
	}
	return s
}

// await reads results until one has action a.
func (s *sidecar) await(a reloader.Action) reloader.Result {
	s.t.Helper()
	timeout := time.NewTimer(30 * time.Second)
	defer timeout.Stop()
	for {
		select {
		case r := <-s.results:
			if r.Action == a {
				return r
			}
		case <-timeout.C:
			s.t.Fatalf("no %s result; log:\n%s", a, s.log.String())
		}
	}
}

func (s *sidecar) get(path string) (int, string) {
	s.t.Helper()
	resp, err := http.Get("http://" + s.addr + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func requireMarker(t testing.TB, p *reloadertest.Prometheus, marker string) {
	t.Helper()
	cfg, err := p.LoadedConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cfg, "marker: "+marker+"\n") {
		t.Fatalf("prometheus runs\n%s\nwant marker %s", cfg, marker)
	}
}

func TestInitModeRendersAndExits(t *testing.T) {
	t.Setenv("POD_NAME", "prometheus-k8s-1")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in", "prometheus.yaml.gz"), filepath.Join(dir, "prometheus.env.yaml")
	if err := atomicwriter.Write(filepath.Dir(in), map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, "replica: $(POD_NAME)\nordinal: $(STATEFULSET_ORDINAL_NUMBER)\n")}); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	code := run(context.Background(), []string{"--config-file=" + in, "--config-envsubst-file=" + out, "--watch-interval=0",
		"--log-format=json"}, &log, hooks{})
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, log.String())
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "replica: prometheus-k8s-1\nordinal: 1\n" {
		t.Fatalf("output %q, %v", b, err)
	}
	if !strings.Contains(log.String(), `"msg":"config rendered"`) {
		t.Fatalf("log %s", log.String())
	}
}

func TestInitModeCorruptInputFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "prometheus.yaml.gz"), filepath.Join(dir, "out.yaml")
	if err := os.WriteFile(in, reloadertest.Gzip(t, "x: 1\n")[:10], 0o644); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	if code := run(context.Background(), []string{"--config-file=" + in, "--config-envsubst-file=" + out, "--watch-interval=0"}, &log, hooks{}); code != exitError {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(log.String(), "gunzip") {
		t.Fatalf("unclear log:\n%s", log.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("output written from corrupt input: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	if code := run(context.Background(), []string{"--reload-method=nope", "--config-file=/x"}, &log, hooks{}); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	if code := run(context.Background(), []string{"--config-file=/x", "--log-level=loud"}, &log, hooks{}); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	if code := run(context.Background(), []string{"--version"}, &log, hooks{}); code != exitOK || !strings.Contains(log.String(), version) {
		t.Fatalf("exit %d, %q", code, log.String())
	}
	log = syncBuffer{}
	if code := run(context.Background(), []string{"--short-version"}, &log, hooks{}); code != exitOK || log.String() != version+"\n" {
		t.Fatalf("exit %d, %q", code, log.String())
	}
	// A web config that does not load stops the start, as upstream's does.
	bad := filepath.Join(t.TempDir(), "web.yaml")
	if err := os.WriteFile(bad, []byte("tls_server_config:\n  cert_file: /nonexistent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(context.Background(), []string{"--config-file=/x", "--web-config-file=" + bad}, &log, hooks{}); code != exitUsage {
		t.Fatalf("bad web config: exit %d", code)
	}
}

// TestSidecar runs the command against a real Prometheus: reload on change, metrics and
// health endpoints.
func TestSidecar(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgDir, out, rules := filepath.Join(dir, "config"), filepath.Join(dir, "out", "prometheus.env.yaml"), filepath.Join(dir, "rules")
	in := filepath.Join(cfgDir, "prometheus.yaml.gz")
	if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, configYAML("v1"))}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config-file=" + in, "--config-envsubst-file=" + out, "--watched-dir=" + rules}
	if code := run(context.Background(), append(args, "--watch-interval=0"), io.Discard, hooks{}); code != exitOK {
		t.Fatalf("init exit %d", code)
	}
	p := reloadertest.Start(t, out, reloadertest.Options{})
	s := startSidecar(t, append(args, "--reload-url="+p.ReloadURL(), "--runtimeinfo-url="+p.RuntimeInfoURL(),
		"--retry-interval=100ms", "--delay-interval=10ms")...)
	s.await(reloader.ActionReloaded)

	v2 := configYAML("v2")
	if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, v2)}); err != nil {
		t.Fatal(err)
	}
	s.await(reloader.ActionReloaded)
	requireMarker(t, p, "v2")

	if code, body := s.get("/healthz"); code != http.StatusOK || body != `{"status":"up"}` {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	code, metrics := s.get("/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		"reloader_reloads_total 2",
		"reloader_reloads_failed_total 0",
		"reloader_last_reload_successful 1",
		"reloader_last_reload_success_timestamp_seconds ",
		"reloader_config_apply_operations_total 2",
		"reloader_config_apply_operations_failed_total 0",
		"reloader_watches 2",
		"reloader_watch_events_total ",
		"reloader_watch_errors_total 0",
		`reloader_config_info{hash="` + confighash.Sum([]byte(v2)) + `"} 1`,
		"reloader_reload_duration_seconds_count 2",
		"reloader_unset_env_vars_total 0",
		"reloader_config_environment_variable_expansion_errors 0",
		`reloader_info{method="http"} 1`,
		`prometheus_config_reloader_build_info{goversion="`,
		`reloader_checks_total{cause="start"} 1`,
		"process_resident_memory_bytes ",
		"go_goroutines ",
	} {
		if !strings.Contains(metrics, "\n"+want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Count(metrics, "reloader_config_info{") != 1 {
		t.Error("more than one reloader_config_info series")
	}
}

// webConfigBasicAuth is an exporter-toolkit web config: user admin, password s3cret
// (bcrypt, cost 4).
const webConfigBasicAuth = "basic_auth_users:\n  admin: $2a$04$RvSf6GssE1nwuhBzLTCywOdJQUKxIgRzYT42TW5XEPsYOlHih4AR6\n"

// TestWebConfigFile: --web-config-file protects the metrics server like
// prometheus-config-reloader's.
func TestWebConfigFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	webConfig := filepath.Join(dir, "web.yaml")
	if err := os.WriteFile(webConfig, []byte(webConfigBasicAuth), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgDir := filepath.Join(dir, "config")
	if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, configYAML("v1"))}); err != nil {
		t.Fatal(err)
	}
	// Nothing answers the reload: only the metrics server matters here.
	s := startSidecar(t, "--config-file="+filepath.Join(cfgDir, "prometheus.yaml.gz"), "--web-config-file="+webConfig,
		"--reload-url=http://127.0.0.1:1/-/reload")
	for _, tc := range []struct {
		user, password string
		want           int
	}{
		{"", "", http.StatusUnauthorized},
		{"admin", "wrong", http.StatusUnauthorized},
		{"admin", "s3cret", http.StatusOK},
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+s.addr+"/metrics", nil)
		if tc.user != "" {
			req.SetBasicAuth(tc.user, tc.password)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("user %q password %q: %s, want %d", tc.user, tc.password, resp.Status, tc.want)
		}
	}
}

// TestSignalConfirmsOverTLS: the signal method reads runtimeinfo over HTTPS with a route
// prefix, as prometheus-operator's pods ask (--runtimeinfo-url only), from a real
// Prometheus with a certificate the reloader cannot verify.
func TestSignalConfirmsOverTLS(t *testing.T) {
	t.Parallel()
	bin, err := reloadertest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	// A name of its own, so no other test's Prometheus is signalled.
	name := "promtls-" + filepath.Base(t.TempDir())
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	pod := newUpstreamPod(t, "prometheus.yaml.gz", configYAML("v1"))
	p := reloadertest.Start(t, pod.out, reloadertest.Options{Binary: link, TLS: true, RoutePrefix: "/prom"})
	s := startSidecar(t, append(pod.args, "--reload-method=signal", "--process-executable-name="+name,
		"--runtimeinfo-url="+p.RuntimeInfoURL(), "--delay-interval=10ms")...)
	s.requireReloaded()
	pod.publish(t, "prometheus.yaml.gz", configYAML("v2"))
	s.requireReloaded()
	requireMarker(t, p, "v2")
}
