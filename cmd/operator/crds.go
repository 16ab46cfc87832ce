package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"

	"github.com/lookout-operator/lookout/example"
)

// printCRDs writes every embedded CRD as one multi-document YAML stream.
func printCRDs(w io.Writer) int {
	files, err := fs.Glob(example.CRDs, "crds/*.yaml")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	sort.Strings(files)
	for i, f := range files {
		data, err := fs.ReadFile(example.CRDs, f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i > 0 {
			fmt.Fprintln(w, "---")
		}
		if _, err := w.Write(data); err != nil {
			return 1
		}
	}
	return 0
}
