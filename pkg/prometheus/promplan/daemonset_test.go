package promplan

import (
	"slices"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

func daemonSetAgent(muts ...func(*monitoringv1alpha1.PrometheusAgent)) *monitoringv1alpha1.PrometheusAgent {
	return agent(append([]func(*monitoringv1alpha1.PrometheusAgent){func(a *monitoringv1alpha1.PrometheusAgent) {
		a.Spec.Mode = ptr.To(monitoringv1alpha1.DaemonSetPrometheusAgentMode)
		a.Spec.PodMonitorSelector = &metav1.LabelSelector{}
	}}, muts...)...)
}

func TestDaemonSetGolden(t *testing.T) {
	for _, c := range []struct {
		name  string
		p     monitoringv1.PrometheusInterface
		input Input
	}{
		{"minimal", daemonSetAgent(), Input{}},
		{"tolerations-resources-tls", daemonSetAgent(func(a *monitoringv1alpha1.PrometheusAgent) {
			a.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
			a.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
			a.Spec.PriorityClassName = "system-node-critical"
			a.Spec.MinReadySeconds = ptr.To[int32](10)
			a.Spec.Version = "v2.55.1"
			a.Spec.WALCompression = ptr.To(true)
		}), Input{TLSAssetSecrets: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.input.Prometheus = promserver.Of(c.p)
			ds, err := DaemonSet(c.input, workload.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "daemonset-"+c.name, toYAML(t, ds))
		})
	}
}

// TestDaemonSetPods: the pods are those of the StatefulSet mode without the shard: no
// shard label in the selector, NODE_NAME for the reloader, the agent's flags, and the
// WAL on an emptyDir.
func TestDaemonSetPods(t *testing.T) {
	ds, err := DaemonSet(Input{Prometheus: promserver.Of(daemonSetAgent())}, workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "prom-agent-k8s" || ds.Labels[layout.ModeLabel] != "agent" {
		t.Fatalf("name %s labels %v", ds.Name, ds.Labels)
	}
	if _, ok := ds.Spec.Selector.MatchLabels[layout.ShardLabel]; ok {
		t.Fatalf("selector with a shard label: %v", ds.Spec.Selector.MatchLabels)
	}
	pod := ds.Spec.Template.Spec
	var reloaderEnv []string
	for _, c := range append(pod.InitContainers, pod.Containers...) {
		if c.Name == workload.ReloaderContainerName {
			for _, e := range c.Env {
				reloaderEnv = append(reloaderEnv, e.Name)
				if e.Name == workload.NodeNameEnv && (e.ValueFrom == nil || e.ValueFrom.FieldRef.FieldPath != "spec.nodeName") {
					t.Fatalf("NODE_NAME %+v", e)
				}
			}
		}
		if c.Name == PrometheusContainerName && !strings.Contains(strings.Join(c.Args, " "), "--agent") {
			t.Fatalf("prometheus args %v", c.Args)
		}
	}
	if !strings.Contains(strings.Join(reloaderEnv, ","), workload.NodeNameEnv) {
		t.Fatalf("reloader env %v lacks %s", reloaderEnv, workload.NodeNameEnv)
	}
	emptyDir := false
	for _, v := range pod.Volumes {
		if v.EmptyDir != nil && strings.HasSuffix(v.Name, "-db") {
			emptyDir = true
		}
	}
	if !emptyDir {
		t.Fatalf("no emptyDir for the WAL among %+v", pod.Volumes)
	}
	// The StatefulSet mode of the same agent keeps its shard and has no NODE_NAME.
	sts, err := StatefulSet(Input{Prometheus: promserver.Of(agent())}, workload.DefaultOptions(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if sts.Spec.Selector.MatchLabels[layout.ShardLabel] != "0" {
		t.Fatalf("StatefulSet selector %v", sts.Spec.Selector.MatchLabels)
	}
}

// TestDaemonSetRefusals: the fields DaemonSet mode cannot have are refused with the
// message upstream's CRD rules give.
func TestDaemonSetRefusals(t *testing.T) {
	for _, c := range []struct {
		mut  func(*monitoringv1alpha1.PrometheusAgent)
		want string
	}{
		{func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.Replicas = ptr.To[int32](2) }, "spec.replicas cannot be set when mode is DaemonSet"},
		{func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.Shards = ptr.To[int32](2) }, "spec.shards cannot be greater than 1"},
		{func(a *monitoringv1alpha1.PrometheusAgent) {
			a.Spec.Storage = &monitoringv1.StorageSpec{EmptyDir: &corev1.EmptyDirVolumeSource{}}
		}, "spec.storage cannot be set"},
		{func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.ServiceMonitorSelector = &metav1.LabelSelector{} }, "spec.serviceMonitorSelector cannot be set when mode is DaemonSet: an agent per node scrapes only the pods of its node, selected by PodMonitors"},
		{func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.ProbeSelector = &metav1.LabelSelector{} }, "spec.probeSelector cannot be set"},
		{func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.ScrapeConfigSelector = &metav1.LabelSelector{} }, "spec.scrapeConfigSelector cannot be set"},
	} {
		_, err := DaemonSet(Input{Prometheus: promserver.Of(daemonSetAgent(c.mut))}, workload.DefaultOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	if _, err := DaemonSet(Input{Prometheus: promserver.Of(agent())}, workload.DefaultOptions()); err == nil {
		t.Error("a DaemonSet for an agent in StatefulSet mode")
	}
}

// TestDaemonSetStatus: replicas are the DaemonSet's scheduled pods; no node scheduled is
// not Available.
func TestDaemonSetStatus(t *testing.T) {
	p := daemonSetAgent()
	now := metav1.Now()
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "prom-agent-k8s", Generation: 1},
		Status: appsv1.DaemonSetStatus{ObservedGeneration: 1, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberAvailable: 2, NumberUnavailable: 1}}
	st := DaemonSetStatus(promserver.Of(p), ds, now)
	if st.Replicas != 3 || st.AvailableReplicas != 2 || st.UnavailableReplicas != 1 || st.Shards != 1 {
		t.Fatalf("status %+v", st)
	}
	if c := st.Conditions[0]; c.Status != monitoringv1.ConditionDegraded || !strings.Contains(c.Message, "2 of 3 pods available") {
		t.Fatalf("condition %+v", c)
	}
	none := DaemonSetStatus(promserver.Of(p), nil, now)
	if c := none.Conditions[0]; c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, "does not exist yet") {
		t.Fatalf("condition without DaemonSet %+v", c)
	}
}

// TestDaemonSetReportRole: with ReloaderReportConfig the DaemonSet's reloader gets
// --report-pod, and its Role lets exactly the pods that exist patch their status: none
// (no pods/status rule at all, never one without names) before the first pod exists.
func TestDaemonSetReportRole(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderReportConfig = true
	p := promserver.Of(daemonSetAgent(func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.ServiceAccountName = "agent" }))
	ds, err := DaemonSet(Input{Prometheus: p}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, c := range ds.Spec.Template.Spec.Containers {
		if c.Name == workload.ReloaderContainerName {
			args = c.Args
		}
	}
	if !slices.Contains(args, workload.ReportPodArg(p.Namespace)) {
		t.Fatalf("reloader args %v lack %s", args, workload.ReportPodArg(p.Namespace))
	}
	role, err := ReloaderRoleFor(Input{Prometheus: p}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if role != nil && len(role.Rules) != 0 {
		t.Fatalf("rules before any pod exists: %+v", role.Rules)
	}
	pods := []string{"prom-agent-k8s-b9vzd", "prom-agent-k8s-x7k2q"}
	if role, err = ReloaderRoleFor(Input{Prometheus: p, DaemonSetPods: pods}, opts); err != nil {
		t.Fatal(err)
	}
	if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || !slices.Equal(role.Rules[0].ResourceNames, pods) || !slices.Equal(role.Rules[0].Verbs, []string{"patch"}) {
		t.Fatalf("rules %+v; want patch on the status of %v", role.Rules, pods)
	}
}
