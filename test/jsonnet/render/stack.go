package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

const (
	// StackSource is the jsonnet file of the example stack.
	StackSource = "example/stack.jsonnet"
	// StackDir is where the rendered stack lives.
	StackDir = "example/stack"
	// Command regenerates StackDir.
	Command = "go run ./test/jsonnet/cmd/render-stack"
)

const header = "# Generated from " + StackSource + " by `" + Command + "`. DO NOT EDIT.\n"

// Stack renders StackSource: one YAML file per object, keyed by its path under StackDir
// (the object's key in the jsonnet output plus ".yaml").
func Stack(root string) (map[string][]byte, error) {
	var objects map[string]json.RawMessage
	if err := EvaluateInto(root, StackSource, &objects); err != nil {
		return nil, err
	}
	files := make(map[string][]byte, len(objects))
	for key, raw := range objects {
		if key == "" || strings.Contains(key, "..") || path.IsAbs(key) {
			return nil, fmt.Errorf("%s: invalid file key %q", StackSource, key)
		}
		y, err := yaml.JSONToYAML(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: converting %s to YAML: %w", StackSource, key, err)
		}
		files[key+".yaml"] = append([]byte(header), y...)
	}
	return files, nil
}

// OnDisk reads every YAML file under StackDir, keyed like Stack.
func OnDisk(root string) (map[string][]byte, error) {
	dir := filepath.Join(root, StackDir)
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return nil
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	return files, err
}

// Diff lists the files that differ between want and have: missing, extra or changed.
func Diff(want, have map[string][]byte) []string {
	var out []string
	for name, w := range want {
		h, ok := have[name]
		switch {
		case !ok:
			out = append(out, "missing: "+name)
		case !bytes.Equal(w, h):
			out = append(out, "changed: "+name)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			out = append(out, "extra: "+name)
		}
	}
	sort.Strings(out)
	return out
}

// Write replaces the YAML files under StackDir with files, and removes directories left
// empty.
func Write(root string, files map[string][]byte) error {
	old, err := OnDisk(root)
	if err != nil {
		return err
	}
	dir := filepath.Join(root, StackDir)
	for name := range old {
		if _, keep := files[name]; !keep {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, files[name]) {
			continue
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return removeEmptyDirs(dir)
}

func removeEmptyDirs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			sub := filepath.Join(dir, e.Name())
			if err := removeEmptyDirs(sub); err != nil {
				return err
			}
			if rest, err := os.ReadDir(sub); err == nil && len(rest) == 0 {
				if err := os.Remove(sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
