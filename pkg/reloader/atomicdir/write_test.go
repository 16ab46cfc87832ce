package atomicdir

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

var tsName = regexp.MustCompile(`^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\d+$`)

// listDir returns the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func mustWrite(t *testing.T, w Writer, dir string, files map[string][]byte) bool {
	t.Helper()
	changed, err := w.Write(dir, files)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return changed
}

func TestWriteLayout(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "vol")
	fixed := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	w := Writer{Now: func() time.Time { return fixed }}
	if !mustWrite(t, w, dir, map[string][]byte{"a.yaml": []byte("A"), "sub/b": []byte("B")}) {
		t.Fatal("first write reported no change")
	}
	names := listDir(t, dir)
	// ..2026_03_04_05_06_07.N, ..data, a.yaml, sub
	if len(names) != 4 || !strings.HasPrefix(names[0], "..2026_03_04_05_06_07.") || !tsName.MatchString(names[0]) {
		t.Fatalf("unexpected layout %v", names)
	}
	if names[1] != DataLink || names[2] != "a.yaml" || names[3] != "sub" {
		t.Fatalf("unexpected layout %v", names)
	}
	if target, err := os.Readlink(filepath.Join(dir, DataLink)); err != nil || target != names[0] {
		t.Fatalf("..data -> %q (%v), want %q", target, err, names[0])
	}
	for _, k := range []string{"a.yaml", "sub"} {
		target, err := os.Readlink(filepath.Join(dir, k))
		if err != nil || target != filepath.Join(DataLink, k) {
			t.Fatalf("%s -> %q (%v)", k, target, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sub", "b")); err != nil || string(b) != "B" {
		t.Fatalf("sub/b = %q, %v", b, err)
	}
	st, err := os.Stat(filepath.Join(dir, "a.yaml"))
	if err != nil || st.Mode().Perm() != DefaultMode {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	if st, err := os.Stat(filepath.Join(dir, names[0])); err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("data dir mode %v, %v", st.Mode(), err)
	}
}

func TestWriteUpdateSwapsAndRemovesOld(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := Writer{}
	mustWrite(t, w, dir, map[string][]byte{"a": []byte("1"), "gone": []byte("x")})
	first, err := os.Readlink(filepath.Join(dir, DataLink))
	if err != nil {
		t.Fatal(err)
	}
	if !mustWrite(t, w, dir, map[string][]byte{"a": []byte("2"), "new": []byte("n")}) {
		t.Fatal("update reported no change")
	}
	second, err := os.Readlink(filepath.Join(dir, DataLink))
	if err != nil {
		t.Fatal(err)
	}
	if second == first {
		t.Fatal("..data not swapped")
	}
	if _, err := os.Lstat(filepath.Join(dir, first)); !os.IsNotExist(err) {
		t.Fatalf("old data directory still there: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "gone")); !os.IsNotExist(err) {
		t.Fatalf("stale key link still there: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, tmpDataLink)); !os.IsNotExist(err) {
		t.Fatalf("%s left behind: %v", tmpDataLink, err)
	}
	want := []string{second, DataLink, "a", "new"}
	sort.Strings(want)
	if got := listDir(t, dir); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("layout %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a")); string(b) != "2" {
		t.Fatalf("a = %q", b)
	}
}

func TestWriteUnchangedIsNoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string][]byte{"a": []byte("1")}
	mustWrite(t, Writer{}, dir, files)
	before, _ := os.Readlink(filepath.Join(dir, DataLink))
	if mustWrite(t, Writer{}, dir, files) {
		t.Fatal("identical payload reported a change")
	}
	after, _ := os.Readlink(filepath.Join(dir, DataLink))
	if before != after {
		t.Fatalf("identical payload swapped ..data: %s -> %s", before, after)
	}
}

func TestWriteRestoresMissingKeyLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string][]byte{"a": []byte("1")}
	mustWrite(t, Writer{}, dir, files)
	if err := os.Remove(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if !mustWrite(t, Writer{}, dir, files) {
		t.Fatal("restoring a link reported no change")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a")); err != nil || string(b) != "1" {
		t.Fatalf("a = %q, %v", b, err)
	}
}

func TestWriteEmptyPayload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWrite(t, Writer{}, dir, map[string][]byte{"a": []byte("1")})
	if !mustWrite(t, Writer{}, dir, map[string][]byte{}) {
		t.Fatal("emptying reported no change")
	}
	names := listDir(t, dir)
	if len(names) != 2 || names[1] != DataLink || !tsName.MatchString(names[0]) {
		t.Fatalf("layout after emptying %v", names)
	}
}

func TestWriteStaleTmpLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Symlink("nowhere", filepath.Join(dir, tmpDataLink)); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, Writer{}, dir, map[string][]byte{"a": []byte("1")})
	if b, err := os.ReadFile(filepath.Join(dir, "a")); err != nil || string(b) != "1" {
		t.Fatalf("a = %q, %v", b, err)
	}
}

func TestWriteCustomMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWrite(t, Writer{Mode: 0o600}, dir, map[string][]byte{"k": []byte("v")})
	st, err := os.Stat(filepath.Join(dir, "k"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
}
