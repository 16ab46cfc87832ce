package promplan

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

func liveSet(name string, shard int32, spec, replicas, updated, available int32) appsv1.StatefulSet {
	return appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "monitoring", Labels: objectLabels(promserver.Of(&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: "k8s"}}), shard)},
		Spec:       appsv1.StatefulSetSpec{Replicas: ptr.To(spec)},
		Status:     appsv1.StatefulSetStatus{Replicas: replicas, UpdatedReplicas: updated, AvailableReplicas: available},
	}
}

func TestStatus(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	sharded := func(shards, replicas int32) *monitoringv1.Prometheus {
		return prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To(shards)
			p.Spec.Replicas = ptr.To(replicas)
		})
	}
	cases := []struct {
		name   string
		p      *monitoringv1.Prometheus
		sets   []appsv1.StatefulSet
		pods   []corev1.Pod
		status monitoringv1.ConditionStatus
		reason string
		msg    []string
		totals [4]int32 // replicas, updated, available, unavailable
	}{
		{
			name:   "all available",
			p:      sharded(2, 2),
			sets:   []appsv1.StatefulSet{liveSet("prometheus-k8s", 0, 2, 2, 2, 2), liveSet("prometheus-k8s-shard-1", 1, 2, 2, 2, 2)},
			status: monitoringv1.ConditionTrue, reason: workload.ReasonAllReplicasAvailable, msg: []string{"4/4 replicas available"},
			totals: [4]int32{4, 4, 4, 0},
		},
		{
			name: "one shard degraded",
			p:    sharded(2, 2),
			sets: []appsv1.StatefulSet{liveSet("prometheus-k8s", 0, 2, 2, 2, 2), liveSet("prometheus-k8s-shard-1", 1, 2, 2, 1, 1)},
			pods: []corev1.Pod{
				{
					ObjectMeta: metav1.ObjectMeta{Name: "prometheus-k8s-shard-1-1", Namespace: "monitoring", Labels: objectLabels(promserver.Of(&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: "k8s"}}), 1)},
					Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
						{Name: "prometheus", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}},
					}},
				},
				{
					ObjectMeta: metav1.ObjectMeta{Name: "prometheus-k8s-shard-1-0", Namespace: "monitoring", Labels: objectLabels(promserver.Of(&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: "k8s"}}), 1)},
					Status:     corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
				},
			},
			status: monitoringv1.ConditionDegraded, reason: workload.ReasonSomePodsNotReady,
			msg:    []string{"3/4 replicas available", "shard 1 (StatefulSet prometheus-k8s-shard-1): 1/2 available", "pod prometheus-k8s-shard-1-1: container prometheus is waiting: CrashLoopBackOff"},
			totals: [4]int32{4, 3, 3, 1},
		},
		{
			name: "nothing available",
			p:    prom(),
			sets: []appsv1.StatefulSet{liveSet("prometheus-k8s", 0, 1, 1, 1, 0)},
			pods: []corev1.Pod{{
				ObjectMeta: metav1.ObjectMeta{Name: "prometheus-k8s-0", Labels: objectLabels(promserver.Of(&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: "k8s"}}), 0)},
				Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{
					{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable"},
				}},
			}},
			status: monitoringv1.ConditionFalse, reason: workload.ReasonNoPodReady,
			msg:    []string{"0/1 replicas available", "pod prometheus-k8s-0: not scheduled: Unschedulable"},
			totals: [4]int32{1, 1, 0, 1},
		},
		{
			name:   "missing shard",
			p:      sharded(2, 1),
			sets:   []appsv1.StatefulSet{liveSet("prometheus-k8s", 0, 1, 1, 1, 1)},
			status: monitoringv1.ConditionDegraded, reason: workload.ReasonSomePodsNotReady,
			msg:    []string{"1/2 replicas available", "shard 1: StatefulSet prometheus-k8s-shard-1 not found"},
			totals: [4]int32{1, 1, 1, 0},
		},
		{
			name:   "zero replicas",
			p:      sharded(1, 0),
			sets:   []appsv1.StatefulSet{liveSet("prometheus-k8s", 0, 0, 0, 0, 0)},
			status: monitoringv1.ConditionTrue, reason: workload.ReasonNoReplicasRequested,
			totals: [4]int32{0, 0, 0, 0},
		},
		{
			name: "shard being removed counts in totals only",
			p:    sharded(1, 1),
			sets: []appsv1.StatefulSet{
				liveSet("prometheus-k8s-shard-1", 1, 1, 1, 1, 0),
				liveSet("prometheus-k8s", 0, 1, 1, 1, 1),
				liveSet("prometheus-k8s-copy", 0, 1, 1, 1, 0), // labelled as shard 0, but the named one wins
			},
			status: monitoringv1.ConditionTrue, reason: workload.ReasonAllReplicasAvailable,
			totals: [4]int32{2, 2, 1, 1},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := Status(promserver.Of(c.p), c.sets, c.pods, now)
			if len(st.Conditions) != 1 {
				t.Fatalf("conditions %+v", st.Conditions)
			}
			cond := st.Conditions[0]
			if cond.Type != monitoringv1.Available || cond.Status != c.status || cond.Reason != c.reason {
				t.Errorf("condition %s=%s (%s), want %s (%s)", cond.Type, cond.Status, cond.Reason, c.status, c.reason)
			}
			for _, m := range c.msg {
				if !strings.Contains(cond.Message, m) {
					t.Errorf("message %q lacks %q", cond.Message, m)
				}
			}
			if !cond.LastTransitionTime.Equal(&now) || cond.ObservedGeneration != 3 {
				t.Errorf("time %v generation %d", cond.LastTransitionTime, cond.ObservedGeneration)
			}
			got := [4]int32{st.Replicas, st.UpdatedReplicas, st.AvailableReplicas, st.UnavailableReplicas}
			if got != c.totals {
				t.Errorf("totals %v, want %v", got, c.totals)
			}
			wantShards := max(ptr.Deref(c.p.Spec.Shards, 1), 1)
			if st.Shards != wantShards || st.Selector != Selector(promserver.Of(c.p)) {
				t.Errorf("shards %d selector %q", st.Shards, st.Selector)
			}
		})
	}
}

func TestStatusShardStatusesAndTransitions(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) {
		p.Spec.Shards = ptr.To[int32](2)
		p.Spec.Paused = true
	})
	sets := []appsv1.StatefulSet{liveSet("prometheus-k8s-shard-1", 1, 1, 1, 0, 1), liveSet("prometheus-k8s", 0, 1, 1, 1, 1)}
	t0 := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	st := Status(promserver.Of(p), sets, nil, t0)
	if !st.Paused {
		t.Error("paused not reported")
	}
	want := []monitoringv1.ShardStatus{
		{ShardID: "0", Replicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1},
		{ShardID: "1", Replicas: 1, UpdatedReplicas: 0, AvailableReplicas: 1},
	}
	if len(st.ShardStatuses) != 2 || st.ShardStatuses[0] != want[0] || st.ShardStatuses[1] != want[1] {
		t.Errorf("shard statuses %+v", st.ShardStatuses)
	}

	// Same status later keeps the transition time; a change takes the new time.
	p.Status = st
	t1 := metav1.NewTime(t0.Add(time.Hour))
	if again := Status(promserver.Of(p), sets, nil, t1); !again.Conditions[0].LastTransitionTime.Equal(&t0) {
		t.Errorf("unchanged condition moved to %v", again.Conditions[0].LastTransitionTime)
	}
	sets[0].Status.AvailableReplicas = 0
	if changed := Status(promserver.Of(p), sets, nil, t1); changed.Conditions[0].Status != monitoringv1.ConditionDegraded || !changed.Conditions[0].LastTransitionTime.Equal(&t1) {
		t.Errorf("changed condition %+v", changed.Conditions[0])
	}
}

func TestStatusLimitsPodsInMessage(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) { p.Spec.Replicas = ptr.To[int32](5) })
	var pods []corev1.Pod
	for _, n := range []string{"4", "0", "3", "1", "2"} {
		pods = append(pods, corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "prometheus-k8s-" + n, Labels: map[string]string{
			layout.OperatorNameLabel: "k8s", layout.ShardLabel: "0",
		}}})
	}
	st := Status(promserver.Of(p), []appsv1.StatefulSet{liveSet("prometheus-k8s", 0, 5, 5, 5, 0)}, pods, metav1.Now())
	msg := st.Conditions[0].Message
	if !strings.Contains(msg, "pod prometheus-k8s-0: not ready, pod prometheus-k8s-1: not ready, pod prometheus-k8s-2: not ready, 2 more pods not ready") {
		t.Errorf("message %q", msg)
	}
}
