package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const lintData = "../../pkg/lint/testdata/output/manifests.yaml"

func runLint(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = lintCmd(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestLintExitCodes(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.yaml")
	if err := os.WriteFile(clean, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{clean}, 0},
		{"an error finding", []string{lintData}, 1},
		{"an error finding, with -f", []string{"-f", lintData}, 1},
		{"the error switched off", []string{"--disable", "monitor-timeout-exceeds-interval", lintData}, 0},
		{"warnings fail with --fail-on warning", []string{"--disable=monitor-timeout-exceeds-interval", "--fail-on", "warning", lintData}, 1},
		{"info only, --fail-on warning", []string{"--enable", "rule-missing-runbook", "--fail-on=warning", lintData}, 0},
		{"info only, --fail-on info", []string{"--enable", "rule-missing-runbook", "--fail-on=info", lintData}, 1},
		{"flags after the path", []string{lintData, "-o", "json", "--disable", "monitor-timeout-exceeds-interval"}, 0},
		{"no path", nil, 2},
		{"unknown flag", []string{"--nope", lintData}, 2},
		{"unknown check", []string{"--disable", "nope", lintData}, 2},
		{"unknown severity", []string{"--fail-on", "fatal", lintData}, 2},
		{"unknown output", []string{"-o", "xml", lintData}, 2},
		{"missing file", []string{filepath.Join(dir, "nope.yaml")}, 2},
		{"file that is not YAML", []string{broken}, 2},
		{"--list", []string{"--list"}, 0},
		{"-h", []string{"-h"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, stderr, code := runLint(tc.args...); code != tc.want {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.want, stderr)
			}
		})
	}
}

func TestLintDispatch(t *testing.T) {
	var out bytes.Buffer
	usage(&out)
	if !strings.Contains(out.String(), "\n  lint ") {
		t.Errorf("usage does not list lint:\n%s", out.String())
	}
	stdout, _, code := runLint("--list")
	if code != 0 || !strings.Contains(stdout, "rule-missing-for") {
		t.Errorf("--list: exit %d, %q", code, stdout)
	}
}
