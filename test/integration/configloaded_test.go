package integration

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
)

// TestConfigLoadedCondition: with --reloader-report-config the sidecar gets --report-pod
// and a Role to patch its own pods' status; the pods' reports (written as the reloader
// writes them, through pods/status) make the ConfigLoaded condition False naming the
// lagging pods, then True; a monitor change makes it False again until every replica
// reports the new hash; and nothing more is written once it holds.
func TestConfigLoadedCondition(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) { o.Workload.ReloaderReportConfig = true })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	create(t, newPrometheus(ns, "cl", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
		p.Spec.ServiceAccountName = "prom"
		p.Spec.Replicas = ptr.To[int32](2)
	}))
	eventually(t, 20*time.Second, "StatefulSet with --report-pod and the reloader's Role", func() error {
		sts, err := statefulSet(ns, "prometheus-cl")
		if err != nil {
			return err
		}
		for _, c := range sts.Spec.Template.Spec.Containers {
			if c.Name == "config-reloader" && !slices.Contains(c.Args, "--report-pod="+ns+"/$(POD_NAME)") {
				return fmt.Errorf("reloader args %s", strings.Join(c.Args, " "))
			}
		}
		role := &rbacv1.Role{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-cl-config-reloader"}, role); err != nil {
			return err
		}
		want := []string{"prometheus-cl-0", "prometheus-cl-1"}
		if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || !slices.Equal(role.Rules[0].ResourceNames, want) {
			return fmt.Errorf("role rules %+v", role.Rules)
		}
		return nil
	})
	sts, err := statefulSet(ns, "prometheus-cl")
	if err != nil {
		t.Fatal(err)
	}
	hash1 := configHash(t, ns, "prometheus-cl")
	short := func(h string) string { return h[:12] }

	// No pods yet.
	expectLoaded(t, ns, "cl", monitoringv1.ConditionFalse, "ReplicasLagging",
		"2 of 2 replicas do not run the latest configuration (sha256 "+short(hash1)+") yet: "+
			"prometheus-cl-0 (shard 0) does not exist, prometheus-cl-1 (shard 0) does not exist", 20*time.Second)

	// The pods as the StatefulSet controller would create them, running.
	writers := map[string]*podreport.PodWriter{}
	for _, name := range []string{"prometheus-cl-0", "prometheus-cl-1"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: sts.Spec.Template.Labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus"}}},
		}
		create(t, pod)
		pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}}
		if err := k8s.Status().Update(ctx, pod); err != nil {
			t.Fatal(err)
		}
		if writers[name], err = podreport.NewPodWriter(env.Config, ns, name, "test"); err != nil {
			t.Fatal(err)
		}
	}
	expectLoaded(t, ns, "cl", monitoringv1.ConditionFalse, "ReplicasLagging",
		"2 of 2 replicas do not run the latest configuration (sha256 "+short(hash1)+") yet: "+
			"prometheus-cl-0 (shard 0) has not reported a configuration, prometheus-cl-1 (shard 0) has not reported a configuration", 20*time.Second)

	report := func(pod, hash string) {
		t.Helper()
		if err := writers[pod].WriteConfigLoaded(ctx, hash); err != nil {
			t.Fatal(err)
		}
	}
	report("prometheus-cl-0", hash1)
	expectLoaded(t, ns, "cl", monitoringv1.ConditionFalse, "ReplicasLagging",
		"1 of 2 replicas do not run the latest configuration (sha256 "+short(hash1)+") yet: "+
			"prometheus-cl-1 (shard 0) has not reported a configuration", 20*time.Second)
	report("prometheus-cl-1", hash1)
	expectLoaded(t, ns, "cl", monitoringv1.ConditionTrue, "AllReplicasLoaded",
		"all 2 replicas run the latest configuration (sha256 "+short(hash1)+")", 20*time.Second)

	// The report kept the kubelet's conditions.
	pod := &corev1.Pod{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-cl-0"}, pod); err != nil {
		t.Fatal(err)
	}
	seen := map[corev1.PodConditionType]bool{}
	for _, c := range pod.Status.Conditions {
		seen[c.Type] = true
	}
	if len(pod.Status.Conditions) != 2 || !seen[corev1.PodReady] || !seen[podreport.ConditionType] {
		t.Errorf("pod conditions after the report: %+v", pod.Status.Conditions)
	}

	// A monitor change: a new configuration, False until both replicas report it.
	create(t, newServiceMonitor(ns, "app"))
	var hash2 string
	eventually(t, 20*time.Second, "a new configuration", func() error {
		if hash2 = configHash(t, ns, "prometheus-cl"); hash2 == hash1 {
			return fmt.Errorf("config hash unchanged")
		}
		return nil
	})
	expectLoaded(t, ns, "cl", monitoringv1.ConditionFalse, "ReplicasLagging",
		"2 of 2 replicas do not run the latest configuration (sha256 "+short(hash2)+") yet: "+
			"prometheus-cl-0 (shard 0) runs sha256 "+short(hash1)+", prometheus-cl-1 (shard 0) runs sha256 "+short(hash1), 20*time.Second)
	report("prometheus-cl-1", hash2)
	report("prometheus-cl-0", hash2)
	p := expectLoaded(t, ns, "cl", monitoringv1.ConditionTrue, "AllReplicasLoaded",
		"all 2 replicas run the latest configuration (sha256 "+short(hash2)+")", 20*time.Second)

	// No hot loop: the same report again, and kubelet-style status updates of the
	// pods, write nothing more to the Prometheus.
	report("prometheus-cl-0", hash2)
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-cl-1"}, pod); err != nil {
		t.Fatal(err)
	}
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodReady {
			pod.Status.Conditions[i].Status = corev1.ConditionFalse
		}
	}
	if err := k8s.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	after, err := getPrometheus(ns, "cl")
	if err != nil {
		t.Fatal(err)
	}
	if after.ResourceVersion != p.ResourceVersion {
		t.Errorf("the Prometheus was written again (resourceVersion %s -> %s): %+v", p.ResourceVersion, after.ResourceVersion, after.Status.Conditions)
	}
}

// configHash is the input hash of a config Secret, the hash the reloader reports.
func configHash(t *testing.T, ns, name string) string {
	t.Helper()
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sec); err != nil {
		t.Fatal(err)
	}
	return sec.Annotations[layout.InputHashAnnotation]
}

// expectLoaded waits for the ConfigLoaded condition of the Prometheus ns/name.
func expectLoaded(t *testing.T, ns, name string, status monitoringv1.ConditionStatus, reason, message string, timeout time.Duration) *monitoringv1.Prometheus {
	t.Helper()
	var p *monitoringv1.Prometheus
	eventually(t, timeout, fmt.Sprintf("ConfigLoaded=%s %s: %s", status, reason, message), func() error {
		var err error
		if p, err = getPrometheus(ns, name); err != nil {
			return err
		}
		c := condition(p, "ConfigLoaded")
		if c == nil {
			return fmt.Errorf("no ConfigLoaded condition")
		}
		if c.Status != status || c.Reason != reason || c.Message != message {
			return fmt.Errorf("ConfigLoaded=%s %s: %s", c.Status, c.Reason, c.Message)
		}
		return nil
	})
	return p
}
