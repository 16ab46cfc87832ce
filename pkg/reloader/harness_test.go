package reloader_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// awaitTimeout bounds every wait for a reloader result.
const awaitTimeout = 30 * time.Second

// configYAML is a valid Prometheus config carrying marker in an external label, so the
// loaded config shows which version Prometheus runs. It scrapes nothing.
func configYAML(marker, rulesDir string) string {
	return fmt.Sprintf("global:\n  scrape_interval: 1m\n  external_labels:\n    marker: %s\nrule_files:\n  - %s/*.yaml\n",
		marker, rulesDir)
}

func gzipBytes(t testing.TB, s string, level int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sha names a config as the reloader and the operator name it.
func sha(s string) string { return confighash.Sum([]byte(s)) }

// harness is one reloader running against one real Prometheus, laid out like the pod:
// the config Secret (gzipped) and a rule ConfigMap written kubelet-style, the rendered
// config in its own directory.
type harness struct {
	t        testing.TB
	cfgDir   string
	cfgFile  string
	outFile  string
	rulesDir string
	prom     *reloadertest.Prometheus
	reg      *prometheus.Registry
	results  chan reloader.Result
	env      map[string]string
	partDirs []string
}

type harnessOptions struct {
	// initial is the config the pod starts with.
	initial string
	// modify adjusts the reloader options before it starts.
	modify func(*reloader.Options)
	// prometheus options.
	prom reloadertest.Options
	// trigger builds the trigger from the running Prometheus; nil means HTTP.
	trigger func(*reloadertest.Prometheus) reloader.Trigger
	// parts are further config parts the pod reads after the config (ADR 20), each
	// written kubelet-style to its own directory.
	parts []string
}

func newHarness(t testing.TB, o harnessOptions) *harness {
	t.Helper()
	dir := t.TempDir()
	h := &harness{
		t:        t,
		cfgDir:   filepath.Join(dir, "config"),
		outFile:  filepath.Join(dir, "config_out", "prometheus.env.yaml"),
		rulesDir: filepath.Join(dir, "rules", "prometheus-k8s-rulefiles-0"),
		reg:      prometheus.NewRegistry(),
		results:  make(chan reloader.Result, 4096),
		env:      map[string]string{"POD_NAME": "prometheus-k8s-0", "SHARD": "0"},
	}
	h.cfgFile = filepath.Join(h.cfgDir, "prometheus.yaml.gz")
	if o.initial == "" {
		o.initial = configYAML("v1", h.rulesDir)
	}
	h.writeConfig(gzipBytes(t, o.initial, gzip.DefaultCompression))
	for k, part := range o.parts {
		h.partDirs = append(h.partDirs, filepath.Join(dir, "config-parts", fmt.Sprintf("part-%d", k+1)))
		h.writePart(k+1, part)
	}
	if err := atomicwriter.Write(h.rulesDir, map[string][]byte{}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(h.outFile), 0o755); err != nil {
		t.Fatal(err)
	}

	// The init container renders the config before Prometheus starts.
	m, err := reloader.NewMetrics(h.reg)
	if err != nil {
		t.Fatal(err)
	}
	var partFiles []string
	for _, d := range h.partDirs {
		partFiles = append(partFiles, filepath.Join(d, "prometheus.yaml.gz"))
	}
	opts := reloader.Options{
		ConfigFile:      h.cfgFile,
		ConfigPartFiles: partFiles,
		ConfigOutFile:   h.outFile,
		WatchedDirs:     []string{h.rulesDir},
		DelayInterval:   10 * time.Millisecond,
		RetryInterval:   50 * time.Millisecond,
		ReloadTimeout:   10 * time.Second,
		Metrics:         m,
		LookupEnv:       func(k string) (string, bool) { v, ok := h.env[k]; return v, ok },
		Observe: func(r reloader.Result) {
			select {
			case h.results <- r:
			default:
				t.Errorf("result channel full, dropped %+v", r)
			}
		},
	}
	renderOnce(t, reloader.Options{ConfigFile: opts.ConfigFile, ConfigPartFiles: partFiles, ConfigOutFile: opts.ConfigOutFile, LookupEnv: opts.LookupEnv})

	h.prom = reloadertest.Start(t, h.outFile, o.prom)
	if o.trigger != nil {
		opts.Trigger = o.trigger(h.prom)
	} else {
		opts.Trigger = &reloader.HTTPTrigger{ReloadURL: h.prom.ReloadURL()}
	}
	if o.modify != nil {
		o.modify(&opts)
	}
	runReloader(t, opts)
	return h
}

// renderOnce renders the output as the init container does.
func renderOnce(t testing.TB, o reloader.Options) {
	t.Helper()
	rl, err := reloader.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := rl.RenderOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// runReloader runs a reloader with o until the test ends.
func runReloader(t testing.TB, o reloader.Options) {
	t.Helper()
	rl, err := reloader.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rl.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// writeConfig publishes raw as the config Secret's key, kubelet-style.
func (h *harness) writeConfig(raw []byte) {
	h.t.Helper()
	if err := atomicwriter.Write(h.cfgDir, map[string][]byte{"prometheus.yaml.gz": raw}); err != nil {
		h.t.Fatal(err)
	}
}

// writePart publishes part k (from 1) of the config, plain, kubelet-style.
func (h *harness) writePart(k int, part string) {
	h.t.Helper()
	if err := atomicwriter.Write(h.partDirs[k-1], map[string][]byte{"prometheus.yaml.gz": gzipBytes(h.t, part, gzip.BestSpeed)}); err != nil {
		h.t.Fatal(err)
	}
}

// await reads results until one satisfies pred.
func (h *harness) await(what string, pred func(reloader.Result) bool) reloader.Result {
	h.t.Helper()
	timeout := time.NewTimer(awaitTimeout)
	defer timeout.Stop()
	var seen []string
	for {
		select {
		case r := <-h.results:
			if pred(r) {
				return r
			}
			seen = append(seen, fmt.Sprintf("%s/%s %v", r.Cause, r.Action, r.Err))
		case <-timeout.C:
			h.t.Fatalf("no result %s within %s; saw %v\nprometheus log:\n%s", what, awaitTimeout, seen, h.prom.Log())
		}
	}
}

// awaitAction waits for a result with action a.
func (h *harness) awaitAction(a reloader.Action) reloader.Result {
	h.t.Helper()
	return h.await(string(a), func(r reloader.Result) bool { return r.Action == a })
}

// loaded is the config Prometheus has loaded.
func (h *harness) loaded() string {
	h.t.Helper()
	cfg, err := h.prom.LoadedConfig()
	if err != nil {
		h.t.Fatal(err)
	}
	return cfg
}

// requireMarker checks that Prometheus runs the config with marker.
func (h *harness) requireMarker(marker string) {
	h.t.Helper()
	if cfg := h.loaded(); !strings.Contains(cfg, "marker: "+marker+"\n") {
		h.t.Fatalf("prometheus does not run config %s:\n%s", marker, cfg)
	}
}

// metric sums the samples of the named metric.
func (h *harness) metric(name string) float64 {
	h.t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		h.t.Fatal(err)
	}
	var v float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			switch {
			case m.Counter != nil:
				v += m.Counter.GetValue()
			case m.Gauge != nil:
				v += m.Gauge.GetValue()
			case m.Histogram != nil:
				v += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return v
}

// configInfo returns the hash labels of reloader_config_info.
func (h *harness) configInfo() []string {
	h.t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		h.t.Fatal(err)
	}
	var hashes []string
	for _, mf := range mfs {
		if mf.GetName() != "reloader_config_info" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "hash" {
					hashes = append(hashes, l.GetValue())
				}
			}
		}
	}
	return hashes
}

// requireConfigInfo checks that reloader_config_info has exactly the hash of config.
func (h *harness) requireConfigInfo(config string) {
	h.t.Helper()
	if got := h.configInfo(); len(got) != 1 || got[0] != sha(config) {
		h.t.Fatalf("reloader_config_info hashes %v, want [%s]", got, sha(config))
	}
}

// reloadRequests is Prometheus's count of served /-/reload requests.
func (h *harness) reloadRequests() float64 {
	h.t.Helper()
	n, err := h.prom.ReloadRequests()
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}
