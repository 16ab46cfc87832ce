// Command crdextend adds what Lookout serves beyond the upstream API types to the CRDs
// controller-gen generates from them (make crds runs it on example/crds): printer columns
// for now. It edits the YAML as text, inserting lines only, so the CRD files keep
// controller-gen's layout and a rerun changes nothing.
//
//	go run ./hack/crdextend example/crds
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// column is an additional printer column of one CRD.
type column struct {
	Name, Type, JSONPath, Description string
	// Priority 0 shows the column in the standard view, 1 only with -o wide.
	Priority int
}

// extensions are the columns to add, by CRD file name (each part of Lookout that needs
// one registers it from its own file's init).
var extensions = map[string][]column{}

func addColumns(file string, cols ...column) { extensions[file] = append(extensions[file], cols...) }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: crdextend <directory of CRD files>")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "crdextend:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	files := make([]string, 0, len(extensions))
	for f := range extensions {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		path := filepath.Join(dir, f)
		in, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := extend(string(in), extensions[f])
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if out != string(in) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// Indentation of controller-gen's output: a version item of spec.versions starts with
// "  - ", its fields are indented by 4, a printer column's by 6.
const (
	versionColumnsLine = "  - additionalPrinterColumns:"
	versionFieldIndent = "    "
)

// extend adds cols to the printer columns of every version of the CRD text crd, at the
// end of each version's list; a column whose name the list has already is skipped.
func extend(crd string, cols []column) (string, error) {
	lines := strings.Split(crd, "\n")
	var out []string
	found := false
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if lines[i] != versionColumnsLine {
			continue
		}
		found = true
		// The list runs until the next field of the version item.
		j := i + 1
		for j < len(lines) && strings.HasPrefix(lines[j], versionFieldIndent+"  ") || j < len(lines) && strings.HasPrefix(lines[j], versionFieldIndent+"- ") {
			j++
		}
		block := lines[i+1 : j]
		out = append(out, block...)
		for _, c := range cols {
			if hasColumn(block, c.Name) {
				continue
			}
			out = append(out, c.lines()...)
		}
		i = j - 1
	}
	if !found {
		return "", fmt.Errorf("no %q line: not a CRD as controller-gen writes it", strings.TrimSpace(versionColumnsLine))
	}
	return strings.Join(out, "\n"), nil
}

func hasColumn(block []string, name string) bool {
	for _, l := range block {
		if t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")); t == "name: "+name {
			return true
		}
	}
	return false
}

// lines renders c as controller-gen does: keys sorted, the first after "- ".
func (c column) lines() []string {
	var kv []string
	if c.Description != "" {
		kv = append(kv, "description: "+c.Description)
	}
	kv = append(kv, "jsonPath: "+c.JSONPath, "name: "+c.Name)
	if c.Priority != 0 {
		kv = append(kv, fmt.Sprintf("priority: %d", c.Priority))
	}
	kv = append(kv, "type: "+c.Type)
	out := make([]string, len(kv))
	for i, s := range kv {
		prefix := versionFieldIndent + "  "
		if i == 0 {
			prefix = versionFieldIndent + "- "
		}
		out[i] = prefix + s
	}
	return out
}
