package reloader_test

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// slowPrometheus answers /-/reload the way Prometheus does, one load after another, each
// taking loadTime, and counts the reads of its runtimeinfo endpoint.
type slowPrometheus struct {
	outFile  string
	loadTime time.Duration
	hang     bool // never answer a reload (a Prometheus stuck in a load)
	// started makes startAgainst render the output before the reloader runs (the init
	// container) and Prometheus start after that, at startTime, from that output; its
	// runtimeinfo answers 503 the first notReady times (the first load under way).
	started   bool
	startTime time.Time
	notReady  int

	load   sync.Mutex // Prometheus applies queued reloads one at a time
	mu     sync.Mutex
	posts  int
	infos  int      // runtimeinfo reads
	loaded []string // the markers of the loads, in order
}

func (p *slowPrometheus) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/-/reload":
		p.mu.Lock()
		p.posts++
		p.mu.Unlock()
		if p.hang {
			<-r.Context().Done()
			return
		}
		// The load runs whether or not the client still waits for the answer.
		p.load.Lock()
		content, err := os.ReadFile(p.outFile)
		time.Sleep(p.loadTime)
		p.mu.Lock()
		p.loaded = append(p.loaded, marker(string(content)))
		p.mu.Unlock()
		p.load.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	case "/api/v1/status/runtimeinfo":
		p.mu.Lock()
		p.infos++
		notReady := p.infos <= p.notReady
		start := p.startTime
		p.mu.Unlock()
		if notReady {
			http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, `{"status":"success","data":{"startTime":%q,"reloadConfigSuccess":true,"lastConfigTime":%q}}`,
			start.UTC().Format(time.RFC3339Nano), time.Now().UTC().Format(time.RFC3339))
	default:
		http.NotFound(w, r)
	}
}

func (p *slowPrometheus) counts() (posts int, loaded []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.posts, append([]string(nil), p.loaded...)
}

func (p *slowPrometheus) runtimeInfoReads() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.infos
}

// marker is the marker label of a configYAML.
func marker(config string) string {
	_, after, _ := strings.Cut(config, "marker: ")
	m, _, _ := strings.Cut(after, "\n")
	return m
}

// TestOverdueReloadIsAwaitedNotRepeated: when Prometheus's load outlasts the reload
// timeout, the reloader waits for its answer (observing the check as pending meanwhile)
// instead of queueing one full load after another behind it or asking runtimeinfo, and
// requests one more only when the content changed meanwhile (ADR 39).
func TestOverdueReloadIsAwaitedNotRepeated(t *testing.T) {
	t.Parallel()
	prom := &slowPrometheus{loadTime: 1500 * time.Millisecond}
	write, results := startAgainst(t, prom)

	awaitReloaded := func() (pending int) {
		t.Helper()
		deadline := time.After(awaitTimeout)
		for {
			select {
			case r := <-results:
				switch r.Action {
				case reloader.ActionReloaded:
					return pending
				case reloader.ActionPending:
					pending++
				}
			case <-deadline:
				t.Fatal("no reload confirmed")
			}
		}
	}

	// The first load outlasts the timeout: awaited, not repeated.
	if pending := awaitReloaded(); pending == 0 {
		t.Error("no check was observed waiting for the overdue reload")
	}
	if posts, loaded := prom.counts(); posts != 1 || strings.Join(loaded, ",") != "v1" {
		t.Fatalf("after the first slow load: %d reload requests, loads %v; want 1 request loading v1", posts, loaded)
	}

	// A change while the overdue load runs needs one more load, not one per retry.
	write("v2")
	time.Sleep(500 * time.Millisecond) // the request for v2 is cut off...
	write("v3")                        // ...and v3 arrives while it is applied
	for {
		awaitReloaded()
		if _, loaded := prom.counts(); len(loaded) > 0 && loaded[len(loaded)-1] == "v3" {
			break
		}
	}
	time.Sleep(2 * prom.loadTime) // any request queued behind would show by now
	posts, loaded := prom.counts()
	if loaded[len(loaded)-1] != "v3" || posts > 3 {
		t.Fatalf("after v2 and v3: %d reload requests, loads %v; want at most 3 requests, v3 loaded last", posts, loaded)
	}
	if n := prom.runtimeInfoReads(); n != 0 {
		t.Errorf("runtimeinfo read %d times; the answers confirm the loads", n)
	}
}

// startAgainst runs a reloader against prom (its output file set here) with a reload
// timeout of 300ms and a retry interval of 50ms, and returns how to write the input
// config with a marker and the reloader's check results.
func startAgainst(t *testing.T, prom *slowPrometheus, tweak ...func(*reloader.Options)) (write func(marker string), results chan reloader.Result) {
	t.Helper()
	dir := t.TempDir()
	cfgDir := filepath.Join(dir, "config")
	prom.outFile = filepath.Join(dir, "out", "prometheus.env.yaml")
	if err := os.MkdirAll(filepath.Dir(prom.outFile), 0o755); err != nil {
		t.Fatal(err)
	}
	write = func(m string) {
		t.Helper()
		raw := gzipBytes(t, configYAML(m, filepath.Join(dir, "rules")), gzip.BestSpeed)
		if err := atomicwriter.Write(cfgDir, map[string][]byte{"prometheus.yaml.gz": raw}); err != nil {
			t.Fatal(err)
		}
	}
	write("v1")
	srv := httptest.NewServer(prom)
	t.Cleanup(srv.Close)

	m, err := reloader.NewMetrics(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	results = make(chan reloader.Result, 4096)
	o := reloader.Options{
		ConfigFile:    filepath.Join(cfgDir, "prometheus.yaml.gz"),
		ConfigOutFile: prom.outFile,
		DelayInterval: 10 * time.Millisecond,
		RetryInterval: 50 * time.Millisecond,
		ReloadTimeout: 300 * time.Millisecond,
		Metrics:       m,
		LookupEnv:     func(string) (string, bool) { return "", false },
		Trigger:       &reloader.HTTPTrigger{ReloadURL: srv.URL + "/-/reload"},
		Observe:       func(r reloader.Result) { results <- r },
	}
	for _, f := range tweak {
		f(&o)
	}
	if prom.started {
		init := o
		init.Observe = nil // the init container is a process of its own
		renderOnce(t, init)
		time.Sleep(10 * time.Millisecond)
		prom.mu.Lock()
		prom.startTime = time.Now()
		prom.mu.Unlock()
	}
	runReloader(t, o)
	return write, results
}

// TestStuckReloadFailsAfterMaxAwait: a Prometheus that never answers is waited for
// MaxAwait, then the reload fails and is requested again after the retry interval.
func TestStuckReloadFailsAfterMaxAwait(t *testing.T) {
	t.Parallel()
	prom := &slowPrometheus{hang: true}
	start := time.Now()
	_, results := startAgainst(t, prom, func(o *reloader.Options) {
		o.ReloadTimeout = 100 * time.Millisecond
		o.MaxAwait = 500 * time.Millisecond
	})
	pending := 0
	deadline := time.After(awaitTimeout)
	for {
		select {
		case r := <-results:
			switch r.Action {
			case reloader.ActionPending:
				pending++
				continue
			case reloader.ActionFailed:
			default:
				t.Fatalf("check %s, want failed", r.Action)
			}
			if took := time.Since(start); took < 500*time.Millisecond || pending < 3 {
				t.Fatalf("failed after %s with %d overdue notes; want the full 500ms awaited, overdue every 100ms", took, pending)
			}
			if !strings.Contains(r.Err.Error(), "deadline") {
				t.Errorf("error %v, want the deadline", r.Err)
			}
			for posts, _ := prom.counts(); posts < 2; posts, _ = prom.counts() {
				select {
				case <-deadline:
					t.Fatal("the stuck reload was not requested again")
				case <-time.After(10 * time.Millisecond):
				}
			}
			return
		case <-deadline:
			t.Fatal("a reload Prometheus never answers did not fail")
		}
	}
}
