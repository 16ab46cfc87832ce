package reloader

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/partset"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
)

// A config spread over parts is read as the parts one after the other, each gzipped or
// plain, and named by the hash of part 0, whose manifest line names every other part:
// the hash the operator computes (ADR 38).
func TestConfigPartsReadInOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	part1, part2 := "- job_name: b\n", "- job_name: c\n"
	head := withManifest("global:\n  scrape_interval: 30s\nscrape_configs:\n- job_name: a\n", part1, part2)
	files := map[string][]byte{
		"prometheus.yaml.gz": reloadertest.Gzip(t, head),
		"part-1.gz":          reloadertest.Gzip(t, part1),
		"part-2":             []byte(part2),
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "prometheus.yaml.gz")
	parts := []string{filepath.Join(dir, "part-1.gz"), filepath.Join(dir, "part-2")}
	s, err := takeSnapshot(cfg, parts, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	r, err := s.input.config()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if want := head + part1 + part2; err != nil || string(got) != want {
		t.Fatalf("read %q, %v; want %q", got, err, want)
	}
	if s.configHash != confighash.Sum([]byte(head)) {
		t.Errorf("config hash %s is not the name of part 0", s.configHash)
	}

	// The parts in the watched directory do not count a second time: recompressing a
	// part changes nothing.
	if err := os.WriteFile(parts[0], gzipFast(t, part1), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, err := takeSnapshot(cfg, parts, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.close()
	if s2.hash != s.hash {
		t.Error("a recompressed part changed the snapshot hash")
	}

	// A missing part is waited for like a missing config file.
	if err := os.Remove(parts[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := takeSnapshot(cfg, parts, nil); !errors.Is(err, ErrInputMissing) {
		t.Errorf("missing part: %v, want ErrInputMissing", err)
	}
}

// The size limit holds for the parts together, not for each one.
func TestConfigPartsLimitIsForTheWhole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, reloadertest.Gzip(t, "0123456789"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := openConfigInput(a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	in.limit = 15
	r, err := in.config()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); err == nil {
		t.Error("20 bytes in two parts read under a limit of 15")
	}
}

// The reloader renders the parts into one output and reloads once when one part
// changes; it renders only a complete set of one generation: a part 0 that names other
// parts than this pod reads (a part not synced yet, or a part count the pod's template
// does not have yet) is waited for and the last output stays.
func TestReloaderRendersParts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, part, out := filepath.Join(dir, "c.gz"), filepath.Join(dir, "p1.gz"), filepath.Join(t.TempDir(), "out.yaml")
	write := func(p, s string) {
		if err := os.WriteFile(p, reloadertest.Gzip(t, s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const head = "scrape_configs:\n- job_name: a-$(SHARD)\n"
	partV1, partV2 := "- job_name: b-$(SHARD)\n", "- job_name: b-$(SHARD)\n- job_name: c\n"
	write(cfg, withManifest(head, partV1))
	write(part, partV1)
	trig := &countingTrigger{}
	rl, err := New(Options{
		ConfigFile: cfg, ConfigPartFiles: []string{part}, ConfigOutFile: out, Trigger: trig,
		LookupEnv: func(k string) (string, bool) { return "3", k == "SHARD" },
	})
	if err != nil {
		t.Fatal(err)
	}
	// What Run sets up before its first check.
	rl.retry = time.NewTimer(time.Hour)
	rl.retry.Stop()
	rl.check(context.Background(), CauseStart)
	v1 := withManifest("scrape_configs:\n- job_name: a-3\n", partV1) + "- job_name: b-3\n"
	if got, _ := os.ReadFile(out); string(got) != v1 {
		t.Fatalf("output %q", got)
	}
	expectOutput := func(want string, reloads int, when string) {
		t.Helper()
		if got, _ := os.ReadFile(out); string(got) != want {
			t.Fatalf("%s: output %q, want %q", when, got, want)
		}
		if trig.n != reloads {
			t.Fatalf("%s: %d reloads, want %d", when, trig.n, reloads)
		}
	}

	// The part changes before part 0 names it: the old set is still complete and
	// served; the new part alone is not one generation.
	write(part, partV2)
	rl.check(context.Background(), CauseEvent)
	expectOutput(v1, 1, "new part, old part 0")
	write(cfg, withManifest(head, partV2))
	rl.check(context.Background(), CauseEvent)
	rl.check(context.Background(), CauseEvent)
	v2 := withManifest("scrape_configs:\n- job_name: a-3\n", partV2) + "- job_name: b-3\n- job_name: c\n"
	expectOutput(v2, 2, "complete set")

	// The config grows to three parts; this pod (reading two) keeps what it has.
	write(cfg, withManifest(head, partV2, "- job_name: d\n"))
	rl.check(context.Background(), CauseEvent)
	expectOutput(v2, 2, "config grew past this pod's parts")

	// The config shrinks to one part; this pod (still reading two) keeps what it has.
	write(cfg, head+"- job_name: b-$(SHARD)\n")
	rl.check(context.Background(), CauseEvent)
	expectOutput(v2, 2, "config shrank below this pod's parts")
}

// withManifest returns part 0 of a config whose further parts are parts: head after the
// manifest line that names them.
func withManifest(head string, parts ...string) string {
	var hashes []string
	for _, p := range parts {
		hashes = append(hashes, confighash.Sum([]byte(p)))
	}
	return string(partset.Line(hashes)) + head
}

// gzipFast compresses s at the fastest level: other bytes than reloadertest.Gzip's.
func gzipFast(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestSpeed)
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

type countingTrigger struct{ n int }

func (c *countingTrigger) Reload(context.Context) error { c.n++; return nil }
