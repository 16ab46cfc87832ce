package render

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriteAndDiff writes a stack over an old one and checks that stale files and empty
// directories go, changed files are rewritten, and Diff then finds nothing.
func TestWriteAndDiff(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, StackDir)
	for name, content := range map[string]string{
		"setup/old.yaml": "old\n",
		"gone/x.yaml":    "x\n",
		"keep.yaml":      "stale\n",
		"notes.txt":      "not a manifest\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]byte{"keep.yaml": []byte("new\n"), "setup/new.yaml": []byte("n\n")}

	have, err := OnDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	got := Diff(want, have)
	wantDiff := []string{"changed: keep.yaml", "extra: gone/x.yaml", "extra: setup/old.yaml", "missing: setup/new.yaml"}
	if !slices.Equal(got, wantDiff) {
		t.Errorf("Diff = %v, want %v", got, wantDiff)
	}

	if err := Write(root, want); err != nil {
		t.Fatal(err)
	}
	have, err = OnDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(want, have); len(d) > 0 {
		t.Errorf("after Write: %v", d)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone")); !os.IsNotExist(err) {
		t.Errorf("empty directory gone/ was not removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("a file that is not YAML was touched: %v", err)
	}
}
