//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// TestOperatorRestart: an operator restarted under a running Prometheus with an invalid
// rule edit pending rewrites nothing (no API write, every generated object keeps its
// resourceVersion, the pod is not rolled), keeps serving the last accepted rule, and its
// config hash matches the one the reloader confirmed loading.
func TestOperatorRestart(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	op := sc.startOperator("restart")
	app := startSampleApp(t, sc.ns, "sample", allocateIPs(1))
	mustCreate(t,
		sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{operatorLabel: "restart"} }),
		sampleServiceMonitor(sc, app),
	)
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}
	rule := recordingRule(sc, "rule", "e2e:rule", "vector(1)")
	mustCreate(t, rule)
	sc.step("target up and rule served", 60*time.Second, func() error {
		if err := oneTargetUp(prom, fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns), nil); err != nil {
			return err
		}
		return servesRule(prom, "e2e:rule", "vector(1)")
	})
	setExpr(t, rule, "vector(")
	sc.step("invalid edit rejected", 30*time.Second, func() error {
		var got monitoringv1.PrometheusRule
		if err := s.k8s.Get(ctx, client.ObjectKeyFromObject(rule), &got); err != nil {
			return err
		}
		return accepted(got.Status.Bindings, sc.ns, "main", false)
	})
	sc.step("config loaded by the reloader is the one the operator generated", 30*time.Second, func() error {
		return configHashesMatch(op, pd, sc.ns, "main")
	})

	before, err := generatedVersions(ctx, sc.ns, "main")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := op.Stop(30 * time.Second); err != nil {
		t.Errorf("operator stop: %v", err)
	}
	op = sc.startOperator("restart")
	t.Logf("operator restarted in %s", time.Since(t0).Round(time.Millisecond))
	sc.step("restarted operator reconciled the Prometheus", 30*time.Second, func() error {
		m, err := scrapeMetrics(operatorMetricsURL(op))
		if err != nil {
			return err
		}
		if m[`controller_runtime_reconcile_total{controller="prometheus",result="success"}`] < 1 {
			return fmt.Errorf("no successful Prometheus reconcile yet")
		}
		return configHashesMatch(op, pd, sc.ns, "main")
	})
	var m map[string]float64
	sc.step("restarted operator idle", 30*time.Second, func() error {
		var err error
		m, err = operatorIdle(op)
		return err
	})
	for k, v := range m {
		if strings.HasPrefix(k, "lookout_api_writes_total") && v > 0 {
			t.Errorf("the restarted operator wrote to the API: %s = %v", k, v)
		}
	}
	after, err := generatedVersions(ctx, sc.ns, "main")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed across the operator restart: resourceVersion %s -> %s", k, v, after[k])
		}
	}
	if err := servesRule(prom, "e2e:rule", "vector(1)"); err != nil {
		t.Errorf("after the restart: %v", err)
	}
}

// operatorIdle returns the operator's metrics once no controller has work queued or in
// progress.
func operatorIdle(op *proc) (map[string]float64, error) {
	m, err := scrapeMetrics(operatorMetricsURL(op))
	if err != nil {
		return nil, err
	}
	for k, v := range m {
		if (strings.HasPrefix(k, "workqueue_depth{") || strings.HasPrefix(k, "controller_runtime_active_workers{")) && v != 0 {
			return nil, fmt.Errorf("operator busy: %s = %v", k, v)
		}
	}
	return m, nil
}

// operatorMetricsURL is the /metrics of an operator started by startOperator.
func operatorMetricsURL(op *proc) string {
	for _, a := range op.Args() {
		if v, ok := strings.CutPrefix(a, "--metrics-bind-address="); ok {
			return "http://" + v + "/metrics"
		}
	}
	panic("operator without --metrics-bind-address")
}

// configHashesMatch compares the hash of the config the operator generated for a
// Prometheus (lookout_prometheus_config_info) with the one its reloader confirmed loading
// (reloader_config_info).
func configHashesMatch(op *proc, p *pod, ns, name string) error {
	om, err := scrapeMetrics(operatorMetricsURL(op))
	if err != nil {
		return err
	}
	rm, err := scrapeMetrics(p.url("reloader-web") + "/metrics")
	if err != nil {
		return err
	}
	var generated, loaded []string
	for k := range om {
		if strings.HasPrefix(k, "lookout_prometheus_config_info{") && strings.Contains(k, fmt.Sprintf(`name=%q,namespace=%q`, name, ns)) {
			generated = append(generated, labelValue(k, "hash"))
		}
	}
	for k := range rm {
		if strings.HasPrefix(k, "reloader_config_info{") {
			loaded = append(loaded, labelValue(k, "hash"))
		}
	}
	if len(generated) != 1 || len(loaded) != 1 || generated[0] != loaded[0] {
		return fmt.Errorf("operator generated config %v, reloader loaded %v", generated, loaded)
	}
	return nil
}

// labelValue extracts a label from a scrapeMetrics key.
func labelValue(key, label string) string {
	_, rest, ok := strings.Cut(key, label+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// generatedVersions returns the resourceVersion of every object the operator generated
// for a Prometheus, by kind/name.
func generatedVersions(ctx context.Context, ns, name string) (map[string]string, error) {
	out := map[string]string{}
	for _, o := range []client.Object{
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: layout.Prometheus(name).ConfigSecret()}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: layout.Prometheus(name).WebConfigSecret()}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: layout.Prometheus(name).RuleConfigMap(0)}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: layout.GoverningServiceName}},
		&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: layout.Prometheus(name).StatefulSet(0)}},
		&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: name}},
	} {
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: o.GetName()}, o); err != nil {
			return nil, err
		}
		out[fmt.Sprintf("%T %s", o, o.GetName())] = o.GetResourceVersion()
	}
	return out, nil
}

// sampleServiceMonitor selects the sample app's Service, scraped every second.
func sampleServiceMonitor(sc *scenario, app *sampleApp) *monitoringv1.ServiceMonitor {
	return &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: app.name, Labels: sc.labels()},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
			Endpoints: []monitoringv1.Endpoint{{Port: samplePortName, Interval: "1s"}},
		},
	}
}

// TestTwoOperatorsShareGoverningService: two operators, each selecting its own Prometheus
// objects (--prometheus-instance-selector), run Prometheus objects in one namespace. The
// governing Service prometheus-operated serves the pods of both; it must be owned by both
// Prometheus objects, so that deleting one leaves it to the other (the garbage collector
// deletes an object with its last owner).
func TestTwoOperatorsShareGoverningService(t *testing.T) {
	sc := newScenario(t, 2*time.Minute)
	defer sc.done()
	ctx := context.Background()

	sc.startOperator("second")
	mustCreate(t,
		sc.prometheus(sc.ns, "a"),
		sc.prometheus(sc.ns, "b", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{operatorLabel: "second"} }),
	)
	sc.runPods(sc.ns, statefulSetName("a", 0), statefulSetName("b", 0))
	sc.step("governing Service owned by both Prometheus objects", 30*time.Second, func() error {
		var svc corev1.Service
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: layout.GoverningServiceName}, &svc); err != nil {
			return err
		}
		owners := map[string]bool{}
		for _, o := range svc.OwnerReferences {
			if o.Kind == monitoringv1.PrometheusesKind {
				owners[o.Name] = true
			}
		}
		if !owners["a"] || !owners["b"] {
			return fmt.Errorf("Service %s is owned by Prometheus %v, want a and b", layout.GoverningServiceName, keys(owners))
		}
		return nil
	})
}
