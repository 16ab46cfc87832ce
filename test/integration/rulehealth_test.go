package integration

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// fakeRulesAPI serves /api/v1/rules as Prometheus does, from groups the test changes.
type fakeRulesAPI struct {
	mu       sync.Mutex
	groups   []string // JSON objects
	requests atomic.Int32
}

func (f *fakeRulesAPI) set(groups ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.groups = groups
}

func (f *fakeRulesAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/rules" {
		http.NotFound(w, r)
		return
	}
	f.requests.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(w, `{"status":"success","data":{"groups":[%s]}}`, strings.Join(f.groups, ","))
}

// fakeGroup is the group named group of the PrometheusRule rule's file, its rules given
// as JSON objects.
func fakeGroup(rule *monitoringv1.PrometheusRule, group string, interval, evalTime float64, rules ...string) string {
	file := fmt.Sprintf("/etc/prometheus/rules/prometheus-p-rulefiles-0/%s-%s-%s.yaml", rule.Namespace, rule.Name, rule.UID)
	return fmt.Sprintf(`{"name":%q,"file":%q,"rules":[%s],"interval":%g,"limit":0,"evaluationTime":%g,"lastEvaluation":"2026-12-05T10:00:00Z"}`,
		group, file, strings.Join(rules, ","), interval, evalTime)
}

func fakeAlertRule(name, health, lastErr string, firing int) string {
	var alerts []string
	for i := range firing {
		alerts = append(alerts, fmt.Sprintf(`{"labels":{"alertname":%q,"pod":"p-%d"},"annotations":{},"state":"firing","activeAt":"2026-12-05T09:00:00Z","value":"1e+00"}`, name, i))
	}
	return fmt.Sprintf(`{"state":"inactive","name":%q,"query":"x","duration":0,"labels":{},"annotations":{},"alerts":[%s],"health":%q,"lastError":%q,"evaluationTime":0.001,"type":"alerting"}`,
		name, strings.Join(alerts, ","), health, lastErr)
}

// manyToManyErr is Prometheus's error of a many-to-many match, naming the series v.
func manyToManyErr(v string) string {
	return `found duplicate series for the match group {} on the right hand-side of the operation: [{__name__="y", a="` + v + `"}, {__name__="y", a="2"}];many-to-many matching not allowed: matching labels must be unique on one side`
}

// rulesHealthy returns "<status> <reason> <message>" of the RulesHealthy condition of
// the PrometheusRule's binding by prom, whose Accepted condition must be True.
func rulesHealthy(ns, name, prom string) (string, error) {
	r := &monitoringv1.PrometheusRule{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, r); err != nil {
		return "", err
	}
	for _, b := range r.Status.Bindings {
		if b.Name != prom {
			continue
		}
		if len(b.Conditions) != 2 || b.Conditions[0].Type != monitoringv1.Accepted || b.Conditions[0].Status != monitoringv1.ConditionTrue {
			return "", fmt.Errorf("%s: conditions %+v", name, b.Conditions)
		}
		c := b.Conditions[1]
		if c.Type != "RulesHealthy" || c.ObservedGeneration != r.Generation {
			return "", fmt.Errorf("%s: condition %+v", name, c)
		}
		return fmt.Sprintf("%s %s %s", c.Status, c.Reason, c.Message), nil
	}
	return "", fmt.Errorf("%s: no binding of %s among %+v", name, prom, r.Status.Bindings)
}

// TestRuleHealth: an operator polling a fake rules API (served on loopback by the test,
// behind a Pod object at that address) writes the RulesHealthy condition of each
// PrometheusRule with exact messages, one request per period, nothing while only
// evaluation times or the series in an error change, again when an error is fixed or the
// firing alerts change; kubectl's table shows the Rules column.
func TestRuleHealth(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	reg := prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.Registry = reg
		o.TargetHealthInterval = 200 * time.Millisecond
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	good := newRule(ns, "good", alertGroup("g", "Up", "vector(1)"))
	bad := newRule(ns, "bad", alertGroup("b", "Broken", "x * on() y"))
	notLoaded := newRule(ns, "notloaded", alertGroup("n", "Later", "vector(1)"))
	p := newPrometheus(ns, "p", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{dedicatedLabel: ns} })
	create(t, p, good, bad, notLoaded)

	api := &fakeRulesAPI{}
	answer := func(badErr string, evalTime float64, firing int) {
		health := "ok"
		if badErr != "" {
			health = "err"
		}
		api.set(
			fakeGroup(good, "g", 30, evalTime, fakeAlertRule("Up", "ok", "", firing), fakeAlertRule("Up2", "ok", "", 0)),
			fakeGroup(bad, "b", 1, evalTime*100, fakeAlertRule("Broken", health, badErr, 0)),
		)
	}
	answer(manyToManyErr("1"), 0.002, 3)
	srv := httptest.NewServer(api)
	defer srv.Close()
	runningPrometheusPod(t, p, srv.Listener.Addr().String())

	expect := func(what string, want map[string]string) {
		t.Helper()
		eventually(t, 30*time.Second, what, func() error {
			for name, w := range want {
				got, err := rulesHealthy(ns, name, "p")
				if err != nil {
					return err
				}
				if got != w {
					return fmt.Errorf("%s: %q, want %q", name, got, w)
				}
			}
			return nil
		})
	}
	want := map[string]string{
		"good":      "True RulesEvaluating 2/2 rules evaluating, 3 firing",
		"bad":       "False RuleErrors 0/1: rule Broken (group b): many-to-many matching not allowed: matching labels must be unique on one side",
		"notloaded": "Unknown NotLoaded no rule group of this object is loaded yet (the rule file is not in the running configuration, or the object has no groups)",
	}
	expect("first health", want)

	// Other evaluation times, other series in the error: no status write over many polls.
	statusWrites := func() float64 { return writeCountsOf(reg)["PrometheusRule/apply-status"] }
	before, requests := statusWrites(), api.requests.Load()
	time.Sleep(time.Second)
	answer(manyToManyErr("7"), 0.004, 3)
	time.Sleep(time.Second)
	if polls := api.requests.Load() - requests; polls < 4 || polls > 12 {
		t.Fatalf("%d rules requests in 2 s at a 200 ms period, want about 10 (one per poll)", polls)
	}
	if w := statusWrites() - before; w != 0 {
		t.Fatalf("%v PrometheusRule status writes while the rule health did not change", w)
	}

	// The error fixed, a group slower than its interval, another firing count: written.
	answer("", 0.02, 1)
	want["good"] = "True RulesEvaluating 2/2 rules evaluating, 1 firing"
	want["bad"] = "True SlowEvaluation 1/1 rules evaluating; warning: group b takes longer to evaluate than its 1s interval (evaluations are skipped)"
	expect("fixed", want)

	// kubectl get: the Rules column.
	hc, err := rest.HTTPClientFor(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(env.Config.Host, "/")+"/apis/monitoring.coreos.com/v1/namespaces/"+ns+"/prometheusrules", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("table: %s %v\n%s", resp.Status, err, body)
	}
	for _, w := range []string{`"name":"Rules"`, `"2/2 rules evaluating, 1 firing"`} {
		if !strings.Contains(string(body), w) {
			t.Errorf("the table lacks %s:\n%s", w, body)
		}
	}

	// The Prometheus pod goes away: after two failed polls, Unknown.
	srv.Close()
	expect("unreachable", map[string]string{
		"good": "Unknown PrometheusUnreachable the rules API could not be asked: shard 0 (pod prometheus-p-0): connection refused",
	})
}
