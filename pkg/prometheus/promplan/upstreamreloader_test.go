package promplan_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/pkg/workload"
	"github.com/lookout-operator/lookout/test/atomicwriter"
	"github.com/lookout-operator/lookout/test/testenv"
	"github.com/lookout-operator/lookout/test/workloadtest"
)

// reloaderCases builds every golden case and collects its reloader containers.
func reloaderCases(t *testing.T) []workloadtest.ReloaderCase {
	t.Helper()
	var out []workloadtest.ReloaderCase
	for _, c := range promplan.BuildCasesForTest() {
		sts, err := promplan.StatefulSet(c.Input, c.Options, c.Shard)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		rc := workloadtest.ReloaderCase{Name: c.Name, API: c.Options.ReloaderWatchAPI, Parts: c.Input.ConfigParts > 1, Report: c.Options.ReloaderReportConfig, PodName: sts.Name + "-0"}
		rc.InitC, rc.Sidecar = workloadtest.ReloaderContainers(t, c.Name, sts)
		out = append(out, rc)
	}
	return out
}

// TestReloaderArgsUpstreamCompatible: the reloader containers of every golden case get
// only flags upstream's reloader defines (workloadtest.CheckReloaderArgsUpstreamCompatible).
func TestReloaderArgsUpstreamCompatible(t *testing.T) {
	t.Parallel()
	workloadtest.CheckReloaderArgsUpstreamCompatible(t, reloaderCases(t))
}

// TestUpstreamReloaderRunsGeneratedArgs runs upstream's prometheus-config-reloader
// (bin/prometheus-config-reloader, built by `make tools`) with the reloader arguments of
// every golden case without API-watch mode or config parts: the init container's must render the config
// and exit 0, the sidecar's must start and reload (http method) or run its signal
// method. To run outside a pod the arguments are moved, not changed: paths under
// /etc/prometheus into a temporary directory, Prometheus's address to a stand-in on
// loopback (HTTPS where the pod uses HTTPS), the listen address to a free loopback port;
// the signal method gets a process name of its own, so that no Prometheus of another
// test on this machine is signalled.
func TestUpstreamReloaderRunsGeneratedArgs(t *testing.T) {
	t.Parallel()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin", "prometheus-config-reloader")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("upstream's reloader is missing: run `make tools` (hack/build-tool.sh prometheus-config-reloader): %v", err)
	}
	seen := map[string]bool{}
	for _, rc := range reloaderCases(t) {
		key := strings.Join(append(slices.Clone(rc.InitC.Args), rc.Sidecar.Args...), " ")
		if rc.API || rc.Parts || seen[key] {
			continue
		}
		seen[key] = true
		t.Run(rc.Name, func(t *testing.T) {
			t.Parallel()
			pod := newFakePod(t, rc)
			pod.runInit(t, bin)
			pod.runSidecar(t, bin)
		})
	}
	if len(seen) < 4 {
		t.Fatalf("only %d distinct argument sets: the golden cases no longer cover the reloader", len(seen))
	}
}

// fakePod is the file layout and environment of one pod, under a temporary root.
type fakePod struct {
	rc              workloadtest.ReloaderCase
	root            string
	env             []string
	shard           string
	configFile, out string
}

func newFakePod(t *testing.T, rc workloadtest.ReloaderCase) *fakePod {
	t.Helper()
	p := &fakePod{rc: rc, root: t.TempDir()}
	p.env = []string{"PATH=/usr/bin:/bin"}
	for _, e := range rc.Sidecar.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.name":
			p.env = append(p.env, e.Name+"="+rc.PodName)
		case e.ValueFrom == nil:
			p.env = append(p.env, e.Name+"="+e.Value)
			if e.Name == workload.ShardEnv {
				p.shard = e.Value
			}
		}
	}
	for _, a := range rc.Sidecar.Args {
		// The web configuration of the sidecar's listener, which the kubelet mounts: an
		// empty one (plain HTTP) is enough for the arguments to be tried.
		if value, ok := strings.CutPrefix(a, "--web-config-file="); ok {
			if err := os.MkdirAll(p.path(filepath.Dir(value)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p.path(value), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, a := range rc.InitC.Args {
		name, value, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		var err error
		switch name {
		case "config-file":
			p.configFile = p.path(value)
			p.publish(t, "one")
		case "config-envsubst-file":
			p.out = p.path(value)
			err = os.MkdirAll(p.path(filepath.Dir(value)), 0o755)
		case "watched-dir":
			// A rule directory; the config's own directory is written already.
			if _, serr := os.Stat(p.path(value)); os.IsNotExist(serr) {
				err = atomicwriter.WriteStrings(p.path(value), map[string]string{"rules.yaml": "groups: []\n"})
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// publish projects a config kubelet-style, with stage in an external label.
func (p *fakePod) publish(t *testing.T, stage string) {
	t.Helper()
	config := "global:\n  external_labels:\n    replica: $(POD_NAME)\n    shard: $(SHARD)\n    stage: " + stage + "\n"
	if err := atomicwriter.Write(filepath.Dir(p.configFile), map[string][]byte{filepath.Base(p.configFile): reloadertest.Gzip(t, config)}); err != nil {
		t.Fatal(err)
	}
}

// path moves an absolute pod path under the root.
func (p *fakePod) path(podPath string) string { return filepath.Join(p.root, podPath) }

// localize moves one argument's paths, URL and listen address.
func (p *fakePod) localize(t *testing.T, arg string, endpoints func(https bool) *reloadertest.Endpoint) string {
	t.Helper()
	name, value, ok := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
	switch {
	case !ok:
		return arg
	case strings.HasPrefix(value, "/etc/prometheus/"):
		return "--" + name + "=" + p.path(value)
	case name == "reload-url" || name == "runtimeinfo-url":
		u, err := url.Parse(value)
		if err != nil {
			t.Fatal(err)
		}
		e, err := url.Parse(endpoints(u.Scheme == "https").URL)
		if err != nil {
			t.Fatal(err)
		}
		u.Host = net.JoinHostPort(u.Hostname(), e.Port())
		return "--" + name + "=" + u.String()
	case name == "listen-address":
		return "--" + name + "=" + freeLoopbackAddr(t)
	}
	return arg
}

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// runInit runs the init container's arguments and checks the rendered config.
func (p *fakePod) runInit(t *testing.T, bin string) {
	t.Helper()
	var args []string
	for _, a := range p.rc.InitC.Args {
		args = append(args, p.localize(t, a, func(bool) *reloadertest.Endpoint { t.Fatal("the init container reloads nothing"); return nil }))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = p.env
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("upstream's reloader rejects the init container's arguments %q: %v\n%s", p.rc.InitC.Args, err, o)
	}
	b, err := os.ReadFile(p.out)
	want := fmt.Sprintf("replica: %s\n    shard: %s\n", p.rc.PodName, p.shard)
	if err != nil || !strings.Contains(string(b), want) {
		t.Fatalf("rendered config %q, %v; want it to contain %q", b, err, want)
	}
}

// runSidecar starts the sidecar's arguments, waits until it reloaded (http) or runs its
// signal method, then (http) publishes a new config kubelet-style and waits for its
// reload, and stops it with SIGTERM.
func (p *fakePod) runSidecar(t *testing.T, bin string) {
	t.Helper()
	var https, plain *reloadertest.Endpoint
	endpoint := func(tls bool) *reloadertest.Endpoint {
		if tls {
			if https == nil {
				https = reloadertest.StartEndpoint(t, true)
			}
			return https
		}
		if plain == nil {
			plain = reloadertest.StartEndpoint(t, false)
		}
		return plain
	}
	var args []string
	var listen, method string
	for _, a := range p.rc.Sidecar.Args {
		a = p.localize(t, a, endpoint)
		args = append(args, a)
		if v, ok := strings.CutPrefix(a, "--listen-address="); ok {
			listen = v
		}
		if v, ok := strings.CutPrefix(a, "--reload-method="); ok {
			method = v
		}
	}
	if method == "signal" {
		args = append(args, "--process-executable-name=lookout-no-such-process-"+filepath.Base(p.root))
	}
	if listen == "" || method == "" {
		t.Fatalf("sidecar arguments without a listen address or reload method: %q", p.rc.Sidecar.Args)
	}
	var log syncWriter
	cmd := exec.Command(bin, args...)
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	reloads := func() int64 {
		var n int64
		for _, e := range []*reloadertest.Endpoint{https, plain} {
			if e != nil {
				n += e.Reloads()
			}
		}
		return n
	}
	await := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for !cond() {
			select {
			case err := <-exited:
				t.Fatalf("upstream's reloader exited (%v) with the sidecar's arguments %q:\n%s", err, p.rc.Sidecar.Args, log.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("upstream's reloader with the sidecar's arguments %q: no %s within a minute:\n%s", p.rc.Sidecar.Args, what, log.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	await(fmt.Sprintf("reloader_info{method=%q}", method), func() bool {
		return metricsShow(listen, fmt.Sprintf("reloader_info{method=%q} 1", method))
	})
	if method == "http" {
		await("first reload", func() bool { return reloads() > 0 })
		// Upstream's reloader applies and reloads once before it adds its file watches
		// ("Reload triggered" is logged before "started watching"): a config published
		// in between is seen only at the next --watch-interval, so wait for the watches.
		await("start of its file watches", func() bool { return strings.Contains(log.String(), "started watching") })
		// Each kubelet swap of the config must be noticed at once, not at the next
		// --watch-interval. A watch of the file itself sees the first swap only (the
		// file it watched is gone): upstream's reloader needs the directory watched.
		for _, stage := range []string{"two", "three"} {
			before := reloads()
			p.publish(t, stage)
			await("reload of the config of stage "+stage, func() bool {
				b, _ := os.ReadFile(p.out)
				return reloads() > before && strings.Contains(string(b), "stage: "+stage+"\n")
			})
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Fatalf("upstream's reloader did not stop cleanly: %v\n%s", err, log.String())
	}
	exited <- nil // for the cleanup
}

// metricsShow reports whether the metrics served at addr contain line.
func metricsShow(addr, line string) bool {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.Contains(string(b), "\n"+line+"\n")
}

// syncWriter collects a process's output written from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
