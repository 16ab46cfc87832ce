package goldentest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestOrphans(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"used.golden", "orphan.golden", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{filepath.Join(dir, "orphan.golden")}
	got, err := Orphans(dir, map[string]bool{"used": true})
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Orphans: %v %v, want %v", got, err, want)
	}
	for _, added := range []string{"used.golden", "used"} {
		r := NewRegistry()
		r.Add(added)
		got, err := r.Orphans(dir)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Registry after Add(%q): %v %v, want %v", added, got, err, want)
		}
	}
}
