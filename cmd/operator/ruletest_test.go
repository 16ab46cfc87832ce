package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ruletestData = "../../pkg/ruletest/testdata/"

func runTest(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = testCmd(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestRuleTestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"all pass", []string{ruletestData + "pass.yaml"}, 0},
		{"a test fails", []string{ruletestData + "pass.yaml", ruletestData + "fail.yaml"}, 1},
		{"enforced with --prometheus FILE", []string{"--prometheus", ruletestData + "prometheus.yaml", ruletestData + "enforced.yaml"}, 0},
		{"enforced with --prometheus NAME from -f, flags after the test file", []string{ruletestData + "enforced.yaml", "-f", ruletestData + "prometheus.yaml", "--prometheus", "monitoring/main"}, 0},
		{"without --prometheus the rules are tested as written", []string{"-f", ruletestData + "prometheus.yaml", ruletestData + "enforced.yaml"}, 1},
		{"rule_files names a PrometheusRule of -f", []string{"-f", ruletestData + "manifests", ruletestData + "named.yaml"}, 0},
		{"--run", []string{"--run", "^instance", ruletestData + "pass.yaml", ruletestData + "fail.yaml"}, 0},
		{"Documentation/rule-tests.md's example, enforced", []string{"--prometheus", ruletestData + "example/monitoring/prometheus.yaml", ruletestData + "example/rules/checkout_test.yaml"}, 0},
		{"Documentation/rule-tests.md's example, as written", []string{ruletestData + "example/rules/checkout_test.yaml"}, 1},
		{"broken test file", []string{ruletestData + "broken-yaml.yaml"}, 2},
		{"broken rule file", []string{ruletestData + "broken-rule.yaml"}, 2},
		{"no test file", nil, 2},
		{"unknown flag", []string{"--nope", ruletestData + "pass.yaml"}, 2},
		{"unknown Prometheus", []string{"--prometheus", "nope", ruletestData + "pass.yaml"}, 2},
		{"bad --run", []string{"--run", "(", ruletestData + "pass.yaml"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runTest(tc.args...)
			if code != tc.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.want, out, errs)
			}
		})
	}
}

func TestRuleTestVerboseNamesEachGroup(t *testing.T) {
	out, errs, code := runTest("-v", ruletestData+"pass.yaml", ruletestData+"fail.yaml")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, want := range []string{"  test group request rate: SUCCESS (", "  test group instance down: SUCCESS (", "  test group wrong expectations: FAILED ("} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRuleTestJUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	out, errs, code := runTest("--junit", path, ruletestData+"pass.yaml", ruletestData+"fail.yaml", ruletestData+"broken-yaml.yaml")
	if code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   int    `xml:"errors,attr"`
			Cases    []struct {
				Name     string `xml:"name,attr"`
				Failures []struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("JUnit XML does not parse: %v\n%s", err, b)
	}
	if doc.Tests != 4 || doc.Failures != 1 || doc.Errors != 1 || len(doc.Suites) != 3 {
		t.Fatalf("tests=%d failures=%d errors=%d suites=%d, want 4, 1, 1, 3\n%s", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites), b)
	}
	pass, fail, broken := doc.Suites[0], doc.Suites[1], doc.Suites[2]
	if pass.Tests != 2 || pass.Failures != 0 || pass.Cases[0].Name != "request rate" || pass.Cases[1].Name != "instance down" {
		t.Errorf("pass.yaml suite: %+v", pass)
	}
	if fail.Failures != 1 || len(fail.Cases) != 1 || len(fail.Cases[0].Failures) != 2 {
		t.Fatalf("fail.yaml suite: %+v", fail)
	}
	if f := fail.Cases[0].Failures[0]; f.Message != "alertname: TooManyErrors, time: 3m" || !strings.Contains(f.Text, `Labels:{alertname="TooManyErrors", severity="page"}`) {
		t.Errorf("failure: %+v", f)
	}
	if broken.Errors != 1 || broken.Cases[0].Error == nil || !strings.Contains(broken.Cases[0].Error.Message, "alert_rule_tests") {
		t.Errorf("broken-yaml.yaml suite: %+v", broken)
	}
}
