package promcfg

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

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
			err := newFileCheck(newLoader(), env, c.legacy, c.global).jobs([][]byte{c.text}, [][]string{c.names})
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
	env := reloaderEnv(&monitoringv1.Prometheus{})
	if _, ok := env[workload.PodNameEnv]; !ok {
		t.Errorf("%s is not allowed", workload.PodNameEnv)
	}
	if _, ok := env[workload.ShardEnv]; !ok {
		t.Errorf("%s is not allowed", workload.ShardEnv)
	}
}
