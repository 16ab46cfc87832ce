package integration

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/model/relabel"
	"k8s.io/utils/ptr"
)

// The relabeling family: bad relabel rules, each placed in every kind's relabeling fields
// (a subset of them outside ServiceMonitor relabelings), judged under UTF-8 and legacy
// names.

// relabelBad is one bad relabel rule and its outcome under a UTF-8 (std) and a
// legacy-names Prometheus.
type relabelBad struct {
	id, input string
	rc        monitoringv1.RelabelConfig
	std       relabelWant
	// legacy, when set, differs from std.
	legacy *relabelWant
}

type relabelWant struct {
	outcome outcome
	// field: for the API server, the field of the rule it names ("action"); for Lookout,
	// what its message says after the rule's path (empty: the path is enough).
	field, msg string
	// match finds, in an accepted case, the loaded rule showing the value reached
	// Prometheus as written.
	match func(*relabel.Config) bool
	what  string
}

func apiField(f string) relabelWant  { return relabelWant{outcome: apiRejected, field: f} }
func lookout(msg string) relabelWant { return relabelWant{outcome: rejected, msg: msg} }
func envRef(v string) relabelWant {
	return relabelWant{outcome: rejected, field: "replacement", msg: "refers to $(" + v + ")"}
}
func used(what string, m func(*relabel.Config) bool) relabelWant {
	return relabelWant{outcome: accepted, match: m, what: what}
}
func legacyRejects(msg string) *relabelWant { w := lookout(msg); return &w }

func target(t string) func(*relabel.Config) bool {
	return func(c *relabel.Config) bool { return c.TargetLabel == t }
}
func replacement(r string) func(*relabel.Config) bool {
	return func(c *relabel.Config) bool { return c.Replacement == r }
}
func source(s string) func(*relabel.Config) bool {
	return func(c *relabel.Config) bool { return len(c.SourceLabels) == 1 && string(c.SourceLabels[0]) == s }
}

var yamlInjection = "a\n---\nscrape_configs: []\n# \"quoted\" 'single' {{ .x }} #"

var relabelCorpus = []relabelBad{
	{id: "regex-unclosed", input: `regex "(unclosed"`, rc: rl("(unclosed", "x", ""), std: lookout(`invalid regex "(unclosed"`)},
	{id: "regex-range", input: `regex "[z-a]" (reversed range)`, rc: rl("[z-a]", "x", ""), std: lookout("invalid regex")},
	{id: "regex-repeat", input: `regex "a{2,1}"`, rc: rl("a{2,1}", "x", ""), std: lookout("invalid regex")},
	{id: "regex-lookbehind", input: `regex "(?<=a)b" (Perl lookbehind)`, rc: rl("(?<=a)b", "x", ""), std: lookout("invalid regex")},
	{id: "regex-backslash", input: `regex ending in a backslash`, rc: rl(`a\`, "x", ""), std: lookout("invalid regex")},
	{id: "regex-repeat-limit", input: `regex "a{1001}" (over RE2's repeat limit)`, rc: rl("a{1001}", "x", ""), std: lookout("invalid regex")},
	{id: "action-unknown", input: `action "explode"`, rc: monitoringv1.RelabelConfig{Action: "explode", SourceLabels: []monitoringv1.LabelName{"app"}, TargetLabel: "x"}, std: apiField("action")},
	{id: "action-shouting", input: `action "REPLACE"`, rc: monitoringv1.RelabelConfig{Action: "REPLACE", SourceLabels: []monitoringv1.LabelName{"app"}, TargetLabel: "x"}, std: apiField("action")},
	{id: "replace-no-target", input: "replace without targetLabel", rc: monitoringv1.RelabelConfig{Action: "replace", SourceLabels: []monitoringv1.LabelName{"app"}},
		std: lookout("requires 'target_label'")},
	{id: "target-space", input: `targetLabel "team name"`, rc: rl("", "team name", ""),
		std: used(`target_label "team name"`, target("team name")), legacy: legacyRejects(`"team name" is invalid 'target_label'`)},
	{id: "target-digit", input: `targetLabel "1abc"`, rc: rl("", "1abc", ""),
		std: used(`target_label "1abc"`, target("1abc")), legacy: legacyRejects(`"1abc" is invalid 'target_label'`)},
	{id: "target-unicode", input: `targetLabel "température"`, rc: rl("", "température", ""),
		std: used(`target_label "température"`, target("température")), legacy: legacyRejects(`is invalid 'target_label'`)},
	{id: "target-injection", input: `targetLabel "x\n- job_name: injected"`, rc: rl("", "x\n- job_name: injected", ""),
		std: used("the multi-line target label as one string", target("x\n- job_name: injected")), legacy: legacyRejects("is invalid 'target_label'")},
	{id: "source-empty", input: `sourceLabels [""]`, rc: monitoringv1.RelabelConfig{SourceLabels: []monitoringv1.LabelName{""}, TargetLabel: "x"},
		std: lookout(`"" is not a valid source label name`)},
	{id: "source-space", input: `sourceLabels ["team name"]`, rc: monitoringv1.RelabelConfig{SourceLabels: []monitoringv1.LabelName{"team name"}, TargetLabel: "x"},
		std: used(`source label "team name"`, source("team name")), legacy: legacyRejects(`"team name" is not a valid source label name`)},
	{id: "hashmod-zero", input: "hashmod with modulus 0", rc: monitoringv1.RelabelConfig{Action: "hashmod", SourceLabels: []monitoringv1.LabelName{"app"}, TargetLabel: "shard"},
		std: lookout("requires non-zero modulus")},
	{id: "modulus-negative", input: "hashmod with modulus -1", rc: monitoringv1.RelabelConfig{Action: "hashmod", SourceLabels: []monitoringv1.LabelName{"app"}, TargetLabel: "shard", Modulus: -1},
		std: apiField("modulus")},
	{id: "labeldrop-extra", input: "labeldrop with sourceLabels", rc: monitoringv1.RelabelConfig{Action: "labeldrop", Regex: "tmp_.*", SourceLabels: []monitoringv1.LabelName{"app"}},
		std: lookout("labeldrop action requires only 'regex'")},
	{id: "keepequal-no-target", input: "keepequal without targetLabel", rc: monitoringv1.RelabelConfig{Action: "keepequal", SourceLabels: []monitoringv1.LabelName{"app"}},
		std: lookout("requires 'target_label'")},
	{id: "lowercase-no-target", input: "lowercase without targetLabel", rc: monitoringv1.RelabelConfig{Action: "lowercase", SourceLabels: []monitoringv1.LabelName{"app"}},
		std: lookout("requires 'target_label'")},
	{id: "replacement-env", input: `replacement "$(HTTPS_PROXY)"`, rc: rl("", "proxy", "$(HTTPS_PROXY)"), std: envRef("HTTPS_PROXY")},
	{id: "replacement-env-dollar", input: `replacement "$$(HTTPS_PROXY)" (not an escape)`, rc: rl("", "proxy", "$$(HTTPS_PROXY)"), std: envRef("HTTPS_PROXY")},
	{id: "replacement-env-nested", input: `replacement "$(HTTPS_PROXY$(SHARD))"`, rc: rl("", "proxy", "$(HTTPS_PROXY$(SHARD))"),
		std: used("the text left as written after $(SHARD) is expanded", replacement("$(HTTPS_PROXY0)"))},
	{id: "replacement-pod-name", input: `replacement "$(POD_NAME)"`, rc: rl("", "pod_name", "$(POD_NAME)"),
		std: used("the pod's name, as the reloader expands it", replacement("prometheus-corpus-0"))},
	{id: "replacement-braces", input: `replacement "${HTTPS_PROXY}" (not the reloader's syntax)`, rc: rl("", "proxy", "${HTTPS_PROXY}"),
		std: used("the text as written", replacement("${HTTPS_PROXY}"))},
	{id: "replacement-yaml", input: "replacement with a newline, `---`, a key, quotes, `{{` and `#`", rc: rl("", "x", yamlInjection),
		std: used("the replacement as one string", replacement(yamlInjection))},
	{id: "replacement-template", input: `replacement "{{ .Values.secret }}"`, rc: rl("", "x", "{{ .Values.secret }}"),
		std: used("the text as written", replacement("{{ .Values.secret }}"))},
	{id: "replacement-comment", input: `replacement "# not a comment"`, rc: rl("", "x", "# not a comment"),
		std: used("the text as written", replacement("# not a comment"))},
	{id: "separator-injection", input: "separator `\"; ]}` and a newline", rc: monitoringv1.RelabelConfig{SourceLabels: []monitoringv1.LabelName{"a", "b"}, Separator: ptr.To("\"; ]}\n"), TargetLabel: "x"},
		std: used("the separator as written", func(c *relabel.Config) bool { return c.Separator == "\"; ]}\n" })},
	{id: "regex-yaml", input: "regex `a: b` newline `- c`", rc: rl("a: b\n- c", "x", ""),
		std: used("the regex as written", func(c *relabel.Config) bool { return c.Regex.String() == "a: b\n- c" })},
}

// rl is a replace rule from the label app.
func rl(regex, target, repl string) monitoringv1.RelabelConfig {
	r := monitoringv1.RelabelConfig{SourceLabels: []monitoringv1.LabelName{"app"}, Regex: regex, TargetLabel: target}
	if repl != "" {
		r.Replacement = ptr.To(repl)
	}
	return r
}

// relabelSite is one kind's relabeling field.
type relabelSite struct {
	kind, id string
	// apiPath is the field's path for the API server; msgPath what Lookout's message
	// calls the rule.
	apiPath, msgPath string
	metric           bool
	place            func(rc monitoringv1.RelabelConfig) objs
	// only lists the rules used here (all when empty); legacy the rules also judged under
	// legacy names.
	only, legacy []string
}

var relabelSites = []relabelSite{
	{kind: kSM, id: "sm-rl", apiPath: "spec.endpoints[0].relabelings[0]", msgPath: "endpoints[0]: relabelings[0]",
		place: func(rc monitoringv1.RelabelConfig) objs {
			return sm(func(s *SM) { s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		legacy: []string{"target-space", "target-digit", "target-unicode", "target-injection", "source-space"}},
	{kind: kSM, id: "sm-mrl", apiPath: "spec.endpoints[0].metricRelabelings[0]", msgPath: "endpoints[0]: metricRelabelings[0]", metric: true,
		place: func(rc monitoringv1.RelabelConfig) objs {
			return sm(func(s *SM) { s.Spec.Endpoints[0].MetricRelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		only: []string{"regex-unclosed", "action-unknown", "replace-no-target", "source-empty", "hashmod-zero", "replacement-env", "replacement-yaml", "target-unicode"}},
	{kind: kPM, id: "pm-rl", apiPath: "spec.podMetricsEndpoints[0].relabelings[0]", msgPath: "podMetricsEndpoints[0]: relabelings[0]",
		place: func(rc monitoringv1.RelabelConfig) objs {
			return pm(func(p *PM) { p.Spec.PodMetricsEndpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		only:   []string{"regex-range", "action-unknown", "replace-no-target", "modulus-negative", "replacement-env", "replacement-yaml", "target-digit"},
		legacy: []string{"target-digit"}},
	{kind: kProbe, id: "probe-rl", apiPath: "spec.targets.staticConfig.relabelingConfigs[0]", msgPath: "relabelingConfigs[0]",
		place: func(rc monitoringv1.RelabelConfig) objs {
			return probe(func(p *Probe) { p.Spec.Targets.StaticConfig.RelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		only: []string{"regex-lookbehind", "replace-no-target", "replacement-env", "replacement-yaml", "action-shouting"}},
	{kind: kProbe, id: "probe-mrl", apiPath: "spec.metricRelabelings[0]", msgPath: "metricRelabelings[0]", metric: true,
		place: func(rc monitoringv1.RelabelConfig) objs {
			return probe(func(p *Probe) { p.Spec.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		only: []string{"regex-backslash", "keepequal-no-target"}},
	{kind: kSC, id: "sc-rl", apiPath: "spec.relabelings[0]", msgPath: "relabelings[0]",
		place: func(rc monitoringv1.RelabelConfig) objs {
			return sc(func(s *SC) { s.Spec.RelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		only:   []string{"regex-unclosed", "action-shouting", "replace-no-target", "keepequal-no-target", "replacement-env", "replacement-yaml", "target-space", "labeldrop-extra"},
		legacy: []string{"target-space"}},
	{kind: kSC, id: "sc-mrl", apiPath: "spec.metricRelabelings[0]", msgPath: "metricRelabelings[0]", metric: true,
		place: func(rc monitoringv1.RelabelConfig) objs {
			return sc(func(s *SC) { s.Spec.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rc} })
		},
		only: []string{"regex-repeat", "hashmod-zero", "separator-injection", "lowercase-no-target"}},
}

// relabelCases expands the family.
func relabelCases() []corpusCase {
	byID := map[string]relabelBad{}
	for _, b := range relabelCorpus {
		byID[b.id] = b
	}
	var out []corpusCase
	for _, site := range relabelSites {
		ids := site.only
		if len(ids) == 0 {
			for _, b := range relabelCorpus {
				ids = append(ids, b.id)
			}
		}
		add := func(b relabelBad, profile string, w relabelWant) {
			c := corpusCase{kind: site.kind, profile: profile, name: site.id + "-" + b.id, objs: site.place(b.rc),
				input: fmt.Sprintf("%s: %s", site.apiPath[len("spec."):], b.input)}
			switch w.outcome {
			case apiRejected:
				c.want = schemaErr(site.apiPath + "." + w.field)
			case rejected:
				field := site.msgPath
				if w.field != "" {
					field = w.field // found in the rendered job, in Prometheus's terms
				}
				c.want = reject(field, w.msg)
			case accepted:
				c.want = harmless(w.what, hasRelabel(site.metric, w.what, w.match))
			}
			out = append(out, c)
		}
		for _, id := range ids {
			b, ok := byID[id]
			if !ok {
				panic("unknown relabel case " + id)
			}
			add(b, profStd, b.std)
		}
		for _, id := range site.legacy {
			b := byID[id]
			if b.legacy == nil {
				panic("relabel case " + id + " has no legacy outcome")
			}
			add(b, profLegacy, *b.legacy)
		}
	}
	return out
}
