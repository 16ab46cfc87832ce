package promcfg

import (
	"bytes"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/relabel"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// TestFileCheckJobs: a monitor's jobs are loaded byte for byte, after the reloader's
// substitutions, under the global section. These jobs are built with the operator's own
// rule builders from the inputs that used to pass as trusted and broke the whole file.
func TestFileCheckJobs(t *testing.T) {
	job := func(name string, rules ...M) []byte {
		return EncodeListItem(M{{"job_name", name}, {"static_configs", []M{{{"targets", []string{"a:80"}}}}}, {"relabel_configs", rules}})
	}
	labelled := func(label string) []byte {
		return EncodeListItem(M{{"job_name", "j"}, {"static_configs", []M{{{"targets", []string{"a:80"}}, {"labels", M{{label, "x"}}}}}}})
	}
	utf8Global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	legacyGlobal := Encode(M{{"global", M{{"scrape_interval", "30s"}, {"metric_name_validation_scheme", "legacy"}}}})
	env := map[string]string{"SHARD": "0", "POD_NAME": "prometheus-k8s-0"}
	for _, c := range []struct {
		name   string
		global []byte
		legacy bool // a 2.x Prometheus allowing only legacy names
		text   []byte
		names  []string
		want   string // "" for accepted
	}{
		{"copied empty label", utf8Global, false, job("j", copyLabel("__meta_kubernetes_service_label_", "")), []string{"j"},
			"relabel configuration for replace action requires 'target_label' value"},
		{"copied label starting with a digit, legacy names", legacyGlobal, false, job("j", copyLabel("__meta_kubernetes_pod_label_", "1abc")), []string{"j"},
			`"1abc" is invalid 'target_label' for replace action`},
		{"copied label starting with a digit, UTF-8 names", utf8Global, false, job("j", copyLabel("__meta_kubernetes_pod_label_", "1abc")), []string{"j"}, ""},
		{"shard placeholder expanded", utf8Global, false, job("j", relabelRule{SourceLabels: []string{"__tmp_hash"}, Regex: ShardEnvVar + ";|.+;.+", Action: "keep"}.yaml()), []string{"j"}, ""},
		{"an invalid value behind a reference", utf8Global, false, job("j", relabelRule{SourceLabels: []string{"a"}, Regex: "$(SHARD)(", Action: "keep"}.yaml()), []string{"j"},
			"error parsing regexp"},
		{"two jobs", utf8Global, false, append(job("a"), job("b")...), []string{"a", "b"}, ""},
		{"a job more than named", utf8Global, false, append(job("a"), job("b")...), []string{"a"}, "2 loaded"},
		{"a job named otherwise", utf8Global, false, job("a"), []string{"b"}, `job "b" rendered, "a" loaded`},
		{"a line outside the list", utf8Global, false, append(job("a"), "remote_write: []\n"...), []string{"a"}, "not a list of scrape configs"},
		{"no final newline", utf8Global, false, []byte(strings.TrimSuffix(string(job("a")), "\n")), []string{"a"}, "not a list of scrape configs"},
		// Prometheus 2.x: legacy names for relabel rules and static labels alike.
		{"relabel target with a dot on 2.x", utf8Global, true, job("j", relabelRule{TargetLabel: "team.name", Replacement: strp("a")}.yaml()), []string{"j"},
			`"team.name" is invalid 'target_label' for replace action`},
		{"static label with a dot on 2.x", utf8Global, true, labelled("team.name"), []string{"j"},
			`label names ["team.name"] are not valid for a Prometheus that allows only legacy names`},
		{"static label with a dot on 3.x", utf8Global, false, labelled("team.name"), []string{"j"}, ""},
		{"legacy static label on 2.x", utf8Global, true, labelled("team_name"), []string{"j"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := newFileCheck(newLoader(), env, c.legacy, c.global).jobs([][]byte{c.text}, [][]string{c.names}, false)
			// With the known regexes elided, only the verdict counts, and it is the same.
			check := newFileCheck(newLoader(), env, c.legacy, c.global)
			for range 2 { // the second time, every regex that compiles is known
				if elided := check.jobs([][]byte{c.text}, [][]string{c.names}, true); (elided == nil) != (err == nil) {
					t.Errorf("with regexes elided: %v; as written: %v", elided, err)
				}
			}
			switch {
			case c.want == "" && err != nil:
				t.Errorf("rejected: %v", err)
			case c.want != "" && err == nil:
				t.Errorf("accepted, want an error containing %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Errorf("error %q, want one containing %q", err, c.want)
			}
		})
	}
}

// TestFileCheckHeaderBeginsWithGlobal: monitors are loaded under the global section the
// header begins with; a header that does not is refused.
func TestFileCheckHeaderBeginsWithGlobal(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	c := newFileCheck(newLoader(), nil, false, global)
	if err := c.header(append(append([]byte(nil), global...), "rule_files: []\n"...), global, nil); err != nil {
		t.Errorf("header refused: %v", err)
	}
	other := Encode(M{{"global", M{{"scrape_interval", "10s"}}}})
	if err := c.header(other, global, nil); err == nil {
		t.Error("a header with another global section was accepted")
	}
}

// TestEnvRefsMatchReloader: the check substitutes exactly what the config-reloader does.
func TestEnvRefsMatchReloader(t *testing.T) {
	env := map[string]string{"POD_NAME": "prometheus-k8s-0", "SHARD": "1", "EMPTY": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, in := range []string{
		"", "plain", "$(POD_NAME)", "a $(SHARD) b $(NOPE) c", "$1 ${1} $POD_NAME ${POD_NAME}", "$() $(A-B) $(POD_NAME",
		"$$(SHARD)", "x$(EMPTY)y", "$(lower_case9)", "$(SHARD)$(SHARD)", "\"$(POD_NAME)\"",
	} {
		want, _ := reloader.Expand([]byte(in), lookup)
		if got := expandAsReloader([]byte(in), env); string(got) != string(want) {
			t.Errorf("%q: the check expands to %q, the reloader to %q", in, got, want)
		}
	}
}

// TestReloaderContainerNames: the env entries the owner declares are read from the
// containers pkg/workload builds.
func TestReloaderContainerNames(t *testing.T) {
	if reloaderContainerName != workload.ReloaderContainerName || reloaderInitContainerName != workload.ReloaderInitName {
		t.Errorf("promcfg reads env from %q and %q, the pod has %q and %q", reloaderContainerName, reloaderInitContainerName,
			workload.ReloaderContainerName, workload.ReloaderInitName)
	}
	env := reloaderEnv(promserver.Of(&monitoringv1.Prometheus{}))
	if _, ok := env[workload.PodNameEnv]; !ok {
		t.Errorf("%s is not allowed", workload.PodNameEnv)
	}
	if _, ok := env[workload.ShardEnv]; !ok {
		t.Errorf("%s is not allowed", workload.ShardEnv)
	}
}

// TestElideKnownRegexes: the regex values of a job's relabel rules that compile are
// replaced by "", whether the key opens the rule or not and in both rule lists; an
// invalid one, a value already empty and keys named regex elsewhere stay as written.
func TestElideKnownRegexes(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	doc := []byte(`- job_name: a
  params:
    regex:
    - "(x)"
  static_configs:
  - targets:
    - a:80
    labels:
      regex: "(.*)"
  relabel_configs:
  - source_labels:
    - job
    regex: "(app);true"
    action: keep
  - regex: Node;(.*)
    action: labeldrop
  - source_labels:
    - a
    regex: "(unclosed"
    action: keep
  - regex: ""
    action: labelkeep
  metric_relabel_configs:
  - source_labels:
    - __name__
    regex: go_.*
    action: drop
  scheme: http
- job_name: b
  relabel_configs:
  - target_label: x
    replacement: y
  honor_labels: true
  regex: "(y)"
  tls_config:
    regex: "(z)"
`)
	want := strings.NewReplacer(
		`    regex: "(app);true"`, `    regex: ""`,
		`  - regex: Node;(.*)`, `  - regex: ""`,
		`    regex: go_.*`, `    regex: ""`,
	).Replace(string(doc))
	orig := string(doc)
	c := newFileCheck(newLoader(), map[string]string{"SHARD": "0"}, false, global)
	if got := string(c.elideKnownRegexes(doc)); got != want {
		t.Errorf("elided:\n%s\nwant:\n%s", got, want)
	}
	if string(doc) != orig {
		t.Error("the text given was changed")
	}
	if got := c.elideKnownRegexes([]byte("- job_name: c\n  scheme: http\n")); string(got) != "- job_name: c\n  scheme: http\n" {
		t.Errorf("a text without rules came back as %q", got)
	}
}

// TestElidedRegexStaysSet: a rule whose action allows no regex is refused with its
// regex elided as it is as written, because "" is a regex set, not the default.
func TestElidedRegexStaysSet(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	text := EncodeListItem(M{{"job_name", "j"}, {"static_configs", []M{{{"targets", []string{"a:80"}}}}},
		{"relabel_configs", []M{{{"source_labels", []string{"a"}}, {"target_label", "b"}, {"regex", "(.*)"}, {"action", "keepequal"}}}}})
	c := newFileCheck(newLoader(), nil, false, global)
	if !bytes.Contains(c.elideKnownRegexes(append(append([]byte(nil), global...), text...)), []byte(`regex: ""`)) {
		t.Fatal("the regex was not elided")
	}
	if err := c.jobs([][]byte{text}, [][]string{{"j"}}, true); err == nil || !strings.Contains(err.Error(), "keepequal action requires only") {
		t.Errorf("with the regex elided: %v, want keepequal's refusal", err)
	}
}

// TestNoElisionBehindUnsafeValues: when a value the reloader substitutes could change the
// lines of the text (a quote, a line break, a block indicator), nothing is elided.
func TestNoElisionBehindUnsafeValues(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	for v, safe := range map[string]bool{"0": true, "prometheus-k8s-0": true, "node_1.a": true,
		`"`: false, "a\nb": false, "|": false, "[": false, "'": false, `\`: false, "a b": false, "#": false} {
		c := newFileCheck(newLoader(), map[string]string{"SHARD": "0", "V": v}, false, global)
		if c.elide != safe {
			t.Errorf("value %q: elision %v, want %v", v, c.elide, safe)
		}
	}
}

// TestRelabelValidateReadsNoRegex guards ADR 25's premise against a new Prometheus
// release: for every action, Config.Validate judges a rule with the regex "" as it
// judges the same rule with another regex that compiles.
func TestRelabelValidateReadsNoRegex(t *testing.T) {
	actions := []relabel.Action{relabel.Replace, relabel.Keep, relabel.Drop, relabel.KeepEqual, relabel.DropEqual,
		relabel.HashMod, relabel.LabelMap, relabel.LabelDrop, relabel.LabelKeep, relabel.Lowercase, relabel.Uppercase}
	for _, act := range actions {
		for _, target := range []string{"", "t", "${1}"} {
			rule := func(re string) relabel.Config {
				c := relabel.DefaultRelabelConfig
				c.Action, c.TargetLabel = act, target
				if act == relabel.HashMod {
					c.Modulus = 2
				}
				if act != relabel.LabelDrop && act != relabel.LabelKeep && act != relabel.LabelMap {
					c.SourceLabels = model.LabelNames{"a"}
				}
				c.Regex = relabel.MustNewRegexp(re)
				return c
			}
			for _, re := range []string{"(.*)", "Node;(.*)", "(a|b);true", "x"} {
				a, b := rule(""), rule(re)
				ea, eb := a.Validate(model.UTF8Validation), b.Validate(model.UTF8Validation)
				if (ea == nil) != (eb == nil) {
					t.Errorf("%s, target %q: regex \"\": %v; regex %q: %v", act, target, ea, re, eb)
				}
			}
		}
	}
}
