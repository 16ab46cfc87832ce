package lint

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// noisyRule makes one rule-missing-for and one rule-missing-runbook finding.
var noisyRule = promRule("a", "r", "    - alert: A\n      expr: rate(x_total[5m]) > 1\n      annotations: {summary: s, description: d}\n")

func checksOf(res *Result) string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.Check)
	}
	return strings.Join(out, ",")
}

func TestSuppression(t *testing.T) {
	annotated := strings.Replace(noisyRule, "metadata: {name: r, namespace: a}", "metadata: {name: r, namespace: a, annotations: {lint.lookout.dev/disable: \"rule-missing-for, rule-record-name\"}}", 1)
	other := promRule("a", "other", "    - alert: B\n      expr: rate(x_total[5m]) > 1\n      annotations: {summary: s, description: d}\n")
	cases := []struct {
		name           string
		input          string
		want           string
		wantSuppressed int
	}{
		{"nothing switched off", noisyRule, "rule-missing-for,rule-missing-runbook", 0},
		{"file comment", "# lookout-lint: disable=rule-missing-for\n" + noisyRule, "rule-missing-runbook", 1},
		{"file comment, two checks", "  #lookout-lint: disable=rule-missing-for,rule-missing-runbook\n" + noisyRule, "", 2},
		{"file comment, all", "# lookout-lint: disable=all\n" + noisyRule, "", 2},
		{"a comment naming another check", "# lookout-lint: disable=rule-record-name\n" + noisyRule, "rule-missing-for,rule-missing-runbook", 0},
		{"annotation, this object only", docs(annotated, other), "rule-missing-runbook,rule-missing-for,rule-missing-runbook", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.input, "rule-missing-for", "rule-missing-runbook")
			if got := checksOf(res); got != c.want || res.Suppressed != c.wantSuppressed {
				t.Errorf("findings %q, %d suppressed; want %q, %d", got, res.Suppressed, c.want, c.wantSuppressed)
			}
		})
	}
}

func TestSelectChecks(t *testing.T) {
	all := len(Checks())
	cases := []struct {
		enable, disable []string
		want            int
		err             string
	}{
		{nil, nil, all, ""},
		{nil, []string{"rule-missing-for"}, all - 1, ""},
		{[]string{"rule-missing-for", "invalid"}, nil, 2, ""},
		{[]string{"rule-missing-for", "invalid"}, []string{"invalid"}, 1, ""},
		{nil, []string{"no-such-check"}, 0, `unknown check "no-such-check"`},
		{[]string{"no-such-check"}, nil, 0, `unknown check "no-such-check"`},
	}
	for _, c := range cases {
		got, err := selectChecks(c.enable, c.disable)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("enable %v disable %v: error %v, want %q", c.enable, c.disable, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != c.want {
			t.Errorf("enable %v disable %v: %d checks (%v), want %d", c.enable, c.disable, len(got), err, c.want)
		}
	}
}

func TestDisableByRun(t *testing.T) {
	objs, err := manifest.Decode([]byte(noisyRule), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Lint(objs, nil, Options{Disable: []string{"rule-missing-for"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := checksOf(res); got != "rule-missing-runbook" || len(res.Checks) != len(Checks())-1 {
		t.Errorf("findings %q of %d checks, want rule-missing-runbook of %d", got, len(res.Checks), len(Checks())-1)
	}
}
