package promctrl

import (
	"context"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/selection"
)

func agent(name string, mut ...func(*monitoringv1alpha1.PrometheusAgent)) *monitoringv1alpha1.PrometheusAgent {
	a := &monitoringv1alpha1.PrometheusAgent{
		ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, UID: types.UID("uid-agent-" + name), Generation: 1},
		Spec: monitoringv1alpha1.PrometheusAgentSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			ServiceMonitorNamespaceSelector: &metav1.LabelSelector{},
			RemoteWrite:                     []monitoringv1.RemoteWriteSpec{{URL: "http://receiver.mon.svc:9090/api/v1/write"}},
		}},
	}
	for _, m := range mut {
		m(a)
	}
	return a
}

func (f *fixture) agentCondition(name string) monitoringv1.Condition {
	f.t.Helper()
	a := &monitoringv1alpha1.PrometheusAgent{}
	f.get(a, "mon", name)
	for _, c := range a.Status.Conditions {
		if c.Type == monitoringv1.Reconciled {
			return c
		}
	}
	f.t.Fatalf("PrometheusAgent %s has no Reconciled condition: %+v", name, a.Status.Conditions)
	return monitoringv1.Condition{}
}

func (f *fixture) agentConfig(name string) string {
	f.t.Helper()
	sec := &corev1.Secret{}
	f.get(sec, "mon", layout.Agent(name).ConfigSecret())
	return string(gunzipAll(f.t, sec.Data[layout.ConfigCompressedKey]))
}

// TestAgentGeneratesThenWritesNothing: a PrometheusAgent gets upstream's names (Secret and
// StatefulSet prom-agent-<name>, Service prometheus-agent-operated), an agent-mode
// Prometheus, a config without rules or alerting, its status and the monitors' bindings
// under prometheusagents; with nothing changed, further reconciles write nothing.
func TestAgentGeneratesThenWritesNothing(t *testing.T) {
	rule := &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "r", UID: "uid-r", Generation: 1, Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{
			{Record: "r:one", Expr: intstr.FromString("vector(1)")},
		}}}},
	}
	f := newFixture(t, Config{Kind: AgentKind}, agent("x"), serviceMonitor("web"), rule)
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	cfg := f.agentConfig("x")
	for _, want := range []string{"job_name: serviceMonitor/app/web/0", "remote_write:", "url: http://receiver.mon.svc:9090/api/v1/write"} {
		if !strings.Contains(cfg, want) {
			t.Fatalf("agent config lacks %q:\n%s", want, cfg)
		}
	}
	for _, unwanted := range []string{"rule_files", "alerting", "evaluation_interval"} {
		if strings.Contains(cfg, unwanted) {
			t.Fatalf("agent config has %q:\n%s", unwanted, cfg)
		}
	}
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prom-agent-x")
	if ss.Spec.ServiceName != "prometheus-agent-operated" {
		t.Fatalf("StatefulSet governed by %q", ss.Spec.ServiceName)
	}
	if o := ss.OwnerReferences; len(o) != 1 || o[0].Kind != "PrometheusAgent" || o[0].APIVersion != "monitoring.coreos.com/v1alpha1" || o[0].UID != "uid-agent-x" {
		t.Fatalf("owner references %+v", o)
	}
	var args string
	for _, c := range ss.Spec.Template.Spec.Containers {
		if c.Name == "prometheus" {
			args = strings.Join(c.Args, " ")
		}
	}
	if !strings.Contains(args, "--agent") || !strings.Contains(args, "--storage.agent.path=") || strings.Contains(args, "--storage.tsdb") {
		t.Fatalf("prometheus args %q: want agent mode", args)
	}
	f.get(&corev1.Service{}, "mon", "prometheus-agent-operated")
	var cms corev1.ConfigMapList
	if err := f.c.List(context.Background(), &cms, client.InNamespace("mon")); err != nil {
		t.Fatal(err)
	}
	if len(cms.Items) != 0 {
		t.Fatalf("an agent got ConfigMaps: %s", cms.Items[0].Name)
	}
	if c := f.agentCondition("x"); c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonReconciled {
		t.Fatalf("condition %+v", c)
	}
	vs, _ := f.store.Verdicts(monitoringv1.ServiceMonitorsKind, types.NamespacedName{Namespace: "app", Name: "web"})
	owner := f.r.Owner(types.NamespacedName{Namespace: "mon", Name: "x"})
	if owner.Resource != "prometheusagents" {
		t.Fatalf("owner %+v, want resource prometheusagents", owner)
	}
	if v := vs[owner]; v.Reason != selection.Accepted {
		t.Fatalf("verdict %+v", v)
	}
	before := f.totalWrites()
	for i := 0; i < 3; i++ {
		if err := f.reconcile("mon", "x"); err != nil {
			t.Fatal(err)
		}
	}
	if after := f.totalWrites(); after != before {
		t.Fatalf("%v writes with nothing changed", after-before)
	}
}

// TestAgentWithoutRemoteWrite: an agent that would send its samples nowhere runs, as
// prometheus-operator runs it (issue 33), and its Reconciled condition says what it lacks.
func TestAgentWithoutRemoteWrite(t *testing.T) {
	a := agent("x", func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.RemoteWrite = nil })
	f := newFixture(t, Config{Kind: AgentKind}, a, serviceMonitor("web"))
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	c := f.agentCondition("x")
	if c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonNoRemoteWrite || !strings.Contains(c.Message, "spec.remoteWrite is empty") {
		t.Fatalf("condition %+v", c)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prom-agent-x"}, &appsv1.StatefulSet{}); err != nil {
		t.Fatalf("no StatefulSet for an agent without remote write: %v", err)
	}
}

// TestAgentShards: shards get upstream's names prom-agent-<name>-shard-<n>, each with its
// shard in the config, and scaling down removes the extra StatefulSet.
func TestAgentShards(t *testing.T) {
	a := agent("x", func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.Shards = ptr.To(int32(3)) })
	f := newFixture(t, Config{Kind: AgentKind}, a, serviceMonitor("web"))
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"prom-agent-x", "prom-agent-x-shard-1", "prom-agent-x-shard-2"} {
		f.get(&appsv1.StatefulSet{}, "mon", n)
	}
	if cfg := f.agentConfig("x"); !strings.Contains(cfg, "modulus: 3") {
		t.Fatalf("config without the shard modulus:\n%s", cfg)
	}
	live := &monitoringv1alpha1.PrometheusAgent{}
	f.get(live, "mon", "x")
	live.Spec.Shards = ptr.To(int32(1))
	live.Generation = 2
	if err := f.c.Update(context.Background(), live); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prom-agent-x-shard-2"}, &appsv1.StatefulSet{}); err == nil {
		t.Fatal("shard 2 kept after scaling down to one shard")
	}
}

// TestAgentAndPrometheusOfOneName: a Prometheus and a PrometheusAgent named alike in one
// namespace do not collide: their objects and Services have names of their own.
func TestAgentAndPrometheusOfOneName(t *testing.T) {
	fa := newFixture(t, Config{Kind: AgentKind}, agent("x"), prom("x"), serviceMonitor("web"))
	fp := &fixture{t: t, c: fa.c, writes: fa.writes, store: fa.store, recorder: fa.recorder}
	d := fa.r.Deps
	d.Metrics = nil
	fp.r = New(Deps{Deps: d}, Config{Config: instance.Config{Workload: fa.r.cfg.Workload}})
	if err := fa.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	if err := fp.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"prom-agent-x", "prometheus-x"} {
		fa.get(&appsv1.StatefulSet{}, "mon", n)
		fa.get(&corev1.Secret{}, "mon", n)
	}
	for _, n := range []string{"prometheus-agent-operated", "prometheus-operated"} {
		fa.get(&corev1.Service{}, "mon", n)
	}
	vs, _ := fa.store.Verdicts(monitoringv1.ServiceMonitorsKind, types.NamespacedName{Namespace: "app", Name: "web"})
	if len(vs) != 2 {
		t.Fatalf("verdicts %+v, want one per owner", vs)
	}
}

func daemonSetAgent(name string, mut ...func(*monitoringv1alpha1.PrometheusAgent)) *monitoringv1alpha1.PrometheusAgent {
	return agent(name, append([]func(*monitoringv1alpha1.PrometheusAgent){func(a *monitoringv1alpha1.PrometheusAgent) {
		a.Spec.Mode = ptr.To(monitoringv1alpha1.DaemonSetPrometheusAgentMode)
		a.Spec.ServiceMonitorSelector, a.Spec.ServiceMonitorNamespaceSelector = nil, nil
		a.Spec.PodMonitorSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
		a.Spec.PodMonitorNamespaceSelector = &metav1.LabelSelector{}
	}}, mut...)...)
}

func podMonitor(name string) *monitoringv1.PodMonitor {
	return &monitoringv1.PodMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name, UID: types.UID("uid-pm-" + name), Generation: 1, Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PodMonitorSpec{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{{Port: ptr.To("web")}}},
	}
}

// TestAgentDaemonSetMode: with the feature gate, an agent in DaemonSet mode gets a
// DaemonSet (no StatefulSet, no governing Service) and a config that discovers only its
// node's pods; its status counts the DaemonSet's pods; a second reconcile writes nothing;
// back in StatefulSet mode the DaemonSet goes and the StatefulSet comes.
func TestAgentDaemonSetMode(t *testing.T) {
	f := newFixture(t, Config{Kind: AgentKind, AgentDaemonSet: true}, daemonSetAgent("x"), podMonitor("web"))
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	ds := &appsv1.DaemonSet{}
	f.get(ds, "mon", "prom-agent-x")
	if o := ds.OwnerReferences; len(o) != 1 || o[0].Kind != "PrometheusAgent" {
		t.Fatalf("owners %+v", o)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prom-agent-x"}, &appsv1.StatefulSet{}); err == nil {
		t.Fatal("a StatefulSet in DaemonSet mode")
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prometheus-agent-operated"}, &corev1.Service{}); err == nil {
		t.Fatal("a governing Service in DaemonSet mode")
	}
	if cfg := f.agentConfig("x"); !strings.Contains(cfg, "field: spec.nodeName=$(NODE_NAME)") || !strings.Contains(cfg, "job_name: podMonitor/app/web/0") {
		t.Fatalf("config:\n%s", cfg)
	}
	c := f.agentCondition("x")
	if c.Status != monitoringv1.ConditionTrue {
		t.Fatalf("Reconciled %+v", c)
	}
	ds.Status = appsv1.DaemonSetStatus{DesiredNumberScheduled: 3, NumberAvailable: 3, UpdatedNumberScheduled: 3, ObservedGeneration: ds.Generation}
	if err := f.c.Status().Update(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	live := &monitoringv1alpha1.PrometheusAgent{}
	f.get(live, "mon", "x")
	if live.Status.Replicas != 3 || live.Status.AvailableReplicas != 3 {
		t.Fatalf("status %+v", live.Status)
	}
	before := f.totalWrites()
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	if w := f.totalWrites() - before; w != 0 {
		t.Fatalf("%v writes with nothing changed", w)
	}

	live.Spec.Mode = nil
	live.Spec.ServiceMonitorSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	live.Generation = 2
	if err := f.c.Update(context.Background(), live); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "x"); err != nil {
		t.Fatal(err)
	}
	f.get(&appsv1.StatefulSet{}, "mon", "prom-agent-x")
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prom-agent-x"}, &appsv1.DaemonSet{}); err == nil {
		t.Fatal("the DaemonSet stayed after the switch to StatefulSet mode")
	}
}

// TestAgentDaemonSetRefusals: without the feature gate, or with a ServiceMonitor selector
// (which upstream's CRD forbids in DaemonSet mode; an older CRD lets it through), the agent
// is refused with a status that says why and nothing is generated.
func TestAgentDaemonSetRefusals(t *testing.T) {
	for _, c := range []struct {
		gate bool
		mut  func(*monitoringv1alpha1.PrometheusAgent)
		want string
	}{
		{false, func(*monitoringv1alpha1.PrometheusAgent) {}, "needs the PrometheusAgentDaemonSet feature gate"},
		{true, func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.ServiceMonitorSelector = &metav1.LabelSelector{} },
			"spec.serviceMonitorSelector cannot be set when mode is DaemonSet: an agent per node scrapes only the pods of its node, selected by PodMonitors"},
		{true, func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.Replicas = ptr.To[int32](2) }, "spec.replicas cannot be set when mode is DaemonSet"},
	} {
		f := newFixture(t, Config{Kind: AgentKind, AgentDaemonSet: c.gate}, daemonSetAgent("x", c.mut), podMonitor("web"))
		_ = f.reconcile("mon", "x")
		cond := f.agentCondition("x")
		if cond.Status != monitoringv1.ConditionFalse || cond.Reason != ReasonInvalidConfiguration || !strings.Contains(cond.Message, c.want) {
			t.Errorf("condition %+v, want %q", cond, c.want)
		}
		if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prom-agent-x"}, &corev1.Secret{}); err == nil {
			t.Errorf("%s: a config Secret was written", c.want)
		}
	}
}
