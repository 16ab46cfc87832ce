package workload

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// goldenRegistry records the golden files a test run compared against or wrote.
type goldenRegistry struct {
	mu    sync.Mutex
	names map[string]bool
}

// goldensUsed is filled by golden; TestMain fails a complete run when testdata/ holds a
// golden file no test used.
var goldensUsed = &goldenRegistry{names: map[string]bool{}}

func (r *goldenRegistry) add(file string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[file] = true
}

// orphans lists the .golden files in dir that were not used.
func (r *goldenRegistry) orphans(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.golden"))
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, f := range files {
		if !r.names[filepath.Base(f)] {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out, nil
}

// ranEverything reports whether this run executed every test (no -run, -skip or -list),
// so that a golden file no test used belongs to no case.
func ranEverything() bool {
	for _, name := range []string{"test.run", "test.skip", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return true
}

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && ranEverything() {
		orphans, err := goldensUsed.orphans("testdata")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
		for _, f := range orphans {
			fmt.Fprintf(os.Stderr, "FAIL: %s belongs to no test case: delete it, or restore its case\n", f)
			code = 1
		}
	}
	os.Exit(code)
}

func TestGoldenRegistryOrphans(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"used.golden", "orphan.golden", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &goldenRegistry{names: map[string]bool{}}
	r.add("used.golden")
	got, err := r.orphans(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "orphan.golden")}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("orphans %v, want %v", got, want)
	}
}
