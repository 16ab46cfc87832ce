package rules

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/yaml"
)

// specFrom reads a PrometheusRule spec written in YAML, failing the test on bad YAML.
func specFrom(t testing.TB, y string) monitoringv1.PrometheusRuleSpec {
	t.Helper()
	var spec monitoringv1.PrometheusRuleSpec
	if err := yaml.UnmarshalStrict([]byte(y), &spec); err != nil {
		t.Fatalf("test spec does not parse: %v\n%s", err, y)
	}
	return spec
}

// alert wraps one alerting rule (given as YAML flow-mapping fields) in group "g".
func alert(fields string) string {
	return `groups: [{name: g, rules: [{alert: A, ` + fields + `}]}]`
}

// record wraps one recording rule in group "g".
func record(fields string) string {
	return `groups: [{name: g, rules: [{record: r, ` + fields + `}]}]`
}

const (
	atA = `spec.groups[0].rules[0].%s (group "g", alert "A"): `
	atR = `spec.groups[0].rules[0].%s (group "g", record "r"): `
)

func at(format, field, msg string) string { return strings.Replace(format, "%s", field, 1) + msg }

func TestValidateRejects(t *testing.T) {
	cases := []struct {
		name     string
		version  string
		features []string
		scheme   monitoringv1.NameValidationSchemeOptions
		spec     string
		want     []string
	}{
		// PromQL.
		{name: "unclosed parenthesis", spec: alert(`expr: "sum(rate(x[5m])"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:16: parse error: unclosed left parenthesis`)}},
		{name: "unknown function", spec: alert(`expr: "foo_bar(up)"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: unknown function with name "foo_bar"`)}},
		{name: "wrong argument type", spec: alert(`expr: "rate(up)"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:6: parse error: expected type range vector in call to function "rate", got instant vector`)}},
		{name: "trailing identifier", spec: alert(`expr: "up up"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:4: parse error: unexpected identifier "up"`)}},
		{name: "empty expression", spec: alert(`expr: ""`), want: []string{
			at(atA, "expr", `field 'expr' must be set in rule`)}},
		{name: "bad regular expression", spec: alert(`expr: 'up{job=~"("}'`), want: []string{
			at(atA, "expr", "could not parse expression: 1:4: parse error: error parsing regexp: missing closing ): `(`")}},
		{name: "selector with only empty matchers", spec: alert(`expr: '{job=""}'`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: vector selector must contain at least one non-empty matcher`)}},
		{name: "binary operation on strings", spec: alert(`expr: '"a" + 1'`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: binary expression must contain only scalar and instant vector types`)}},
		{name: "string result", spec: alert(`expr: '"foo"'`), want: []string{
			at(atA, "expr", `expression must evaluate to an instant vector or a scalar, not a string`)}},
		{name: "range vector result", spec: record(`expr: "up[5m]"`), want: []string{
			at(atR, "expr", `expression must evaluate to an instant vector or a scalar, not a range vector`)}},
		{name: "experimental function without flag", spec: alert(`expr: 'sort_by_label(up, "job")'`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: function "sort_by_label" is not enabled: it needs the promql-experimental-functions feature flag`)}},
		{name: "experimental aggregator without flag", spec: alert(`expr: "limitk(2, up)"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: limitk() is experimental and must be enabled with --enable-feature=promql-experimental-functions`)}},
		{name: "function newer than version", version: "2.28.0", spec: alert(`expr: "present_over_time(up[5m])"`), want: []string{
			at(atA, "expr", `function "present_over_time" needs Prometheus 2.29.0 or later; this Prometheus runs 2.28.0`)}},
		{name: "function experimental in that version", version: "v3.10.0", spec: alert(`expr: "first_over_time(up[5m])"`), want: []string{
			at(atA, "expr", `function "first_over_time" is experimental in Prometheus 3.10.0: it needs the promql-experimental-functions feature flag`)}},
		{name: "experimental function newer than version", version: "2.45.0", features: []string{FeatureExperimentalFunctions},
			spec: alert(`expr: "double_exponential_smoothing(up[5m], 0.5, 0.5)"`), want: []string{
				at(atA, "expr", `function "double_exponential_smoothing" needs Prometheus 3.0.0 or later; this Prometheus runs 2.45.0`)}},
		{name: "function removed in 3.0", spec: alert(`expr: "holt_winters(up[5m], 0.5, 0.5)"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: unknown function with name "holt_winters": Prometheus 3.0.0 renamed it to double_exponential_smoothing`)}},
		{name: "fill modifier without flag", spec: alert(`expr: "a + fill(0) b"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: binop fill modifiers are experimental and not enabled: they need the promql-binop-fill-modifiers feature flag`)}},
		{name: "fill modifier before 3.10", version: "3.9.0", features: []string{FeatureBinopFillModifiers}, spec: alert(`expr: "a + fill(0) b"`), want: []string{
			at(atA, "expr", `could not parse expression: 1:1: parse error: binop fill modifiers are experimental and not enabled: they need Prometheus 3.10.0 or later and the promql-binop-fill-modifiers feature flag`)}},

		// Durations.
		{name: "unknown duration unit", spec: alert(`expr: up, for: 5x`), want: []string{
			at(atA, "for", `unknown unit "x" in duration "5x"`)}},
		{name: "empty duration", spec: alert(`expr: up, for: ""`), want: []string{
			at(atA, "for", `empty duration string`)}},
		{name: "duration with words", spec: alert(`expr: up, keep_firing_for: "1 hour"`), want: []string{
			at(atA, "keep_firing_for", `unknown unit " hour" in duration "1 hour"`)}},
		{name: "negative interval", spec: `groups: [{name: g, interval: "-1m", rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].interval (group "g"): not a valid duration string: "-1m"`}},
		{name: "query_offset not a duration", spec: `groups: [{name: g, query_offset: abc, rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].query_offset (group "g"): not a valid duration string: "abc"`}},
		{name: "for on recording rule", spec: record(`expr: up, for: 5m`), want: []string{
			at(atR, "for", `invalid field 'for' in recording rule`)}},
		{name: "keep_firing_for on recording rule", spec: record(`expr: up, keep_firing_for: 5m`), want: []string{
			at(atR, "keep_firing_for", `invalid field 'keep_firing_for' in recording rule`)}},

		// Fields the version does not know.
		{name: "keep_firing_for before 2.42", version: "2.41.0", spec: alert(`expr: up, keep_firing_for: 5m`), want: []string{
			at(atA, "keep_firing_for", `field "keep_firing_for" needs Prometheus 2.42.0 or later; this Prometheus runs 2.41.0`)}},
		{name: "query_offset before 2.53", version: "v2.52.1", spec: `groups: [{name: g, query_offset: 1m, rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].query_offset (group "g"): field "query_offset" needs Prometheus 2.53.0 or later; this Prometheus runs 2.52.1`}},
		{name: "group labels before 3.0", version: "2.55.0", spec: `groups: [{name: g, labels: {team: a}, rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].labels (group "g"): field "labels" needs Prometheus 3.0.0 or later; this Prometheus runs 2.55.0`}},
		{name: "limit before 2.31", version: "2.30.3", spec: `groups: [{name: g, limit: 1, rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].limit (group "g"): field "limit" needs Prometheus 2.31.0 or later; this Prometheus runs 2.30.3`}},

		// Templates.
		{name: "unclosed template action", spec: alert(`expr: up, annotations: {summary: "{{ $value "}`), want: []string{
			at(atA, "annotations[summary]", `invalid template: template: __alert_A:1: unclosed action`)}},
		{name: "undefined template function", spec: alert(`expr: up, annotations: {summary: "{{ humanizeFoo $value }}"}`), want: []string{
			at(atA, "annotations[summary]", `invalid template: template: __alert_A:1: function "humanizeFoo" not defined`)}},
		{name: "unexpected end", spec: alert(`expr: up, annotations: {description: "{{ end }}"}`), want: []string{
			at(atA, "annotations[description]", `invalid template: template: __alert_A:1: unexpected {{end}}`)}},
		{name: "undefined template variable", spec: alert(`expr: up, annotations: {summary: "{{ $foo }}"}`), want: []string{
			at(atA, "annotations[summary]", `invalid template: template: __alert_A:1: undefined variable "$foo"`)}},
		{name: "bad template in label", spec: alert(`expr: up, labels: {severity: "{{ .Foo"}`), want: []string{
			at(atA, "labels[severity]", `invalid template: template: __alert_A:1: unclosed action`)}},

		// Names.
		{name: "braces in record name", spec: `groups: [{name: g, rules: [{record: "up{job}", expr: up}]}]`, want: []string{
			`spec.groups[0].rules[0].record (group "g", record "up{job}"): braces present in the recording rule name; should it be in expr?: up{job}`}},
		{name: "record name invalid before 3.0", version: "2.45.0", spec: `groups: [{name: g, rules: [{record: "1up", expr: up}]}]`, want: []string{
			`spec.groups[0].rules[0].record (group "g", record "1up"): invalid recording rule name: 1up`}},
		{name: "label name invalid before 3.0", version: "2.45.0", spec: record(`expr: up, labels: {team-name: x}`), want: []string{
			at(atR, "labels[team-name]", `invalid label name: team-name`)}},
		{name: "label named __name__", spec: record(`expr: up, labels: {__name__: x}`), want: []string{
			at(atR, "labels[__name__]", `invalid label name: __name__`)}},
		{name: "annotation name invalid before 3.0", version: "2.45.0", spec: alert(`expr: up, annotations: {"summary text": x}`), want: []string{
			at(atA, "annotations[summary text]", `invalid annotation name: summary text`)}},
		// Prometheus 3 validates rule files with the configuration's name validation
		// scheme: with Legacy it refuses to start on UTF-8 names.
		{name: "record name with a dot, legacy names on v3", scheme: monitoringv1.LegacyNameValidationScheme,
			spec: `groups: [{name: g, rules: [{record: "http.requests:rate5m", expr: up}]}]`, want: []string{
				`spec.groups[0].rules[0].record (group "g", record "http.requests:rate5m"): invalid recording rule name: http.requests:rate5m`}},
		{name: "label name with a dot, legacy names on v3", scheme: monitoringv1.LegacyNameValidationScheme, spec: alert(`expr: up, labels: {team.name: x}`), want: []string{
			at(atA, "labels[team.name]", `invalid label name: team.name`)}},
		{name: "annotation name with a space, legacy names on v3", version: "v3.5.0", scheme: monitoringv1.LegacyNameValidationScheme,
			spec: alert(`expr: up, annotations: {"summary text": x}`), want: []string{
				at(atA, "annotations[summary text]", `invalid annotation name: summary text`)}},
		{name: "group label name with a dot, legacy names on v3", scheme: monitoringv1.LegacyNameValidationScheme,
			spec: `groups: [{name: g, labels: {team.name: a}, rules: [{alert: A, expr: up}]}]`, want: []string{
				`spec.groups[0].labels[team.name] (group "g"): invalid label name: team.name`}},
		{name: "UTF-8 names asked of a 2.x Prometheus", version: "2.55.0", scheme: monitoringv1.UTF8NameValidationScheme, spec: record(`expr: up, labels: {team.name: x}`), want: []string{
			at(atR, "labels[team.name]", `invalid label name: team.name`)}},
		{name: "alert and record", spec: `groups: [{name: g, rules: [{alert: A, record: r, expr: up}]}]`, want: []string{
			`spec.groups[0].rules[0] (group "g", alert "A"): only one of 'record' and 'alert' must be set`}},
		{name: "neither alert nor record", spec: `groups: [{name: g, rules: [{expr: up}]}]`, want: []string{
			`spec.groups[0].rules[0] (group "g", rule without alert or record name): one of 'record' or 'alert' must be set`}},
		{name: "annotations on recording rule", spec: record(`expr: up, annotations: {a: b}`), want: []string{
			at(atR, "annotations", `invalid field 'annotations' in recording rule`)}},

		// Groups.
		{name: "empty group name", spec: `groups: [{name: "", rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].name (group ""): group name must not be empty`}},
		{name: "duplicate group names", spec: `groups: [{name: a, rules: [{alert: A, expr: up}]}, {name: b, rules: [{alert: A, expr: up}]}, {name: a, rules: [{alert: B, expr: up}]}]`, want: []string{
			`spec.groups[2].name (group "a"): group name "a" is already used by spec.groups[0]: group names must be unique within a PrometheusRule`}},
		{name: "group without rules", spec: `groups: [{name: a}]`, want: []string{
			`spec.groups[0].rules (group "a"): group has no rules`}},
		{name: "group with empty rules list", spec: `groups: [{name: a, rules: []}]`, want: []string{
			`spec.groups[0].rules (group "a"): group has no rules`}},
		{name: "invalid group label name", spec: `groups: [{name: g, labels: {__name__: x}, rules: [{alert: A, expr: up}]}]`, want: []string{
			`spec.groups[0].labels[__name__] (group "g"): invalid label name: __name__`}},

		// Size.
		{name: "too large for one ConfigMap", spec: alert(`expr: up, annotations: {runbook: "` + strings.Repeat("x", 520*1024) + `"}`), want: []string{
			`spec: the rule groups render to 532586 bytes, more than the 524288 bytes one rule ConfigMap holds once up to 774 bytes of file name and header are added: split the groups over several PrometheusRule objects`}},

		// Versions.
		{name: "unreadable version", version: "three", spec: `groups: []`, want: []string{
			`spec: invalid Prometheus version "three": want MAJOR.MINOR.PATCH`}},
		{name: "version before 2.0", version: "1.8.2", spec: `groups: []`, want: []string{
			`spec: unsupported Prometheus version "1.8.2": rule groups need Prometheus 2.0.0 or later`}},

		// Several problems at once: all are listed, in object order.
		{name: "every problem listed", version: "2.41.0",
			spec: `groups: [{name: a, query_offset: 1m, rules: [{alert: A, expr: "up ==", for: 5x, keep_firing_for: 1m, annotations: {s: "{{"}}]}, {name: a}]`,
			want: []string{
				`spec.groups[0].query_offset (group "a"): field "query_offset" needs Prometheus 2.53.0 or later; this Prometheus runs 2.41.0`,
				`spec.groups[0].rules[0].annotations[s] (group "a", alert "A"): invalid template: template: __alert_A:1: unclosed action`,
				`spec.groups[0].rules[0].expr (group "a", alert "A"): could not parse expression: 1:6: parse error: unexpected end of input`,
				`spec.groups[0].rules[0].for (group "a", alert "A"): unknown unit "x" in duration "5x"`,
				`spec.groups[0].rules[0].keep_firing_for (group "a", alert "A"): field "keep_firing_for" needs Prometheus 2.42.0 or later; this Prometheus runs 2.41.0`,
				`spec.groups[1].name (group "a"): group name "a" is already used by spec.groups[0]: group names must be unique within a PrometheusRule`,
				`spec.groups[1].rules (group "a"): group has no rules`,
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewValidator(Options{Version: c.version, EnableFeatures: c.features, NameValidationScheme: c.scheme})
			var got []string
			if err != nil {
				for _, p := range Validate(specFrom(t, c.spec), c.version) {
					got = append(got, p.Error())
				}
			} else {
				for _, p := range v.Validate(specFrom(t, c.spec)) {
					got = append(got, p.Error())
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("problems:\n got: %q\nwant: %q", got, c.want)
			}
		})
	}
	if len(cases) < 40 {
		t.Fatalf("only %d invalid inputs; the table must keep at least 40", len(cases))
	}
}

func TestValidateInvalidLabelValue(t *testing.T) {
	spec := monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{
		Name:   "g",
		Labels: map[string]string{"team": "\xff"},
		Rules: []monitoringv1.Rule{{
			Alert:  "A",
			Expr:   intOrString("up"),
			Labels: map[string]string{"a": "\xfe", "b": "\xfe", "c": "fine"},
		}},
	}}}
	want := []string{
		"spec.groups[0].labels[team] (group \"g\"): invalid label value: \xff",
		"spec.groups[0].rules[0].labels[a] (group \"g\", alert \"A\"): invalid label value: \xfe",
		"spec.groups[0].rules[0].labels[b] (group \"g\", alert \"A\"): invalid label value: \xfe",
	}
	var got []string
	for _, p := range Validate(spec, "") {
		got = append(got, p.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n got: %q\nwant: %q", got, want)
	}
}

func TestValidateAccepts(t *testing.T) {
	cases := []struct {
		name     string
		version  string
		features []string
		scheme   monitoringv1.NameValidationSchemeOptions
		spec     string
	}{
		{name: "no groups", spec: `{}`},
		{name: "typical rules", spec: `groups: [{name: node, interval: 30s, rules: [
			{record: "instance:node_cpu:rate5m", expr: "sum by (instance) (rate(node_cpu_seconds_total{mode!=\"idle\"}[5m]))"},
			{alert: NodeDown, expr: "up{job=\"node\"} == 0", for: 5m, labels: {severity: critical},
			 annotations: {summary: "{{ $labels.instance }} is down", value: "{{ $value | humanize }}"}}]}]`},
		{name: "numeric expression", spec: `groups: [{name: g, rules: [{record: one, expr: 1}]}]`},
		{name: "every field on the default version", spec: `groups: [{name: g, interval: 1m, query_offset: 30s, limit: 10, labels: {team: a},
			rules: [{alert: A, expr: up == 0, for: 1m, keep_firing_for: 5m}]}]`},
		{name: "keep_firing_for on 2.42", version: "2.42.0", spec: alert(`expr: up, keep_firing_for: 5m`)},
		{name: "holt_winters before 3.0", version: "2.45.0", spec: alert(`expr: "holt_winters(up[5m], 0.5, 0.5)"`)},
		{name: "experimental function with flag", features: []string{FeatureExperimentalFunctions}, spec: alert(`expr: 'sort_by_label(up, "job")'`)},
		{name: "first_over_time stable in 3.14", version: "3.14.0", spec: alert(`expr: "first_over_time(up[5m])"`)},
		{name: "UTF-8 names from 3.0", spec: record(`expr: '{"my.metric"}', labels: {"team.name": x}`)},
		{name: "UTF-8 names asked of v3", scheme: monitoringv1.UTF8NameValidationScheme, spec: record(`expr: up, labels: {"team.name": x}`)},
		{name: "legacy names that are legacy-valid on v3", scheme: monitoringv1.LegacyNameValidationScheme,
			spec: `groups: [{name: g, labels: {team: a}, rules: [{record: "job:up:sum", expr: "sum by (job) (up)", labels: {team_name: x}}]}]`},
		{name: "fill modifier with flag", features: []string{FeatureBinopFillModifiers}, spec: alert(`expr: "a + fill(0) b"`)},
		{name: "UTF-8 label names on 2.55 with flag", version: "2.55.0", features: []string{FeatureUTF8Names}, spec: record(`expr: up, labels: {"team.name": x}`)},
		{name: "templates using every variable", spec: alert(`expr: up, annotations: {a: "{{ $externalLabels.cluster }} {{ $externalURL }} {{ .Value }}"}`)},
		{name: "numeric-looking label values", spec: alert(`expr: up, labels: {priority: "1", enabled: "true"}`)},
		{name: "thanos partial response strategy ignored", spec: `groups: [{name: g, partial_response_strategy: warn, rules: [{alert: A, expr: up}]}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewValidator(Options{Version: c.version, EnableFeatures: c.features, NameValidationScheme: c.scheme})
			if err != nil {
				t.Fatal(err)
			}
			if ps := v.Validate(specFrom(t, c.spec)); len(ps) != 0 {
				t.Errorf("unexpected problems: %v", Problems(ps))
			}
		})
	}
}

func TestUnknownNameValidationScheme(t *testing.T) {
	if _, err := NewValidator(Options{NameValidationScheme: "ASCII"}); err == nil || !strings.Contains(err.Error(), `invalid name validation scheme "ASCII"`) {
		t.Errorf("NewValidator: %v, want an error naming the scheme", err)
	}
}

func TestValidateSizeBoundary(t *testing.T) {
	spec := specFrom(t, alert(`expr: up, annotations: {summary: "`+strings.Repeat("y", 4000)+`"}`))
	body, err := renderBody(spec)
	if err != nil {
		t.Fatal(err)
	}
	fits := len(body) + maxFileOverhead
	for _, c := range []struct {
		limit int
		ok    bool
	}{{fits, true}, {fits - 1, false}} {
		v, err := NewValidator(Options{SizeLimit: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		if ps := v.Validate(spec); (len(ps) == 0) != c.ok {
			t.Errorf("limit %d: problems %v, want ok=%v", c.limit, ps, c.ok)
		}
	}
	// Whatever the object's names, a spec that passes fits in Pack's limit.
	rule := newRule("n"+strings.Repeat("s", 62), strings.Repeat("m", 253), 1<<62)
	file, err := RenderFile(rule, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, tooLarge := Pack(map[string][]byte{FileName(rule): file}, fits); len(tooLarge) != 0 {
		t.Errorf("a file Validate accepted at limit %d does not fit Pack at the same limit", fits)
	}
}
