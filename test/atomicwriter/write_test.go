package atomicwriter_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/lookout-operator/lookout/test/atomicwriter"
)

var tsDir = regexp.MustCompile(`^\.\.\d{4}(_\d{2}){5}\.\d+$`)

// TestKubeletLayout checks the directory against the kubelet's documented layout from the
// outside: one timestamped directory, ..data pointing at it, key links through ..data.
func TestKubeletLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for round, content := range []string{"one", "two"} {
		if err := atomicwriter.WriteStrings(dir, map[string]string{"k1": content, "k2": content + "!"}); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var ts []string
		for _, e := range entries {
			switch name := e.Name(); {
			case tsDir.MatchString(name):
				if !e.IsDir() {
					t.Fatalf("round %d: %s is not a directory", round, name)
				}
				ts = append(ts, name)
			case name == "..data", name == "k1", name == "k2":
				if e.Type()&os.ModeSymlink == 0 {
					t.Fatalf("round %d: %s is not a symlink", round, name)
				}
			default:
				t.Fatalf("round %d: unexpected entry %s", round, name)
			}
		}
		if len(ts) != 1 {
			t.Fatalf("round %d: want exactly one data directory, got %v", round, ts)
		}
		if target, _ := os.Readlink(filepath.Join(dir, "..data")); target != ts[0] {
			t.Fatalf("round %d: ..data -> %s, want %s", round, target, ts[0])
		}
		for _, k := range []string{"k1", "k2"} {
			if target, _ := os.Readlink(filepath.Join(dir, k)); target != "..data/"+k {
				t.Fatalf("round %d: %s -> %s", round, k, target)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "k2")); string(b) != content+"!" {
			t.Fatalf("round %d: k2 = %q", round, b)
		}
	}
}

// TestSwapEvents shows why watchers must watch the directory: an update produces
// create/rename/remove events on "..*" entries and none on the key names.
func TestSwapEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := atomicwriter.WriteStrings(dir, map[string]string{"cfg": "v1"}); err != nil {
		t.Fatal(err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	old, _ := os.Readlink(filepath.Join(dir, "..data"))
	if err := atomicwriter.WriteStrings(dir, map[string]string{"cfg": "v2"}); err != nil {
		t.Fatal(err)
	}
	// The last step of an update removes the previous data directory: wait for that event.
	var seen []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-w.Events:
			name := filepath.Base(ev.Name)
			seen = append(seen, ev.Op.String()+" "+name)
			if name == "cfg" {
				t.Fatalf("event on the key name itself: %v", seen)
			}
			if !strings.HasPrefix(name, "..") {
				t.Fatalf("event on a non-internal name: %v", seen)
			}
			if ev.Has(fsnotify.Remove) && name == old {
				joined := strings.Join(seen, ", ")
				for _, want := range []string{"CREATE ..data_tmp", "RENAME ..data_tmp", "CREATE ..data"} {
					if !strings.Contains(joined, want) {
						t.Fatalf("missing %q in %s", want, joined)
					}
				}
				return
			}
		case err := <-w.Errors:
			t.Fatal(err)
		case <-timeout:
			t.Fatalf("no removal of the old data directory within 10s; events: %v", seen)
		}
	}
}
