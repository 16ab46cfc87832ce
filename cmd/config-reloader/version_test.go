package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionStamped builds the binary the way make build does (-X on pkg/buildinfo) and
// checks that --version and --short-version report the stamped values, on stderr like
// upstream's kingpin-based reloader, with exit code 0.
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "config-reloader")
	const pkg = "github.com/lookout-operator/lookout/pkg/buildinfo"
	build := exec.Command("go", "build", "-ldflags",
		"-X "+pkg+".Version=0.1.0 -X "+pkg+".Commit=abc123 -X "+pkg+".Date=2026-12-01T10:00:00Z", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for flag, want := range map[string]*regexp.Regexp{
		"--version":       regexp.MustCompile(`^config-reloader, version 0\.1\.0 \(commit abc123, built 2026-12-01T10:00:00Z, go[0-9.]+\S*\)\n$`),
		"--short-version": regexp.MustCompile(`^0\.1\.0\n$`),
	} {
		var stdout, stderr strings.Builder
		cmd := exec.Command(bin, flag)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v", flag, err)
		}
		if stdout.Len() != 0 || !want.MatchString(stderr.String()) {
			t.Errorf("%s: stdout %q, stderr %q, want stderr matching %s", flag, stdout.String(), stderr.String(), want)
		}
	}
}
