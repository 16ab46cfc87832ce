package ruletest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/prometheus/prometheus/promql/promqltest"
	promrules "github.com/prometheus/prometheus/rules"

	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Options say what the rules are tested for.
type Options struct {
	// Prometheus, when set, is the Prometheus the PrometheusRules are tested for: they
	// are validated for its version and features and given its namespace-label
	// enforcement (spec.enforcedNamespaceLabel, minus the rules excluded from it), and a
	// rule it does not select gets a warning. Nil tests the rules as written, validated
	// for Lookout's default Prometheus version.
	Prometheus *promserver.Server
	// NamespaceLabels are the labels of the namespaces, for the selection warning.
	NamespaceLabels selection.NamespaceLabels
	// Namespace is the namespace of PrometheusRules that name none ("default" if empty).
	Namespace string
	// Rules are PrometheusRules (given with -f) that rule_files may name as
	// "namespace/name", or "name" in Namespace.
	Rules []*monitoringv1.PrometheusRule
	// Run, when set, runs only the test groups whose name it matches (promtool's --run).
	Run *regexp.Regexp
}

func (o Options) namespace() string {
	if o.Namespace == "" {
		return "default"
	}
	return o.Namespace
}

// Report is the outcome of every test file.
type Report struct {
	Files []FileReport
}

// FileReport is the outcome of one test file.
type FileReport struct {
	File     string
	Warnings []string
	// Err is set when the file could not be tested: it or a rule file it names does
	// not read, parse or validate.
	Err      error
	Groups   []GroupReport
	Start    time.Time
	Duration time.Duration
}

// GroupReport is the outcome of one test group (an entry of tests).
type GroupReport struct {
	Name string
	// Failures are promtool's messages, one per failed test or evaluation error.
	Failures []string
	// Broken is set when the group itself is wrong (input series or expected labels
	// that do not parse, an alert test without alertname, an expression that does not
	// parse): its Failures say why.
	Broken   bool
	Duration time.Duration
}

// Failed reports whether any test of the file failed or it could not be tested.
func (f FileReport) Failed() bool {
	if f.Err != nil {
		return true
	}
	for _, g := range f.Groups {
		if len(g.Failures) > 0 {
			return true
		}
	}
	return false
}

// ExitCode is 0 when every test passed, 1 when a test failed and 2 when a test file, a
// rule file or a test group is broken.
func (r *Report) ExitCode() int {
	code := 0
	for _, f := range r.Files {
		if f.Err != nil {
			return 2
		}
		for _, g := range f.Groups {
			if g.Broken {
				return 2
			}
			if len(g.Failures) > 0 {
				code = 1
			}
		}
	}
	return code
}

// runner tests files for one set of Options.
type runner struct {
	opts      Options
	validator *rules.Validator
	parser    parser.Parser
	// delayedNameRemoval is the promql-delayed-name-removal feature.
	delayedNameRemoval bool
	// ruleSelector selects the Prometheus's PrometheusRules (nil without one).
	ruleSelector    *selection.Compiled
	pendingWarnings []string
}

func newRunner(opts Options) (*runner, error) {
	r := &runner{opts: opts}
	vo := rules.Options{}
	popts := parser.Options{}
	if p := opts.Prometheus; p != nil {
		vo = rules.OptionsFor(p)
		for _, f := range vo.EnableFeatures {
			switch f {
			case rules.FeatureExperimentalFunctions:
				popts.EnableExperimentalFunctions = true
			case rules.FeatureBinopFillModifiers:
				popts.EnableBinopFillModifiers = true
			case rules.FeatureUnquotedUTF8Names:
				popts.EnableUnquotedUTF8Names = true
			case "promql-delayed-name-removal":
				r.delayedNameRemoval = true
			}
		}
		sel, err := pipeline.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", p.Kind(), p.Namespace, p.Name, err)
		}
		r.ruleSelector = sel.Rules
	}
	v, err := rules.NewValidator(vo)
	if err != nil {
		return nil, fmt.Errorf("spec.version: %w", err)
	}
	r.validator, r.parser = v, parser.NewParser(popts)
	return r, nil
}

// Run runs the test files. It fails only on Options that cannot be used (a Prometheus
// whose version or selectors do not parse); a broken test file is reported in its
// FileReport.
func Run(opts Options, files ...string) (*Report, error) {
	r, err := newRunner(opts)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, f := range files {
		rep.Files = append(rep.Files, r.testFile(f))
	}
	return rep, nil
}

// testFile runs the test groups of one test file.
func (r *runner) testFile(name string) (fr FileReport) {
	fr = FileReport{File: name, Start: time.Now()}
	defer func() { fr.Duration = time.Since(fr.Start) }()
	tf, err := readTestFile(name)
	if err != nil {
		fr.Err = err
		return fr
	}
	r.pendingWarnings = nil
	files, warnings, err := r.resolveRuleFiles(filepath.Dir(name), tf.RuleFiles)
	fr.Warnings = append(warnings, r.pendingWarnings...)
	if err != nil {
		fr.Err = err
		return fr
	}
	order := map[string]int{}
	for i, g := range tf.GroupEvalOrder {
		if _, dup := order[g]; dup {
			fr.Err = fmt.Errorf("group name repeated in evaluation order: %s", g)
			return fr
		}
		order[g] = i
	}
	loader := newGroupLoader(r.parser, files)
	// A rule file that does not load breaks every test group: report it once.
	positions := map[string]int{}
	for fi, f := range files {
		rgs, errs := loader.Load(f.id, false, model.UTF8Validation)
		if len(errs) > 0 {
			fr.Err = errors.Join(errs...)
			return fr
		}
		for gi, g := range rgs.Groups {
			positions[promrules.GroupKey(f.id, g.Name)] = fi*100000 + gi
		}
	}
	for i := range tf.Tests {
		tg := &tf.Tests[i]
		if r.opts.Run != nil && !r.opts.Run.MatchString(tg.Name) {
			continue
		}
		start := time.Now()
		failures, broken := r.testGroup(tf, tg, i, loader, files, order, positions)
		fr.Groups = append(fr.Groups, GroupReport{Name: tg.testName(i), Failures: failures, Broken: broken, Duration: time.Since(start)})
	}
	return fr
}

// testGroup loads the input series of tg, evaluates the rule groups step by step every
// evaluation_interval up to the last eval_time, checks the alerts of each alert test at
// its eval_time and then the promql_expr_tests. It returns promtool's messages for what
// failed, and whether the group itself is broken.
func (r *runner) testGroup(tf *testFile, tg *testGroup, index int, loader groupLoader, files []ruleFile, order map[string]int, positions map[string]int) (failures []string, broken bool) {
	fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }
	evalInterval := time.Duration(tf.EvaluationInterval)
	namePrefix := ""
	if tg.Name != "" {
		namePrefix = fmt.Sprintf("    name: %s,\n", tg.Name)
	}
	for _, a := range tg.AlertRuleTests {
		if a.Alertname == "" {
			in := ""
			if tg.Name != "" {
				in = fmt.Sprintf(" (in TestGroup %s)", tg.Name)
			}
			fail("an item under alert_rule_test misses required attribute alertname at eval_time %v%s", a.EvalTime, in)
			return failures, true
		}
	}

	ll, err := promqltest.NewLazyLoader(tg.loadCommand(), promqltest.LazyLoaderOpts{
		EnableAtModifier: true, EnableNegativeOffset: true, EnableDelayedNameRemoval: r.delayedNameRemoval,
		StartTime: tg.StartTimestamp.Time, Parser: r.parser,
	})
	if err != nil {
		fail("%s", err)
		return failures, true
	}
	defer func() {
		if err := ll.Close(); err != nil {
			fail("%s", err)
		}
	}()
	ll.SubqueryInterval = evalInterval

	m := promrules.NewManager(&promrules.ManagerOptions{
		QueryFunc:    promrules.EngineQueryFunc(ll.QueryEngine(), ll.Storage()),
		AppendableV2: ll.Storage(),
		Context:      context.Background(),
		NotifyFunc:   func(context.Context, string, ...*promrules.Alert) {},
		Logger:       promslog.NewNopLogger(),
		Parser:       r.parser,
		GroupLoader:  loader,
	})
	ids := make([]string, len(files))
	for i, f := range files {
		ids[i] = f.id
	}
	groupMap, errs := m.LoadGroups(time.Duration(tg.Interval), tg.ExternalLabels, tg.ExternalURL, nil, false, ids...)
	if len(errs) > 0 {
		for _, e := range errs {
			fail("%s", e)
		}
		return failures, true
	}
	groups := orderGroups(groupMap, order, positions)
	for _, g := range groups {
		for _, rule := range g.Rules() {
			if ar, ok := rule.(*promrules.AlertingRule); ok {
				// Restored: the ALERTS series are written from the first evaluation.
				ar.SetRestored(true)
			}
		}
	}

	mint := time.Unix(0, 0).UTC()
	if !tg.StartTimestamp.IsZero() {
		mint = tg.StartTimestamp.Time
	}
	maxt := mint.Add(tg.maxEvalTime())
	eq := floatEqual(tf.FuzzyCompare)

	// The alert tests by eval_time, checked at the evaluation that covers each.
	byTime := map[model.Duration][]alertTest{}
	var times []model.Duration
	for _, a := range tg.AlertRuleTests {
		if _, ok := byTime[a.EvalTime]; !ok {
			times = append(times, a.EvalTime)
		}
		byTime[a.EvalTime] = append(byTime[a.EvalTime], a)
	}
	slices.Sort(times)
	next := 0

	for ts := mint; !ts.After(maxt); ts = ts.Add(evalInterval) {
		var evalErrs []string
		ll.WithSamplesTill(ts, func(err error) {
			if err != nil {
				fail("%s", err)
				return
			}
			for _, g := range groups {
				g.Eval(ll.Context(), ts)
				for _, rule := range g.Rules() {
					if err := rule.LastError(); err != nil {
						evalErrs = append(evalErrs, fmt.Sprintf("    rule: %s, time: %s, err: %v", rule.Name(), ts.Sub(time.Unix(0, 0).UTC()), err))
					}
				}
			}
		})
		if len(evalErrs) > 0 {
			return append(failures, evalErrs...), false
		}
		for next < len(times) && time.Duration(times[next]) < ts.Add(evalInterval).Sub(mint) {
			at := times[next]
			next++
			if ts.Sub(mint) > time.Duration(at) {
				continue
			}
			for _, test := range byTime[at] {
				got := firingAlerts(groups, test.Alertname)
				exp := test.expected()
				if !exp.equal(got) {
					fail("%s    alertname: %s, time: %s, \n        exp:%v, \n        got:%v", namePrefix, test.Alertname, at,
						indent(exp.String(), "            "), indent(got.String(), "            "))
				}
			}
		}
	}

	for _, test := range tg.PromqlExprTests {
		msg, bad := r.checkExpr(ll, test, mint, eq)
		if msg != "" {
			failures = append(failures, msg)
		}
		broken = broken || bad
	}
	return failures, broken
}

// checkExpr runs a promql_expr_test: its message when it fails, and whether the test
// itself is broken (an expression or expected labels that do not parse).
func (r *runner) checkExpr(ll *promqltest.LazyLoader, test exprTest, mint time.Time, eq func(a, b float64) bool) (string, bool) {
	at := mint.Add(time.Duration(test.EvalTime))
	q, err := ll.QueryEngine().NewInstantQuery(ll.Context(), ll.Queryable(), nil, test.Expr, at)
	if err != nil {
		return fmt.Sprintf("    expr: %q, time: %s, err: %s", test.Expr, test.EvalTime, err), true
	}
	defer q.Close()
	res := q.Exec(ll.Context())
	var got samples
	if res.Err != nil {
		return fmt.Sprintf("    expr: %q, time: %s, err: %s", test.Expr, test.EvalTime, res.Err), false
	}
	switch v := res.Value.(type) {
	case promql.Vector:
		for _, s := range v {
			got = append(got, sample{labels: s.Metric.Copy(), value: s.F, histogram: promqltest.HistogramTestExpression(s.H)})
		}
	case promql.Scalar:
		got = samples{{labels: labels.EmptyLabels(), value: v.V}}
	default:
		return fmt.Sprintf("    expr: %q, time: %s, err: %s", test.Expr, test.EvalTime, "rule result is not a vector or scalar"), false
	}
	var exp samples
	for _, s := range test.ExpSamples {
		ls, err := r.parser.ParseMetric(s.Labels)
		hist := ""
		if err == nil && s.Histogram != "" {
			hist, err = r.histogram(s.Histogram)
		}
		if err != nil {
			return fmt.Sprintf("    expr: %q, time: %s, err: %v", test.Expr, test.EvalTime, fmt.Errorf("labels %q: %w", s.Labels, err)), true
		}
		exp = append(exp, sample{labels: ls, value: s.Value, histogram: hist})
	}
	exp.sort()
	got.sort()
	if !exp.equal(got, eq) {
		return fmt.Sprintf("    expr: %q, time: %s,\n        exp: %v\n        got: %v", test.Expr, test.EvalTime, exp, got), false
	}
	return "", false
}

// histogram parses an expected histogram in the series notation and returns its test
// expression, as the query results are printed.
func (r *runner) histogram(s string) (string, error) {
	_, values, err := r.parser.ParseSeriesDesc("{} " + s)
	switch {
	case err != nil:
		return "", err
	case len(values) != 1:
		return "", fmt.Errorf("expected 1 value, got %d", len(values))
	case values[0].Histogram == nil:
		return "", fmt.Errorf("expected histogram, got %v", values[0])
	}
	return promqltest.HistogramTestExpression(values[0].Histogram), nil
}

// loadCommand is the input series as a promqltest load command.
func (tg *testGroup) loadCommand() string {
	var b strings.Builder
	fmt.Fprintf(&b, "load %s\n", tg.Interval)
	for _, s := range tg.InputSeries {
		fmt.Fprintf(&b, "  %s %s\n", s.Series, s.Values)
	}
	return b.String()
}

// orderGroups orders the rule groups by group_eval_order (a group it does not name
// counts as its first, as in promtool), then by file and position in the file.
func orderGroups(m map[string]*promrules.Group, order, positions map[string]int) []*promrules.Group {
	groups := make([]*promrules.Group, 0, len(m))
	for _, g := range m {
		groups = append(groups, g)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		oi, oj := order[groups[i].Name()], order[groups[j].Name()]
		if oi != oj {
			return oi < oj
		}
		return positions[promrules.GroupKey(groups[i].File(), groups[i].Name())] < positions[promrules.GroupKey(groups[j].File(), groups[j].Name())]
	})
	return groups
}

// firingAlerts are the firing alerts of every alerting rule named name, in every group.
func firingAlerts(groups []*promrules.Group, name string) alerts {
	var out alerts
	for _, g := range groups {
		for _, rule := range g.Rules() {
			ar, ok := rule.(*promrules.AlertingRule)
			if !ok || ar.Name() != name {
				continue
			}
			for _, a := range ar.ActiveAlerts() {
				if a.State == promrules.StateFiring {
					out = append(out, alert{labels: a.Labels.Copy(), annotations: a.Annotations.Copy()})
				}
			}
		}
	}
	out.sort()
	return out
}

// expected are the alerts the test expects, alertname included.
func (a alertTest) expected() alerts {
	var out alerts
	for _, e := range a.ExpAlerts {
		ls := make(map[string]string, len(e.ExpLabels)+1)
		for k, v := range e.ExpLabels {
			ls[k] = v
		}
		ls[labels.AlertName] = a.Alertname
		out = append(out, alert{labels: labels.FromMap(ls), annotations: labels.FromMap(e.ExpAnnotations)})
	}
	out.sort()
	return out
}
