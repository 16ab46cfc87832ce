package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/buildinfo"
)

// TestVersionCommand: "lookout-operator version" prints pkg/buildinfo's line, and
// --version the same in prometheus-operator's "NAME, version X" form.
func TestVersionCommand(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	code := dispatch([]string{"version"})
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	if code != 0 || string(out) != buildinfo.String()+"\n" || !strings.HasPrefix(string(out), "lookout-operator "+version) {
		t.Errorf("version: code %d, %q", code, out)
	}
	if got := versionFlagLine(); !strings.HasPrefix(got, "lookout-operator, version "+version) {
		t.Errorf("--version line %q", got)
	}
}
