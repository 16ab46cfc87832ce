package jsonnet

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-jsonnet"
	"github.com/google/go-jsonnet/linter"

	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

// jsonnetFiles lists every jsonnet and libsonnet file of the project, relative to root.
func jsonnetFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"jsonnet", "example"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".jsonnet") || strings.HasSuffix(p, ".libsonnet")) {
				rel, err := filepath.Rel(root, p)
				files = append(files, filepath.ToSlash(rel))
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 10 {
		t.Fatalf("found only %d jsonnet files: %v", len(files), files)
	}
	return files
}

// TestEveryFileCompiles parses every file, evaluates every .jsonnet file (the mixin's
// entry points and example/stack.jsonnet manifest everything the libraries define), and
// checks that every .libsonnet file is imported by one of them, so none escapes.
func TestEveryFileCompiles(t *testing.T) {
	root := repoRoot(t)
	files := jsonnetFiles(t, root)
	var entries []string
	for _, f := range files {
		code, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jsonnet.SnippetToAST(f, string(code)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if strings.HasSuffix(f, ".jsonnet") {
			entries = append(entries, filepath.Join(root, f))
			t.Run(f, func(t *testing.T) {
				out, err := render.EvaluateFile(root, f)
				if err != nil {
					t.Fatal(err)
				}
				if len(out) < 100 {
					t.Errorf("evaluates to almost nothing: %s", out)
				}
			})
		}
	}
	deps, err := render.VM(root).FindDependencies("", entries)
	if err != nil {
		t.Fatal(err)
	}
	imported := map[string]bool{}
	for _, d := range deps {
		imported[filepath.Clean(d)] = true
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".libsonnet") && !imported[filepath.Join(root, f)] {
			t.Errorf("%s is imported by no .jsonnet file, so nothing evaluates it", f)
		}
	}
}

// TestLint runs go-jsonnet's linter (unused variables, wrong argument counts, unknown
// fields of std, ...) over every file.
func TestLint(t *testing.T) {
	root := repoRoot(t)
	for _, f := range jsonnetFiles(t, root) {
		t.Run(f, func(t *testing.T) {
			code, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if linter.LintSnippet(render.VM(root), &out, []linter.Snippet{{FileName: filepath.Join(root, f), Code: string(code)}}) {
				t.Errorf("lint problems:\n%s", out.String())
			}
		})
	}
}
