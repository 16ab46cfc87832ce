package lint

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestOutputGolden writes the findings over testdata/output in every format and
// compares with testdata/output/out.FORMAT.golden (go test -run OutputGolden -update
// rewrites them).
func TestOutputGolden(t *testing.T) {
	res, err := LintPaths([]string{"testdata/output/manifests.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 3 {
		t.Fatalf("%d findings, want 3 (one per severity): %+v", len(res.Findings), res.Findings)
	}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, format, res); err != nil {
				t.Fatal(err)
			}
			if format == "json" || format == "sarif" {
				var v any
				if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
					t.Fatalf("not JSON: %v", err)
				}
			}
			golden := filepath.Join("testdata/output", "out."+format+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s:\n%s", golden, buf.String())
			}
		})
	}
	if err := Write(&bytes.Buffer{}, "xml", res); err == nil {
		t.Error("an unknown format is no error")
	}
}

// TestSARIFRules checks the SARIF log's shape: every check that ran is a rule with its
// level, and every result points at its rule and its file and line.
func TestSARIFRules(t *testing.T) {
	res, err := LintPaths([]string{"testdata/output/manifests.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, "sarif", res); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(Checks()) {
		t.Errorf("%d rules, want %d", len(run.Tool.Driver.Rules), len(Checks()))
	}
	for _, r := range run.Results {
		rule := run.Tool.Driver.Rules[r.RuleIndex]
		if rule.ID != r.RuleID || rule.DefaultConfiguration.Level != r.Level {
			t.Errorf("result %s (%s) points at rule %s (%s)", r.RuleID, r.Level, rule.ID, rule.DefaultConfiguration.Level)
		}
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.Region == nil || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "testdata/output/manifests.yaml" {
			t.Errorf("result %s: locations %+v", r.RuleID, r.Locations)
		}
	}
}

func TestArtifactURI(t *testing.T) {
	for in, want := range map[string]string{"deploy/rules.yaml": "deploy/rules.yaml", "/src/deploy/a b.yaml": "file:///src/deploy/a%20b.yaml"} {
		if got := artifactURI(in); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", in, got, want)
		}
	}
}
