package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Object is one decoded document together with where it came from.
type Object struct {
	*unstructured.Unstructured
	// Source names the file and document index, for error messages ("a.yaml#2").
	Source string
	// File is the file the document was read from ("<stdin>" for standard input) and
	// Line the 1-based line of its first content line there (0 when unknown).
	File string
	Line int
}

// Decode splits multi-document YAML and returns every non-empty document. Lists
// (kind: List or *List) are flattened into their items.
func Decode(data []byte, source string) ([]Object, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	starts := docLines(data)
	var out []Object
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s#%d: %w", source, i, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var m map[string]any
		if err := utilyaml.Unmarshal(doc, &m); err != nil {
			return nil, fmt.Errorf("%s#%d: %w", source, i, err)
		}
		if len(m) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		src := fmt.Sprintf("%s#%d", source, i)
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			return nil, fmt.Errorf("%s: document has no apiVersion or kind", src)
		}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", src, err)
			}
			for j := range list.Items {
				out = append(out, Object{Unstructured: &list.Items[j], Source: fmt.Sprintf("%s[%d]", src, j), File: source, Line: lineOf(starts, i)})
			}
			continue
		}
		out = append(out, Object{Unstructured: u, Source: src, File: source, Line: lineOf(starts, i)})
	}
}

// docLines returns, for each document of data in the order the YAML reader returns them
// (a run of lines between separators, empty or comment-only ones included), the 1-based
// line of its first line that is neither blank nor a comment (0: none). A separator is a
// line "---" alone or followed by whitespace or a comment, as the reader splits.
func docLines(data []byte) []int {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the reader's end of input, not a line
	}
	var out []int
	first, count := 0, 0
	for n, line := range lines {
		if rest, ok := bytes.CutPrefix(line, []byte("---")); ok {
			if t := bytes.TrimSpace(rest); len(t) == 0 || t[0] == '#' {
				if count > 0 {
					out = append(out, first)
				}
				first, count = 0, 0
				continue
			}
		}
		count++
		if t := bytes.TrimSpace(line); first == 0 && len(t) > 0 && t[0] != '#' {
			first = n + 1
		}
	}
	if count > 0 {
		out = append(out, first)
	}
	return out
}

// lineOf returns the line of document i (1-based) of starts, 0 when unknown.
func lineOf(starts []int, i int) int {
	if i-1 < len(starts) {
		return starts[i-1]
	}
	return 0
}

// ReadPaths reads every .yaml, .yml and .json file named, descending into directories
// (sorted, so the result is deterministic). "-" reads standard input.
func ReadPaths(paths ...string) ([]Object, error) {
	var out []Object
	for _, p := range paths {
		if p == "-" {
			data, err := io.ReadAll(os.Stdin)
			if err != nil {
				return nil, fmt.Errorf("reading standard input: %w", err)
			}
			objs, err := Decode(data, "<stdin>")
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
			continue
		}
		files, err := manifestFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			objs, err := Decode(data, f)
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
		}
	}
	return out, nil
}

// ReadFS reads every manifest file of an fs.FS (such as an embed.FS), sorted by path.
func ReadFS(fsys fs.FS) ([]Object, error) {
	var out []Object
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isManifest(p) {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		objs, err := Decode(data, p)
		if err != nil {
			return err
		}
		out = append(out, objs...)
		return nil
	})
	return out, err
}

func manifestFiles(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isManifest(f) {
			files = append(files, f)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}
