package jsonnet

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLiveRulesEvaluate checks that Prometheus loaded every group of the mixin and that
// every rule evaluates without error against the real series (a join on labels that are
// not unique, for example, only fails at evaluation).
func TestLiveRulesEvaluate(t *testing.T) {
	s := liveSys(t)
	m := loadMixin(t)
	groups, err := s.prom.rules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	loaded := map[string]promRuleGroup{}
	for _, g := range groups {
		loaded[g.Name] = g
	}
	for _, g := range append(append([]ruleGroup{}, m.Alerts.Groups...), m.Rules.Groups...) {
		lg, ok := loaded[g.Name]
		if !ok {
			t.Errorf("group %s is not loaded", g.Name)
			continue
		}
		if len(lg.Rules) != len(g.Rules) {
			t.Errorf("group %s: %d rules loaded, the mixin has %d", g.Name, len(lg.Rules), len(g.Rules))
		}
		for _, r := range lg.Rules {
			if r.Health != "ok" || r.LastError != "" {
				t.Errorf("group %s rule %s: health %q, error %q", g.Name, r.Name, r.Health, r.LastError)
			}
		}
	}
}

// alertExpectation says what an alert's expression returns on the live system.
type alertExpectation struct {
	// labels every returned series has; nil means the expression returns nothing.
	want map[string]string
	// any means the result depends on timing; only the evaluation is checked.
	any bool
	why string
}

// liveAlertExpectations covers every alert of the mixin.
var liveAlertExpectations = map[string]alertExpectation{
	"LookoutOperatorDown":                          {why: "the operator is scraped"},
	"LookoutOperatorNotReady":                      {why: "no kube-state-metrics series exist"},
	"LookoutOperatorNoLeader":                      {why: "the operator holds the lease"},
	"LookoutReconcileErrors":                       {any: true, why: "the broken Prometheus fails every reconcile, so the ratio depends on what else was reconciled"},
	"LookoutPrometheusReconcileFailing":            {want: map[string]string{"namespace": fixtureNamespace, "name": brokenPrometheus, "reason": "InvalidConfiguration"}, why: "its selector has an invalid operator"},
	"LookoutResourcesRejected":                     {want: map[string]string{"namespace": stackNamespace, "name": "k8s", "kind": "ServiceMonitor"}, why: "the stack's Prometheus rejects the fixture ServiceMonitor"},
	"LookoutOperatorListWatchErrors":               {why: "the stack's RBAC allows every read"},
	"LookoutConfigSizeNearLimit":                   {why: "the configurations are small"},
	"LookoutConfigReloadFailing":                   {why: "the reloads succeed"},
	"LookoutConfigOutOfDate":                       {want: map[string]string{"namespace": stackNamespace, "pod": prometheusPod}, why: "the test's Prometheus runs a configuration the operator did not generate"},
	"LookoutConfigReloaderWatchErrors":             {want: map[string]string{"namespace": stackNamespace, "pod": prometheusPod}, why: "the reloader may not read the ConfigMap it watches"},
	"LookoutConfigUnsetVariables":                  {want: map[string]string{"namespace": stackNamespace, "pod": prometheusPod}, why: "the configuration mentions an unset variable"},
	"LookoutPrometheusBadConfig":                   {why: "Prometheus loaded its configuration"},
	"LookoutPrometheusRuleFailures":                {why: "the rules evaluate"},
	"LookoutPrometheusNotConnectedToAlertmanagers": {why: "the Alertmanager is configured"},
	"LookoutPrometheusErrorSendingAlerts":          {why: "the Alertmanager accepts every alert"},
	"LookoutPrometheusTSDBCompactionsFailing":      {why: "no compaction failed"},
	"LookoutAlertmanagerBadConfig":                 {why: "Alertmanager loaded its configuration"},
	"LookoutAlertmanagerConfigInconsistent":        {why: "one replica runs one configuration"},
	"LookoutAlertmanagerMembersInconsistent":       {why: "the one replica sees itself, the one member scraped"},
	"LookoutAlertmanagerNotificationsFailing":      {want: map[string]string{"namespace": stackNamespace, "service": alertmanagerService, "integration": "webhook"}, why: "the receiver failing answers 500 to every webhook notification"},
	"LookoutAlertmanagerClusterDown":               {why: "Alertmanager is scraped"},
	"LookoutAlertmanagerCrashlooping":              {why: "Alertmanager has not restarted"},
}

// TestLiveAlertExpressions evaluates the expression of every alert on the live system and
// compares the result with what the system's state should give, so a wrong label or
// selector (the series exist, the alert never matches them) fails.
func TestLiveAlertExpressions(t *testing.T) {
	s := liveSys(t)
	m := loadMixin(t)
	ctx := context.Background()
	var names []string
	for _, g := range m.Alerts.Groups {
		for _, r := range g.Rules {
			names = append(names, r.Alert)
			exp, ok := liveAlertExpectations[r.Alert]
			if !ok {
				t.Errorf("%s: no expectation in liveAlertExpectations: add one", r.Alert)
				continue
			}
			t.Run(r.Alert, func(t *testing.T) {
				var last []promSample
				err := poll(ctx, 45*time.Second, time.Second, func() error {
					res, err := s.prom.query(ctx, r.Expr)
					if err != nil {
						return err
					}
					last = res
					switch {
					case exp.any:
						return nil
					case exp.want == nil && len(res) > 0:
						return fmt.Errorf("returns %d series, want none (%s)", len(res), exp.why)
					case exp.want != nil && len(res) == 0:
						return fmt.Errorf("returns nothing, want series with %v (%s)", exp.want, exp.why)
					}
					for _, smp := range res {
						for k, v := range exp.want {
							if smp.Metric[k] != v {
								return fmt.Errorf("returns %v, want %s=%q (%s)", smp.Metric, k, v, exp.why)
							}
						}
					}
					return nil
				})
				if err != nil {
					t.Errorf("%v\nexpression:\n%s\nlast result: %v", err, r.Expr, last)
				}
			})
		}
	}
	for name := range liveAlertExpectations {
		if !slices.Contains(names, name) {
			t.Errorf("liveAlertExpectations has %s, which is no alert of the mixin", name)
		}
	}
}

// TestLiveDashboardQueries runs every query of every dashboard against the live
// Prometheus: variables are resolved the way Grafana does (label_values through the
// series API, "All" as its regex), every query must evaluate, and every panel must show
// data, except the few listed in emptyPanels.
func TestLiveDashboardQueries(t *testing.T) {
	s := liveSys(t)
	m := loadMixin(t)
	ctx := context.Background()
	for file, d := range m.dashboards(t) {
		t.Run(file, func(t *testing.T) {
			values := map[string]string{}
			for _, v := range d.Templating.List {
				if v.Type != "query" {
					continue
				}
				sel, label, err := variableSelector(v)
				if err != nil {
					t.Fatal(err)
				}
				series, err := s.prom.series(ctx, substitute(sel, values))
				if err != nil {
					t.Fatalf("variable %s: %v", v.Name, err)
				}
				var options []string
				for _, ls := range series {
					if val, ok := ls[label]; ok && !slices.Contains(options, val) {
						options = append(options, val)
					}
				}
				switch {
				case v.IncludeAll:
					values[v.Name] = v.AllValue
				case len(options) == 0:
					t.Fatalf("variable %s offers no value: %s", v.Name, substitute(sel, values))
				default:
					slices.Sort(options)
					values[v.Name] = options[0]
				}
			}
			for _, p := range d.Panels {
				if p.Type == "row" {
					continue
				}
				withData := 0
				for _, tg := range p.Targets {
					expr := substitute(tg.Expr, values)
					res, err := s.prom.query(ctx, expr)
					if err != nil {
						t.Errorf("panel %q target %s: %v", p.Title, tg.RefID, err)
						continue
					}
					if len(res) > 0 {
						withData++
					}
				}
				key := strings.TrimSuffix(file, ".json") + "/" + p.Title
				why, mayBeEmpty := emptyPanels[key]
				switch {
				case withData == 0 && !mayBeEmpty:
					t.Errorf("panel %q shows no data on the live system", p.Title)
				case withData > 0 && mayBeEmpty:
					t.Errorf("panel %q shows data although emptyPanels says %q: remove it from the list", p.Title, why)
				}
			}
		})
	}
}

// emptyPanels are the panels ("<dashboard file without .json>/<title>") that have no
// data on the live system, and why. Every panel of the four dashboards shows data today.
var emptyPanels = map[string]string{}
