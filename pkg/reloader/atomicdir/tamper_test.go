package atomicdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The writer's directory may be shared with a container that can write into it (an
// emptyDir mounted read-write elsewhere). These tests plant links and files the writer
// did not create and check that it neither follows nor removes them.

// victim is a directory outside the projected one, with one file, that must survive.
func victim(t *testing.T) string {
	t.Helper()
	v := filepath.Join(t.TempDir(), "victim")
	if err := os.MkdirAll(filepath.Join(v, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"secret", "sub/nested"} {
		if err := os.WriteFile(filepath.Join(v, f), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

func requireIntact(t *testing.T, v string) {
	t.Helper()
	for _, f := range []string{"secret", "sub/nested"} {
		if b, err := os.ReadFile(filepath.Join(v, f)); err != nil || string(b) != "keep" {
			t.Fatalf("%s outside the directory was touched: %q, %v", f, b, err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// requirePublished checks that dir serves files through a data directory of the
// writer's own.
func requirePublished(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	target, err := os.Readlink(filepath.Join(dir, DataLink))
	if err != nil || !dataDirName.MatchString(target) {
		t.Fatalf("%s -> %q (%v), want a data directory", DataLink, target, err)
	}
	if st, err := os.Lstat(filepath.Join(dir, target)); err != nil || !st.IsDir() {
		t.Fatalf("%s is not a directory: %v", target, err)
	}
	for k, v := range files {
		if b, err := os.ReadFile(filepath.Join(dir, k)); err != nil || string(b) != v {
			t.Fatalf("%s = %q (%v), want %q", k, b, err, v)
		}
	}
}

func TestPlantedDataLinkOutsideIsNotFollowed(t *testing.T) {
	t.Parallel()
	for name, target := range map[string]func(v string) string{
		// dir is <root>/002/vol and v <root>/001/victim (t.TempDir numbers its
		// directories): "../../001/victim" leads from dir to v.
		"relative": func(v string) string { return filepath.Join("..", "..", filepath.Base(filepath.Dir(v)), "victim") },
		"absolute": func(v string) string { return v },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v := victim(t)
			dir := filepath.Join(t.TempDir(), "vol")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			symlink(t, target(v), filepath.Join(dir, DataLink))
			if _, err := os.Stat(filepath.Join(dir, DataLink, "secret")); err != nil {
				t.Fatalf("test setup: the planted link does not reach the victim: %v", err)
			}
			// The planted link makes "secret" and "sub" look published; a key link of
			// the writer's form for "secret" is planted too.
			symlink(t, filepath.Join(DataLink, "secret"), filepath.Join(dir, "secret"))
			changed, err := Write(dir, map[string][]byte{"a": []byte("A")})
			if err != nil || !changed {
				t.Fatalf("Write: changed %v, %v", changed, err)
			}
			requireIntact(t, v)
			requirePublished(t, dir, map[string]string{"a": "A"})
			if _, err := os.Lstat(filepath.Join(dir, "secret")); !os.IsNotExist(err) {
				t.Fatalf("stale key link kept: %v", err)
			}
			// A second write replaces the writer's own directory as usual.
			if _, err := Write(dir, map[string][]byte{"a": []byte("B")}); err != nil {
				t.Fatal(err)
			}
			requireIntact(t, v)
			requirePublished(t, dir, map[string]string{"a": "B"})
		})
	}
}

func TestPlantedDataLinkToLookalikeSymlink(t *testing.T) {
	t.Parallel()
	v := victim(t)
	dir := t.TempDir()
	// A name of the data directory pattern that is a symlink to the victim.
	lookalike := "..2020_01_02_03_04_05.1"
	symlink(t, v, filepath.Join(dir, lookalike))
	symlink(t, lookalike, filepath.Join(dir, DataLink))
	if _, err := Write(dir, map[string][]byte{"secret": []byte("new")}); err != nil {
		t.Fatal(err)
	}
	requireIntact(t, v)
	requirePublished(t, dir, map[string]string{"secret": "new"})
}

func TestPlantedDataLinkToOtherDirectoryInside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A directory of the user's inside the target directory, not of the pattern.
	if err := os.MkdirAll(filepath.Join(dir, "keepme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keepme", "f"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "keepme", filepath.Join(dir, DataLink))
	if _, err := Write(dir, map[string][]byte{"a": []byte("A")}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "keepme", "f")); err != nil || string(b) != "keep" {
		t.Fatalf("keepme/f = %q, %v", b, err)
	}
	requirePublished(t, dir, map[string]string{"a": "A"})
}

func TestDataLinkDirectoryIsAnError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, DataLink), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, DataLink, "f"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Write(dir, map[string][]byte{"a": []byte("A")})
	if err == nil || !strings.Contains(err.Error(), "not a symlink") {
		t.Fatalf("error %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, DataLink, "f")); err != nil || string(b) != "keep" {
		t.Fatalf("..data/f = %q, %v", b, err)
	}
	if names := listDir(t, dir); len(names) != 1 {
		t.Fatalf("left %v behind", names)
	}
}

func TestPlantedKeyLinkIsReplaced(t *testing.T) {
	t.Parallel()
	v := victim(t)
	dir := t.TempDir()
	mustWrite(t, Writer{}, dir, map[string][]byte{"secret": []byte("mine")})
	// Someone swaps the visible entry for a link to a file elsewhere.
	if err := os.Remove(filepath.Join(dir, "secret")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(v, "secret"), filepath.Join(dir, "secret"))
	if !mustWrite(t, Writer{}, dir, map[string][]byte{"secret": []byte("mine")}) {
		t.Fatal("replacing a planted key link reported no change")
	}
	requireIntact(t, v)
	requirePublished(t, dir, map[string]string{"secret": "mine"})
	if target, _ := os.Readlink(filepath.Join(dir, "secret")); target != filepath.Join(DataLink, "secret") {
		t.Fatalf("secret -> %q", target)
	}
	// A regular file in its place is replaced the same way.
	if err := os.Remove(filepath.Join(dir, "secret")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("planted"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, Writer{}, dir, map[string][]byte{"secret": []byte("mine")})
	requirePublished(t, dir, map[string]string{"secret": "mine"})
}

func TestKeyBlockedByDirectoryIsAnError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "f"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, map[string][]byte{"a": []byte("A")}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("error %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a", "f")); err != nil || string(b) != "keep" {
		t.Fatalf("a/f = %q, %v", b, err)
	}
}

func TestForeignEntriesAreLeftAlone(t *testing.T) {
	t.Parallel()
	v := victim(t)
	dir := t.TempDir()
	mustWrite(t, Writer{}, dir, map[string][]byte{"a": []byte("A"), "b": []byte("B")})
	// Not of the writer's form: a link elsewhere, a link through ..data under another
	// name, a file.
	symlink(t, v, filepath.Join(dir, "elsewhere"))
	symlink(t, filepath.Join(DataLink, "a"), filepath.Join(dir, "alias"))
	if err := os.WriteFile(filepath.Join(dir, "note"), []byte("n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, Writer{}, dir, map[string][]byte{"a": []byte("A2")})
	requireIntact(t, v)
	want := map[string]bool{"elsewhere": true, "alias": true, "note": true, "a": true}
	for _, n := range listDir(t, dir) {
		if strings.HasPrefix(n, "..") {
			continue
		}
		if !want[n] {
			t.Errorf("unexpected entry %s", n)
		}
		delete(want, n)
	}
	if len(want) > 0 {
		t.Errorf("removed %v", want)
	}
}

func TestSymlinkInsideDataDirectoryForcesRepublish(t *testing.T) {
	t.Parallel()
	v := victim(t)
	dir := t.TempDir()
	mustWrite(t, Writer{}, dir, map[string][]byte{"secret": []byte("keep"), "sub/nested": []byte("keep")})
	data, err := os.Readlink(filepath.Join(dir, DataLink))
	if err != nil {
		t.Fatal(err)
	}
	// Same content, but through links into the victim: the writer must not take them
	// for its files, and removing its old directory must not follow them.
	for _, f := range []string{"secret", "sub"} {
		p := filepath.Join(dir, data, f)
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		symlink(t, filepath.Join(v, f), p)
	}
	if !mustWrite(t, Writer{}, dir, map[string][]byte{"secret": []byte("keep"), "sub/nested": []byte("keep")}) {
		t.Fatal("a tampered data directory was taken as published")
	}
	requireIntact(t, v)
	if _, err := os.Lstat(filepath.Join(dir, data)); !os.IsNotExist(err) {
		t.Fatalf("tampered data directory kept: %v", err)
	}
	requirePublished(t, dir, map[string]string{"secret": "keep", "sub/nested": "keep"})
}
