package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/lookout-operator/lookout/test/testenv"
)

// TestLocalRun runs what `make run` runs, as a child process and without root: the
// local control plane, the operator, and the generated Prometheus pod as local processes
// (the real prometheus and config-reloader binaries) and the demo Alertmanager. It waits
// for Prometheus to scrape the demo's sample app through Kubernetes discovery, for the
// demo's alert to fire and to reach the Alertmanager, patches the ServiceMonitor's interval
// and waits for Prometheus to serve it (operator -> Secret -> pod files -> reloader ->
// Prometheus), then sends SIGINT and checks that no process and no file is left behind.
//
// The binaries are built into a temporary directory, or taken from
// LOOKOUT_LOCAL_BIN, LOOKOUT_OPERATOR_BIN and LOOKOUT_RELOADER_BIN; prometheus, etcd and
// kube-apiserver and alertmanager come from $KUBEBUILDER_ASSETS or bin/ (make tools).
func TestLocalRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a control plane, the operator and Prometheus")
	}
	assets, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"etcd", "kube-apiserver", "prometheus", "alertmanager"} {
		if _, err := os.Stat(filepath.Join(assets, tool)); err != nil {
			t.Fatalf("%s: run `make tools` first", err)
		}
	}
	binDir := t.TempDir()
	local := binary(t, binDir, "LOOKOUT_LOCAL_BIN", "lookout-local", "./")
	operator := binary(t, binDir, "LOOKOUT_OPERATOR_BIN", "lookout-operator", "../operator")
	reloader := binary(t, binDir, "LOOKOUT_RELOADER_BIN", "config-reloader", "../config-reloader")

	// Everything lookout-local creates goes under tmp, which must be empty at the end.
	tmp := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "lookout-local.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()

	start := time.Now()
	cmd := exec.Command(local, "-config-reloader", reloader, "-prometheus", filepath.Join(assets, "prometheus"), "--",
		operator, "run", "--log-format=logfmt", "--metrics-bind-address=0", "--health-probe-bind-address=0")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "KUBEBUILDER_ASSETS="+assets)
	cmd.Stdout = logFile
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	kubeconfigs := make(chan string, 1)
	urls := make(chan string, 1)   // the Prometheus pod's
	amURLs := make(chan string, 1) // the Alertmanager pod's
	var scanned sync.WaitGroup
	scanned.Add(1)
	go func() {
		defer scanned.Done()
		re := regexp.MustCompile(`open (http://127\.0\.0\.1:\d+)/(targets|#/alerts)`)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			fmt.Fprintln(logFile, sc.Text())
			if k, ok := strings.CutPrefix(sc.Text(), "lookout-local: kubeconfig: "); ok {
				select {
				case kubeconfigs <- k:
				default:
				}
			}
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				ch := urls
				if m[2] != "targets" {
					ch = amURLs
				}
				select {
				case ch <- m[1]:
				default:
				}
			}
		}
	}()
	go func() {
		scanned.Wait()
		exited <- cmd.Wait()
	}()
	stopped := false
	defer func() {
		if !stopped {
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case <-exited:
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
			}
		}
	}()
	fail := func(format string, args ...any) {
		t.Helper()
		b, _ := os.ReadFile(logPath)
		t.Fatalf("%s\nlookout-local output:\n%s", fmt.Sprintf(format, args...), lastLines(string(b), 60))
	}

	var prom string
	select {
	case prom = <-urls:
	case err := <-exited:
		stopped = true
		fail("lookout-local exited: %v", err)
	case <-time.After(150 * time.Second):
		fail("no Prometheus pod ready within 150s")
	}
	readyAt := time.Since(start)

	// The sample app, scraped through EndpointSlice discovery; the instance label is the
	// discovered address, the scrape goes to the local instance.
	var targets struct {
		Data struct {
			ActiveTargets []struct {
				Labels    map[string]string `json:"labels"`
				ScrapeURL string            `json:"scrapeUrl"`
				Health    string            `json:"health"`
				LastError string            `json:"lastError"`
			} `json:"activeTargets"`
		} `json:"data"`
	}
	upAt := waitFor(t, 90*time.Second, fail, "the sample app target up in "+prom+"/api/v1/targets", func() bool {
		if err := getJSON(prom+"/api/v1/targets", &targets); err != nil {
			return false
		}
		for _, tg := range targets.Data.ActiveTargets {
			if tg.Labels["job"] == "sample-app" && tg.Labels["instance"] == "10.10.0.11:8080" && tg.Health == "up" {
				return strings.HasPrefix(tg.ScrapeURL, "http://127.0.0.1:")
			}
		}
		return false
	}).Sub(start)

	var alerts struct {
		Data struct {
			Alerts []struct {
				Labels map[string]string `json:"labels"`
				State  string            `json:"state"`
			} `json:"alerts"`
		} `json:"data"`
	}
	firingAt := waitFor(t, 90*time.Second, fail, "SampleAppQueueBacklog firing in "+prom+"/api/v1/alerts", func() bool {
		if err := getJSON(prom+"/api/v1/alerts", &alerts); err != nil {
			return false
		}
		for _, a := range alerts.Data.Alerts {
			if a.Labels["alertname"] == "SampleAppQueueBacklog" && a.State == "firing" {
				return a.Labels["instance"] == "10.10.0.12:8080"
			}
		}
		return false
	}).Sub(start)

	// The alert reaches the demo Alertmanager, which Prometheus finds through the
	// EndpointSlice lookout-local writes for alertmanager-operated.
	var am string
	select {
	case am = <-amURLs:
	case <-time.After(30 * time.Second):
		fail("no Alertmanager pod ready")
	}
	var amAlerts []struct {
		Labels map[string]string `json:"labels"`
	}
	deliveredAt := waitFor(t, 60*time.Second, fail, "SampleAppQueueBacklog in "+am+"/api/v2/alerts", func() bool {
		if err := getJSON(am+"/api/v2/alerts", &amAlerts); err != nil {
			return false
		}
		for _, a := range amAlerts {
			if a.Labels["alertname"] == "SampleAppQueueBacklog" {
				return true
			}
		}
		return false
	}).Sub(start)
	t.Logf("from start: Prometheus ready after %s, sample app target up after %s, alert firing after %s, in Alertmanager after %s",
		readyAt.Round(100*time.Millisecond), upAt.Round(100*time.Millisecond), firingAt.Round(100*time.Millisecond), deliveredAt.Round(100*time.Millisecond))

	// A ServiceMonitor change goes operator -> Secret -> pod files -> reloader -> Prometheus.
	var kubeconfig string
	select {
	case kubeconfig = <-kubeconfigs:
	default:
		fail("lookout-local printed no kubeconfig path")
	}
	c := kubeClient(t, kubeconfig)
	gvr := schema.GroupVersionResource{Group: "monitoring.coreos.com", Version: "v1", Resource: "servicemonitors"}
	patch := []byte(`[{"op":"replace","path":"/spec/endpoints/0/interval","value":"30s"}]`)
	t1 := time.Now()
	if _, err := c.Resource(gvr).Namespace("demo").Patch(context.Background(), "sample-app", types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, fail, "the new scrape interval in "+prom+"/api/v1/targets", func() bool {
		var tg struct {
			Data struct {
				ActiveTargets []struct {
					ScrapeInterval string `json:"scrapeInterval"`
				} `json:"activeTargets"`
			} `json:"data"`
		}
		if err := getJSON(prom+"/api/v1/targets", &tg); err != nil || len(tg.Data.ActiveTargets) == 0 {
			return false
		}
		return tg.Data.ActiveTargets[0].ScrapeInterval == "30s"
	})
	t.Logf("ServiceMonitor interval change served by Prometheus after %s", time.Since(t1).Round(100*time.Millisecond))

	// Ctrl-C stops everything and removes every file.
	t0 := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	stopped = true
	select {
	case err := <-exited:
		if err != nil {
			fail("lookout-local after SIGINT: %v", err)
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		fail("lookout-local did not exit within 60s of SIGINT")
	}
	t.Logf("SIGINT to exit: %s", time.Since(t0).Round(100*time.Millisecond))
	if left := processesMentioning(tmp); len(left) > 0 {
		fail("processes left behind: %s", strings.Join(left, "\n"))
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		fail("files left behind in TMPDIR: %v", names)
	}
}

// binary returns $env when set, or builds pkg into dir.
func binary(t *testing.T, dir, env, name, pkg string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	out := filepath.Join(dir, name)
	// go test puts its own toolchain's bin first in PATH.
	if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func waitFor(t *testing.T, timeout time.Duration, fail func(string, ...any), what string, ok func() bool) time.Time {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			fail("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(250 * time.Millisecond)
	}
	return time.Now()
}

var httpClient = &http.Client{Timeout: 5 * time.Second}

func getJSON(url string, v any) error {
	resp, err := httpClient.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// processesMentioning lists the live processes whose command line contains s (etcd's
// data directory, the API server's certificates, the pods' files: all under TMPDIR).
func processesMentioning(s string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(d, "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie awaiting its parent is gone already
		}
		out = append(out, filepath.Base(d)+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func kubeClient(t *testing.T, kubeconfig string) *dynamic.DynamicClient {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
