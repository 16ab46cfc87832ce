// Command crdextend adds Lookout's extensions to the CRDs controller-gen generates from
// upstream's API types (make crds runs it on example/crds): enum values and printer
// columns that upstream's markers do not have. The edits are textual and minimal, so the
// files keep controller-gen's layout and diff only where Lookout extends them, and
// running it twice changes nothing. Every extension lives in a file of its own and
// registers itself in extensions; each result is checked by decoding it as a CRD.
//
//	go run ./hack/crdextend example/crds
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// extension edits the CRD files whose names are in files (base names).
type extension struct {
	name  string
	files []string
	apply func(file string, crd []byte) ([]byte, error)
}

// extensions are registered by the init functions of this command's files.
var extensions []extension

// monitorCRDs are the files of the monitor kinds, whose bindings carry the pollers'
// conditions (TargetsHealthy, SampleCost).
var monitorCRDs = []string{
	"monitoring.coreos.com_servicemonitors.yaml",
	"monitoring.coreos.com_podmonitors.yaml",
	"monitoring.coreos.com_probes.yaml",
	"monitoring.coreos.com_scrapeconfigs.yaml",
}

// conditionExtension lets the bindings of files carry the condition type typ (upstream's
// enum holds "Accepted" only, so the API server would refuse it) and shows it in col.
func conditionExtension(name string, files []string, typ string, col column) extension {
	return extension{name: name, files: files, apply: func(_ string, crd []byte) ([]byte, error) {
		crd, err := addEnumValue(crd, "Accepted", typ)
		if err != nil {
			return nil, err
		}
		return addPrinterColumn(crd, col)
	}}
}

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

// run applies every extension to the files of dir, in the order of their names.
func run(dir string) error {
	exts := append([]extension(nil), extensions...)
	sort.Slice(exts, func(i, j int) bool { return exts[i].name < exts[j].name })
	for _, e := range exts {
		for _, f := range e.files {
			path := filepath.Join(dir, f)
			in, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("%s: %w", e.name, err)
			}
			out, err := e.apply(f, in)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", e.name, f, err)
			}
			if err := checkCRD(out); err != nil {
				return fmt.Errorf("%s: %s: the result is not a CRD: %w", e.name, f, err)
			}
			if string(out) != string(in) {
				if err := os.WriteFile(path, out, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
