package jsonnet

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

var (
	alertName  = regexp.MustCompile(`^Lookout([A-Z][a-z0-9]*|[A-Z]+(?:[A-Z][a-z0-9]+|$))+$`)
	recordName = regexp.MustCompile(`^[a-z_]+:[a-z0-9_]+:[a-z0-9_]+$`)
	severities = []string{"critical", "warning", "info"}
)

// TestRulefmt checks the alerts and recording rules the way Prometheus loads a rule file.
func TestRulefmt(t *testing.T) {
	m := loadMixin(t)
	y, err := yaml.JSONToYAML(m.ruleFileJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	p := parser.NewParser(parser.Options{})
	groups, errs := rulefmt.Parse(y, false, model.UTF8Validation, p, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, e := range errs {
		t.Error(e)
	}
	if groups == nil {
		t.Fatal("no rule groups parsed")
	}
	if got, want := len(groups.Groups), len(m.Alerts.Groups)+len(m.Rules.Groups); got != want {
		t.Errorf("parsed %d groups, the mixin has %d", got, want)
	}
}

// TestOperatorValidator checks the rules with the validator the operator and its
// admission webhook use, for the Prometheus version the stack runs and for the oldest
// Prometheus 2 release Lookout supports, with no feature flags.
func TestOperatorValidator(t *testing.T) {
	m := loadMixin(t)
	spec := prometheusRuleSpec(t, m)
	for _, version := range []string{"", "v3.16.0", "v2.45.0"} {
		v, err := rules.NewValidator(rules.Options{Version: version})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range v.Validate(spec) {
			t.Errorf("Prometheus %q: %s", version, p)
		}
	}
}

// prometheusRuleSpec turns the mixin's rules into a PrometheusRule spec.
func prometheusRuleSpec(t testing.TB, m *mixin) monitoringv1.PrometheusRuleSpec {
	t.Helper()
	var spec monitoringv1.PrometheusRuleSpec
	for _, f := range []ruleFile{m.Alerts, m.Rules} {
		for _, g := range f.Groups {
			rg := monitoringv1.RuleGroup{Name: g.Name}
			for _, r := range g.Rules {
				mr := monitoringv1.Rule{Alert: r.Alert, Record: r.Record, Expr: intstr.FromString(r.Expr), Labels: r.Labels, Annotations: r.Annotations}
				if r.For != "" {
					d := monitoringv1.Duration(r.For)
					mr.For = &d
				}
				rg.Rules = append(rg.Rules, mr)
			}
			spec.Groups = append(spec.Groups, rg)
		}
	}
	return spec
}

// TestAlertConventions checks names, labels and annotations of every alert, and that its
// runbook exists.
func TestAlertConventions(t *testing.T) {
	root := repoRoot(t)
	m := loadMixin(t)
	seen := map[string]bool{}
	count := 0
	for _, g := range m.Alerts.Groups {
		if len(g.Rules) == 0 {
			t.Errorf("group %s has no rules", g.Name)
		}
		for _, r := range g.Rules {
			count++
			if r.Alert == "" {
				t.Errorf("group %s: the alerts file holds a recording rule %q", g.Name, r.Record)
				continue
			}
			t.Run(r.Alert, func(t *testing.T) {
				if !alertName.MatchString(r.Alert) {
					t.Errorf("name is not CamelCase starting with Lookout")
				}
				if seen[r.Alert] {
					t.Errorf("name used twice")
				}
				seen[r.Alert] = true
				if !slices.Contains(severities, r.Labels["severity"]) {
					t.Errorf("severity %q is not one of %v", r.Labels["severity"], severities)
				}
				for _, a := range []string{"summary", "description", "runbook_url"} {
					if strings.TrimSpace(r.Annotations[a]) == "" {
						t.Errorf("annotation %s is missing", a)
					}
				}
				if s := r.Annotations["summary"]; len(s) > 120 || !strings.HasSuffix(s, ".") {
					t.Errorf("summary should be one sentence of at most 120 characters: %q", s)
				}
				p, ok := runbookPath(root, r.Annotations["runbook_url"])
				if !ok {
					t.Fatalf("runbook_url %q does not point into Documentation/runbooks/", r.Annotations["runbook_url"])
				}
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatalf("runbook: %v", err)
				}
				if !strings.Contains(string(b), "# "+r.Alert+"\n") {
					t.Errorf("%s does not start a section titled %q", p, "# "+r.Alert)
				}
				for _, section := range []string{"## Meaning", "## Impact", "## Diagnosis", "## Mitigation"} {
					if !strings.Contains(string(b), section) {
						t.Errorf("%s has no %q section", p, section)
					}
				}
			})
		}
	}
	if count < 15 {
		t.Errorf("only %d alerts", count)
	}
	// Every runbook belongs to an alert.
	files, err := filepath.Glob(filepath.Join(root, "Documentation", "runbooks", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	urls := map[string]bool{}
	for _, g := range m.Alerts.Groups {
		for _, r := range g.Rules {
			p, _ := runbookPath(root, r.Annotations["runbook_url"])
			urls[p] = true
		}
	}
	for _, f := range files {
		if filepath.Base(f) != "README.md" && !urls[f] {
			t.Errorf("runbook %s belongs to no alert", f)
		}
	}
}

// TestRecordingRuleNames checks the level:metric:operations convention.
func TestRecordingRuleNames(t *testing.T) {
	m := loadMixin(t)
	n := 0
	for _, g := range m.Rules.Groups {
		for _, r := range g.Rules {
			n++
			if r.Alert != "" || !recordName.MatchString(r.Record) {
				t.Errorf("group %s: %q is not a level:metric:operations recording rule", g.Name, r.Record+r.Alert)
			}
		}
	}
	if n == 0 {
		t.Error("no recording rules")
	}
}

// TestConfigOverrides checks that _config reaches the expressions and dashboards: custom
// selectors replace the defaults everywhere, and with no group labels every expression
// still parses.
func TestConfigOverrides(t *testing.T) {
	root := repoRoot(t)
	var m mixin
	overrides := `{
		operatorSelector: 'job="custom-operator"',
		reloaderSelector: 'container="custom-reloader"',
		prometheusSelector: 'container="custom-prometheus"',
		alertmanagerSelector: 'job="custom-am", container="custom-alertmanager"',
		alertmanagerReloaderSelector: 'job="custom-am", container="custom-am-reloader"',
		alertmanagerClusterLabels: ['am_cluster'],
		alertmanagerReplicaLabel: 'am_replica',
		groupLabels: [],
		clusterLabel: 'region',
		showMultiCluster: true,
		commonAlertLabels: { team: 'observability' },
		reconcileErrorRatio: 0.25,
		dashboardUIDs: { operator: 'o', reloader: 'r', prometheus: 'p', alertmanager: 'a' },
	}`
	if err := evaluateMixin(root, overrides, &m); err != nil {
		t.Fatal(err)
	}
	p := parser.NewParser(parser.Options{})
	for _, r := range m.allRules() {
		if _, err := p.ParseExpr(r.Expr); err != nil {
			t.Errorf("%s%s: %v\n%s", r.Alert, r.Record, err, r.Expr)
		}
		for _, def := range []string{`job="lookout-operator"`, `container="config-reloader"`, `container="prometheus"`, `job="alertmanager-main"`, `container="alertmanager"`} {
			if strings.Contains(r.Expr, def) {
				t.Errorf("%s%s still uses the default %s: %s", r.Alert, r.Record, def, r.Expr)
			}
		}
		for _, def := range []string{"cluster", "namespace", "service", "pod"} {
			if strings.HasPrefix(r.Alert, "LookoutAlertmanager") && labelWord(def).MatchString(r.Expr) {
				t.Errorf("%s still uses the default label %s: %s", r.Alert, def, r.Expr)
			}
		}
		if labelWord("cluster").MatchString(r.Expr) {
			t.Errorf("%s%s still uses the default cluster label: %s", r.Alert, r.Record, r.Expr)
		}
		if strings.HasPrefix(r.Alert, "LookoutAlertmanager") && !strings.Contains(r.Expr, "am_cluster") {
			t.Errorf("%s does not group by the overridden alertmanagerClusterLabels: %s", r.Alert, r.Expr)
		}
		if r.Alert != "" && r.Labels["team"] != "observability" {
			t.Errorf("%s lacks the common alert labels: %v", r.Alert, r.Labels)
		}
		if r.Alert == "LookoutReconcileErrors" && !strings.Contains(r.Expr, "> 0.25") {
			t.Errorf("threshold not applied: %s", r.Expr)
		}
	}
	ds := m.dashboards(t)
	uids := []string{}
	for file, d := range ds {
		uids = append(uids, d.UID)
		for _, v := range d.Templating.List {
			if v.Name == "cluster" && (v.Hide != 0 || !strings.Contains(fmt.Sprint(v.Query), ", region)")) {
				t.Errorf("%s: cluster variable is hidden or not on the region label: %+v", file, v)
			}
		}
		for _, pn := range d.Panels {
			for _, tg := range pn.Targets {
				if strings.Contains(tg.Expr, `cluster=~`) || !strings.Contains(tg.Expr, `region=~"$cluster"`) {
					t.Errorf("%s: %s: target does not select on the region label: %s", file, pn.Title, tg.Expr)
				}
			}
		}
	}
	slices.Sort(uids)
	if !slices.Equal(uids, []string{"a", "o", "p", "r"}) {
		t.Errorf("dashboard uids %v, want the overridden a, o, p, r", uids)
	}
}

// labelWord matches name as a label name in PromQL: not part of a longer identifier such
// as the metric alertmanager_cluster_members.
func labelWord(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_])` + name + `($|[^A-Za-z0-9_])`)
}

func evaluateMixin(root, overrides string, m *mixin) error {
	if err := render.EvaluateSnippet(root, mixinSnippet(overrides), m); err != nil {
		return fmt.Errorf("mixin with overrides %s: %w", overrides, err)
	}
	return nil
}
