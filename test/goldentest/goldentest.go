// Package goldentest holds what the golden-file tests of several packages share: finding
// golden files that belong to no test case (a renamed or removed case leaves one behind,
// and it would otherwise rot unnoticed).
package goldentest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Orphans lists, sorted, the .golden files in dir whose name without the extension is not
// in cases.
func Orphans(dir string, cases map[string]bool) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.golden"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if !cases[strings.TrimSuffix(filepath.Base(f), ".golden")] {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out, nil
}

// CheckCases fails t when two cases share a name, and reports every golden file in dir
// that belongs to none of them.
func CheckCases(t *testing.T, dir string, names []string) {
	t.Helper()
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			t.Fatalf("duplicate golden case %q", n)
		}
		seen[n] = true
	}
	orphans, err := Orphans(dir, seen)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range orphans {
		t.Errorf("%s belongs to no golden case: delete it, or restore its case", f)
	}
}

// FirstDiff shows the first line where got differs from want.
func FirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, w, g)
		}
	}
	return "(no line differs)"
}

// Registry records the golden files a test run compared against or wrote, for packages
// whose cases are spread over many tests. It is safe for concurrent use.
type Registry struct {
	mu    sync.Mutex
	cases map[string]bool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{cases: map[string]bool{}} }

// Add records one golden file, by its name with or without the .golden extension.
func (r *Registry) Add(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cases[strings.TrimSuffix(name, ".golden")] = true
}

// Orphans lists the .golden files in dir that no test added.
func (r *Registry) Orphans(dir string) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Orphans(dir, r.cases)
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

// Main runs the tests and, when they all ran and passed, fails the run for every golden
// file in dir that no test added to r. It returns the exit code for os.Exit.
func Main(m *testing.M, r *Registry, dir string) int {
	code := m.Run()
	if code != 0 || !ranEverything() {
		return code
	}
	orphans, err := r.Orphans(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, f := range orphans {
		fmt.Fprintf(os.Stderr, "FAIL: %s belongs to no test case: delete it, or restore its case\n", f)
		code = 1
	}
	return code
}
