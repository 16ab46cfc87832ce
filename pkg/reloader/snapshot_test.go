package reloader

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/reloader/atomicdir"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
)

func TestSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg", "prometheus.yaml.gz")
	rules := filepath.Join(dir, "rules")

	if _, err := takeSnapshot(cfg, nil, []string{rules}); !errors.Is(err, ErrInputMissing) {
		t.Fatalf("missing input: %v", err)
	}
	if _, err := atomicdir.Write(filepath.Dir(cfg), map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, "a: 1\n")}); err != nil {
		t.Fatal(err)
	}
	s1, err := takeSnapshot(cfg, nil, []string{rules})
	if err != nil {
		t.Fatal(err)
	}
	s1.close()
	if s1.configHash != confighash.Sum([]byte("a: 1\n")) {
		t.Fatalf("config hash %s", s1.configHash)
	}
	// Same decompressed content, other compression: same hashes.
	if _, err := atomicdir.Write(filepath.Dir(cfg), map[string][]byte{"prometheus.yaml.gz": []byte("a: 1\n")}); err != nil {
		t.Fatal(err)
	}
	s2, _ := takeSnapshot(cfg, nil, []string{rules})
	if s2.hash != s1.hash {
		t.Fatal("plain and gzipped forms of one config hash differently")
	}
	// The same with the config's directory watched too, as prometheus-operator's pods
	// ask; another file there counts.
	withDir := func() snapshot {
		s, err := takeSnapshot(cfg, nil, []string{rules, filepath.Dir(cfg) + "/"})
		if err != nil {
			t.Fatal(err)
		}
		s.close()
		return s
	}
	plainHash := withDir().hash
	if _, err := atomicdir.Write(filepath.Dir(cfg), map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, "a: 1\n")}); err != nil {
		t.Fatal(err)
	}
	if withDir().hash != plainHash {
		t.Fatal("with its directory watched, plain and gzipped forms of one config hash differently")
	}
	if _, err := atomicdir.Write(filepath.Dir(cfg), map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, "a: 1\n"), "other": []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if withDir().hash == plainHash {
		t.Fatal("another file in the config's directory does not count")
	}
	if _, err := atomicdir.Write(filepath.Dir(cfg), map[string][]byte{"prometheus.yaml.gz": []byte("a: 1\n")}); err != nil {
		t.Fatal(err)
	}
	// A rule file changes the tree hash, not the config hash.
	if _, err := atomicdir.Write(rules, map[string][]byte{"r.yaml": []byte("groups: []")}); err != nil {
		t.Fatal(err)
	}
	s3, _ := takeSnapshot(cfg, nil, []string{rules})
	if s3.hash == s2.hash || s3.configHash != s2.configHash {
		t.Fatal("rule change not reflected as expected")
	}
	// Internal kubelet entries, subdirectories and dangling links do not count.
	if err := os.Mkdir(filepath.Join(rules, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(rules, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rules, "..internal"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s4, _ := takeSnapshot(cfg, nil, []string{rules}); s4.hash != s3.hash {
		t.Fatal("ignored entries changed the hash")
	}
	// Moving a file between directories changes the hash.
	other := filepath.Join(dir, "other")
	if _, err := atomicdir.Write(other, map[string][]byte{"r.yaml": []byte("groups: []")}); err != nil {
		t.Fatal(err)
	}
	if _, err := atomicdir.Write(rules, map[string][]byte{}); err != nil {
		t.Fatal(err)
	}
	s5, _ := takeSnapshot(cfg, nil, []string{rules, other})
	s6, _ := takeSnapshot(cfg, nil, []string{other, rules})
	if s5.hash == s3.hash || s5.hash == s6.hash {
		t.Fatal("file location does not reach the hash")
	}
}

func TestSnapshotCorrupt(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "c.gz")
	if err := os.WriteFile(cfg, []byte{0x1f, 0x8b, 1, 2, 3}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := takeSnapshot(cfg, nil, nil); err == nil || errors.Is(err, ErrInputMissing) {
		t.Fatalf("corrupt input: %v", err)
	}
}
