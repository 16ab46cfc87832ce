package reloader

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.yaml")
	for _, content := range []string{"first", "second, longer content", ""} {
		if err := WriteFileAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != content {
			t.Fatalf("content %q, %v; want %q", b, err, content)
		}
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != outputMode {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestWriteFileAtomicMissingDir(t *testing.T) {
	t.Parallel()
	if err := WriteFileAtomic(filepath.Join(t.TempDir(), "nope", "out"), []byte("x")); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}
