package reloader_test

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/partset"
	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// The tests below run the reloader against a real Prometheus process.

func isReloaded(r reloader.Result) bool { return r.Action == reloader.ActionReloaded }

// TestStartAdoptsFirstLoadAndReportsHash: the first check finds that Prometheus loaded
// the current content when it started (every input older than the process), takes that
// load as its own without requesting another (ADR 39), and publishes its hash for the
// out-of-date alert.
func TestStartAdoptsFirstLoadAndReportsHash(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	r := h.awaitAction(reloader.ActionReloaded)
	if r.Cause != reloader.CauseStart {
		t.Fatalf("first reload caused by %s", r.Cause)
	}
	h.requireMarker("v1")
	h.requireConfigInfo(configYAML("v1", h.rulesDir))
	if got := h.metric("reloader_last_reload_successful"); got != 1 {
		t.Fatalf("reloader_last_reload_successful = %v", got)
	}
	if h.metric("reloader_last_reload_success_timestamp_seconds") < float64(time.Now().Add(-time.Minute).Unix()) {
		t.Fatal("success timestamp not set")
	}
	if h.metric("reloader_reloads_total") != 0 || h.reloadRequests() != 0 {
		t.Fatalf("%v reloads counted, %v served; want none", h.metric("reloader_reloads_total"), h.reloadRequests())
	}
	if h.metric("reloader_watches") != 2 {
		t.Fatalf("reloader_watches = %v, want 2", h.metric("reloader_watches"))
	}
}

// TestAtomicWriterSwap: config and rules updated the way the kubelet does it (only
// "..data" is swapped; no write event on the visible names) reach Prometheus.
func TestAtomicWriterSwap(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)

	v2 := configYAML("v2", h.rulesDir)
	h.writeConfig(gzipBytes(t, v2, gzip.BestSpeed))
	r := h.await("reload of v2", isReloaded)
	if r.Cause != reloader.CauseEvent || r.ConfigHash != sha(v2) {
		t.Fatalf("unexpected result %+v", r)
	}
	h.requireMarker("v2")
	h.requireConfigInfo(v2)
	out, err := os.ReadFile(h.outFile)
	if err != nil || string(out) != v2 {
		t.Fatalf("output %q, %v", out, err)
	}

	rules := "groups:\n- name: swapped-in\n  rules:\n  - record: one\n    expr: vector(1)\n"
	if err := atomicwriter.WriteStrings(h.rulesDir, map[string]string{"r.yaml": rules}); err != nil {
		t.Fatal(err)
	}
	r = h.await("reload of the rules", isReloaded)
	if r.ConfigHash != sha(v2) {
		t.Fatalf("config hash changed by a rule update: %+v", r)
	}
	if groups, err := h.prom.RuleGroups(); err != nil || !slices.Equal(groups, []string{"swapped-in"}) {
		t.Fatalf("rule groups %v, %v", groups, err)
	}
	// Removing the rule file (the kubelet drops the key) is a change too.
	if err := atomicwriter.Write(h.rulesDir, map[string][]byte{}); err != nil {
		t.Fatal(err)
	}
	h.await("reload without the rules", isReloaded)
	if groups, err := h.prom.RuleGroups(); err != nil || len(groups) != 0 {
		t.Fatalf("rule groups %v, %v", groups, err)
	}
}

// TestPlainWrite: an in-place write (no symlinks) triggers a reload as well.
func TestPlainWrite(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)
	plain := filepath.Join(h.rulesDir, "plain.yaml")
	if err := os.WriteFile(plain, []byte("groups:\n- name: plain\n  rules:\n  - record: two\n    expr: vector(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.await("reload after a plain write", isReloaded)
	if groups, err := h.prom.RuleGroups(); err != nil || !slices.Equal(groups, []string{"plain"}) {
		t.Fatalf("rule groups %v, %v", groups, err)
	}
}

// TestUnchangedContentNoReload: events whose content hashes the same (a rewrite of the
// same bytes, the same config compressed differently) cause no reload request.
func TestUnchangedContentNoReload(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)
	before := h.reloadRequests()
	if before != 0 {
		t.Fatalf("prometheus served %v reload requests, want none (its first load is taken)", before)
	}
	out, _ := os.ReadFile(h.outFile)
	outInfo, _ := os.Stat(h.outFile)

	// Same config, other compression level: other bytes, same content.
	h.writeConfig(gzipBytes(t, configYAML("v1", h.rulesDir), gzip.BestCompression))
	r := h.await("check after recompression", func(r reloader.Result) bool { return r.Cause == reloader.CauseEvent })
	if r.Action != reloader.ActionUnchanged {
		t.Fatalf("recompressed config: %+v", r)
	}
	// A rule file rewritten with its own bytes.
	if err := os.WriteFile(filepath.Join(h.rulesDir, "same.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.await("reload with the new empty file", isReloaded)
	if err := os.WriteFile(filepath.Join(h.rulesDir, "same.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r = h.await("check after rewrite", func(r reloader.Result) bool { return r.Cause == reloader.CauseEvent })
	if r.Action != reloader.ActionUnchanged {
		t.Fatalf("rewritten file: %+v", r)
	}
	if got := h.reloadRequests(); got != before+1 {
		t.Fatalf("prometheus served %v reload requests, want %v", got, before+1)
	}
	if h.metric("reloader_reloads_total") != 1 {
		t.Fatalf("reloader_reloads_total = %v", h.metric("reloader_reloads_total"))
	}
	// The output was not rewritten either.
	st, _ := os.Stat(h.outFile)
	if again, _ := os.ReadFile(h.outFile); string(again) != string(out) || !os.SameFile(st, outInfo) {
		t.Fatal("unchanged config rewrote the output")
	}
}

// TestInvalidConfigKeepsOld: Prometheus rejects an invalid config and keeps the old one;
// the reloader reports the failure, retries, and applies the next valid config, even when
// that is the very config loaded before (whose hash did not change).
func TestInvalidConfigKeepsOld(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)
	v1 := configYAML("v1", h.rulesDir)

	h.writeConfig(gzipBytes(t, "global:\n  scrape_interval: not-a-duration\n", gzip.DefaultCompression))
	r := h.awaitAction(reloader.ActionFailed)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "failed to reload config") {
		t.Fatalf("failure not from Prometheus: %v", r.Err)
	}
	h.requireMarker("v1")
	h.requireConfigInfo(v1)
	if h.metric("reloader_last_reload_successful") != 0 || h.metric("reloader_reloads_failed_total") < 1 ||
		h.metric("reloader_config_apply_operations_failed_total") < 1 {
		t.Fatal("failure not reported in metrics")
	}
	// It is retried with backoff, not once per event only.
	h.await("a retry", func(r reloader.Result) bool {
		return r.Cause == reloader.CauseRetry && r.Action == reloader.ActionFailed
	})

	// Back to the old content: same hash as the last loaded config, applied anyway.
	h.writeConfig(gzipBytes(t, v1, gzip.DefaultCompression))
	r = h.await("reload of v1 again", isReloaded)
	if r.ConfigHash != sha(v1) {
		t.Fatalf("unexpected result %+v", r)
	}
	h.requireMarker("v1")

	h.writeConfig(gzipBytes(t, "global: [broken", gzip.DefaultCompression))
	h.awaitAction(reloader.ActionFailed)
	v3 := configYAML("v3", h.rulesDir)
	h.writeConfig(gzipBytes(t, v3, gzip.DefaultCompression))
	h.await("reload of v3", isReloaded)
	h.requireMarker("v3")
	h.requireConfigInfo(v3)
	if h.metric("reloader_last_reload_successful") != 1 {
		t.Fatal("success not reported")
	}
}

// TestPrometheusRestart: while Prometheus is down reloads fail and are retried with
// backoff; once it is back the pending config is confirmed.
func TestPrometheusRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)
	h.prom.Stop()

	v2 := configYAML("v2", h.rulesDir)
	h.writeConfig(gzipBytes(t, v2, gzip.DefaultCompression))
	first := h.awaitAction(reloader.ActionFailed)
	if !strings.Contains(first.Err.Error(), "connection refused") {
		t.Fatalf("unexpected failure %v", first.Err)
	}
	// Retries back off: 50ms, 100ms, 200ms, ... (RetryInterval is 50ms).
	var retries []time.Time
	for len(retries) < 3 {
		r := h.await("a retry", func(r reloader.Result) bool { return r.Cause == reloader.CauseRetry })
		retries = append(retries, r.Started)
	}
	if gap := retries[2].Sub(retries[1]); gap < 150*time.Millisecond {
		t.Fatalf("retries not backing off: %s between the 2nd and 3rd", gap)
	}

	h.prom.Restart()
	h.await("reload after the restart", isReloaded)
	h.requireMarker("v2")
	h.requireConfigInfo(v2)
}

// TestEnvExpansion: $(VAR) references are expanded from the environment; unset ones are
// left as they are and counted; the reported hash is the one before expansion.
func TestEnvExpansion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)
	cfg := "global:\n  external_labels:\n    replica: $(POD_NAME)\n    shard: $(SHARD)\n    other: $(NOT_SET_ANYWHERE)\n"
	h.writeConfig(gzipBytes(t, cfg, gzip.DefaultCompression))
	r := h.await("reload", isReloaded)
	if !slices.Equal(r.UnsetVars, []string{"NOT_SET_ANYWHERE"}) {
		t.Fatalf("unset vars %v", r.UnsetVars)
	}
	loaded := h.loaded()
	for _, want := range []string{"replica: prometheus-k8s-0\n", "shard: \"0\"\n", "other: $(NOT_SET_ANYWHERE)\n"} {
		if !strings.Contains(loaded, want) {
			t.Fatalf("loaded config lacks %q:\n%s", want, loaded)
		}
	}
	if h.metric("reloader_unset_env_vars_total") != 1 {
		t.Fatalf("reloader_unset_env_vars_total = %v", h.metric("reloader_unset_env_vars_total"))
	}
	if v := h.metric("reloader_config_environment_variable_expansion_errors"); v != 1 {
		t.Fatalf("reloader_config_environment_variable_expansion_errors = %v", v)
	}
	h.requireConfigInfo(cfg)
}

// TestCorruptGzipKeepsOutput: a corrupt archive is reported and leaves the output and
// Prometheus alone; the next valid config is applied.
func TestCorruptGzipKeepsOutput(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	h.awaitAction(reloader.ActionReloaded)
	before, _ := os.ReadFile(h.outFile)
	requests := h.reloadRequests()

	good := gzipBytes(t, configYAML("v2", h.rulesDir), gzip.DefaultCompression)
	h.writeConfig(good[:len(good)/2])
	r := h.awaitAction(reloader.ActionFailed)
	if !strings.Contains(r.Err.Error(), "gunzip") {
		t.Fatalf("unclear error %v", r.Err)
	}
	if after, _ := os.ReadFile(h.outFile); string(after) != string(before) {
		t.Fatal("corrupt input changed the output")
	}
	if h.reloadRequests() != requests {
		t.Fatal("corrupt input caused a reload request")
	}
	if h.metric("reloader_config_apply_operations_failed_total") != 1 {
		t.Fatal("failure not counted")
	}
	h.requireMarker("v1")

	h.writeConfig(good)
	h.await("reload of v2", isReloaded)
	h.requireMarker("v2")
}

// TestMissingInputWaits: a config file that does not exist yet (not even its directory)
// is waited for and applied when it appears.
func TestMissingInputWaits(t *testing.T) {
	t.Parallel()
	var missing string
	h := newHarness(t, harnessOptions{modify: func(o *reloader.Options) {
		missing = filepath.Join(filepath.Dir(filepath.Dir(o.ConfigFile)), "later", "deeper", "prometheus.yaml.gz")
		o.ConfigFile = missing
	}})
	h.awaitAction(reloader.ActionWaiting)
	v2 := configYAML("v2", h.rulesDir)
	if err := atomicwriter.Write(filepath.Dir(missing), map[string][]byte{
		"prometheus.yaml.gz": gzipBytes(t, v2, gzip.DefaultCompression)}); err != nil {
		t.Fatal(err)
	}
	r := h.await("reload of the late config", isReloaded)
	if r.Cause != reloader.CauseEvent {
		t.Fatalf("picked up by %s, not by the file event", r.Cause)
	}
	h.requireMarker("v2")
}

// TestPeriodicCheck: with a debounce far longer than the watch interval, the periodic
// check alone applies a change.
func TestPeriodicCheck(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{modify: func(o *reloader.Options) {
		o.WatchInterval = 100 * time.Millisecond
		o.DelayInterval = time.Hour
	}})
	h.awaitAction(reloader.ActionReloaded)
	h.writeConfig(gzipBytes(t, configYAML("v2", h.rulesDir), gzip.DefaultCompression))
	r := h.await("reload", isReloaded)
	if r.Cause != reloader.CausePeriodic {
		t.Fatalf("cause %s", r.Cause)
	}
	h.requireMarker("v2")
}

// TestSignalMethod: SIGHUP to the process by name, confirmed through runtimeinfo.
func TestSignalMethod(t *testing.T) {
	t.Parallel()
	bin, err := reloadertest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	// A name of its own, so parallel tests' Prometheus processes are not signalled.
	name := "promsig-" + filepath.Base(t.TempDir())
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOptions{
		prom: reloadertest.Options{Binary: link},
		trigger: func(p *reloadertest.Prometheus) reloader.Trigger {
			return &reloader.SignalTrigger{ProcessName: name, RuntimeInfoURL: p.RuntimeInfoURL()}
		},
	})
	h.awaitAction(reloader.ActionReloaded)
	h.writeConfig(gzipBytes(t, configYAML("v2", h.rulesDir), gzip.DefaultCompression))
	h.await("reload of v2", isReloaded)
	h.requireMarker("v2")
	if h.reloadRequests() != 0 {
		t.Fatal("signal mode used the HTTP endpoint")
	}
	h.writeConfig(gzipBytes(t, "global: [broken", gzip.DefaultCompression))
	r := h.awaitAction(reloader.ActionFailed)
	if !strings.Contains(r.Err.Error(), "reload failed") {
		t.Fatalf("unexpected failure %v", r.Err)
	}
	h.requireMarker("v2")
}

// TestPartCountChangeKeepsCompleteSet: a config spread over parts grows from two parts to
// three while this pod (its template older than the config) still reads two. Prometheus
// keeps the last complete set instead of loading part 0 and 1 of the new three (which
// would drop the jobs of part 2), and loads the next complete set the pod can read.
func TestPartCountChangeKeepsCompleteSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules")
	head := func(marker string) string {
		return configYAML(marker, rules) + "scrape_configs:\n- job_name: a\n"
	}
	manifest := func(parts ...string) string {
		var hashes []string
		for _, p := range parts {
			hashes = append(hashes, sha(p))
		}
		return string(partset.Line(hashes))
	}
	b, c, d := "- job_name: b\n", "- job_name: c\n", "- job_name: d\n"
	h := newHarness(t, harnessOptions{initial: manifest(b) + head("v1"), parts: []string{b}})
	h.awaitAction(reloader.ActionReloaded)
	h.requireMarker("v1")

	// The operator writes the new parts, part 0 last; this pod has only two of three.
	h.writePart(1, c)
	h.writeConfig(gzipBytes(t, manifest(c, d)+head("v2"), gzip.BestSpeed))
	r := h.awaitAction(reloader.ActionWaiting)
	if r.Err != nil {
		t.Fatalf("waiting with an error: %v", r.Err)
	}
	h.requireMarker("v1")
	if loaded := h.loaded(); !strings.Contains(loaded, "job_name: b") {
		t.Fatalf("the running config lost its jobs while waiting:\n%s", loaded)
	}

	// Back to a set this pod can read: it is loaded.
	h.writeConfig(gzipBytes(t, manifest(c)+head("v3"), gzip.BestSpeed))
	h.await("reload of the complete set", isReloaded)
	h.requireMarker("v3")
	if loaded := h.loaded(); !strings.Contains(loaded, "job_name: c") || strings.Contains(loaded, "job_name: b") {
		t.Fatalf("loaded config is not the complete set v3:\n%s", loaded)
	}
}
