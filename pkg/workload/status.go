package workload

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Reasons of the Available condition.
const (
	ReasonAllReplicasAvailable = "AllReplicasAvailable"
	ReasonNoReplicasRequested  = "NoReplicasRequested"
	ReasonSomePodsNotReady     = "SomePodsNotReady"
	ReasonNoPodReady           = "NoPodReady"
)

// maxPodsInMessage bounds how many unavailable pods the Available message names.
const maxPodsInMessage = 3

// Status computes the status of p from its live StatefulSets and, when the controller
// has them, its pods (used only to explain which pods are not ready). It fills replicas,
// updatedReplicas, availableReplicas, unavailableReplicas, shards, shardStatuses,
// selector, paused and the Available condition: True when every expected replica is
// available, Degraded when some are, False when none is. The controller adds Reconciled.
// now is the transition time of a condition whose status changed; an unchanged status
// keeps the time p.Status has.
func Status(p *promserver.Server, sets []appsv1.StatefulSet, pods []corev1.Pod, now metav1.Time) monitoringv1.PrometheusStatus {
	shards := max(ptr.Deref(p.Spec.Shards, 1), 1)
	replicas := max(ptr.Deref(p.Spec.Replicas, 1), 0)

	// A StatefulSet named like a shard wins over one only labelled with it.
	byShard := map[int32]*appsv1.StatefulSet{}
	named := map[int32]bool{}
	for i := range sets {
		s := &sets[i]
		shard, byName, ok := shardOf(p, s)
		if ok && !named[shard] {
			byShard[shard] = s
			named[shard] = byName
		}
	}
	ids := make([]int32, 0, len(byShard)+int(shards))
	for n := range shards {
		ids = append(ids, n)
	}
	for n := range byShard {
		if n >= shards {
			ids = append(ids, n)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })

	st := monitoringv1.PrometheusStatus{
		Paused:   p.Spec.Paused,
		Shards:   shards,
		Selector: Selector(p),
	}
	var available int32
	var problems []string
	for _, n := range ids {
		ss := monitoringv1.ShardStatus{ShardID: strconv.Itoa(int(n))}
		s := byShard[n]
		if s != nil {
			want := max(s.Status.Replicas, ptr.Deref(s.Spec.Replicas, 1))
			ss.Replicas = s.Status.Replicas
			ss.UpdatedReplicas = s.Status.UpdatedReplicas
			ss.AvailableReplicas = s.Status.AvailableReplicas
			ss.UnavailableReplicas = max(want-s.Status.AvailableReplicas, 0)
		}
		st.Replicas += ss.Replicas
		st.UpdatedReplicas += ss.UpdatedReplicas
		st.AvailableReplicas += ss.AvailableReplicas
		st.UnavailableReplicas += ss.UnavailableReplicas
		st.ShardStatuses = append(st.ShardStatuses, ss)

		if n >= shards {
			continue // a shard being removed; it no longer counts towards availability
		}
		available += min(ss.AvailableReplicas, replicas)
		name := Instance(p).StatefulSet(int(n))
		switch {
		case s == nil && replicas > 0:
			problems = append(problems, fmt.Sprintf("shard %d: StatefulSet %s not found", n, name))
		case s != nil && ss.AvailableReplicas < replicas:
			msg := fmt.Sprintf("shard %d (StatefulSet %s): %d/%d available", n, name, ss.AvailableReplicas, replicas)
			if why := unreadyPods(p, n, pods); why != "" {
				msg += " (" + why + ")"
			}
			problems = append(problems, msg)
		}
	}

	cond := availableCondition(replicas*shards, available, problems, p.Generation, p.Status.Conditions, now)
	st.Conditions = []monitoringv1.Condition{cond}
	return st
}

// availableCondition is the Available condition of a workload expecting expected
// replicas of which available are: True when all are, Degraded when some are, False when
// none is; problems explain the missing ones. The transition time of prev's Available
// condition is kept while its status does not change.
func availableCondition(expected, available int32, problems []string, generation int64, prev []monitoringv1.Condition, now metav1.Time) monitoringv1.Condition {
	cond := monitoringv1.Condition{
		Type:               monitoringv1.Available,
		ObservedGeneration: generation,
	}
	switch {
	case expected == 0:
		cond.Status, cond.Reason, cond.Message = monitoringv1.ConditionTrue, ReasonNoReplicasRequested, "spec.replicas is 0: no pods requested"
	case available >= expected:
		cond.Status, cond.Reason = monitoringv1.ConditionTrue, ReasonAllReplicasAvailable
		cond.Message = fmt.Sprintf("%d/%d replicas available", available, expected)
	case available == 0:
		cond.Status, cond.Reason = monitoringv1.ConditionFalse, ReasonNoPodReady
		cond.Message = fmt.Sprintf("0/%d replicas available: %s", expected, strings.Join(problems, "; "))
	default:
		cond.Status, cond.Reason = monitoringv1.ConditionDegraded, ReasonSomePodsNotReady
		cond.Message = fmt.Sprintf("%d/%d replicas available: %s", available, expected, strings.Join(problems, "; "))
	}
	cond.LastTransitionTime = now
	for _, c := range prev {
		if c.Type == monitoringv1.Available && c.Status == cond.Status && !c.LastTransitionTime.IsZero() {
			cond.LastTransitionTime = c.LastTransitionTime
		}
	}
	return cond
}

// shardOf returns the shard of a StatefulSet of p from its name, or, for names this
// package does not generate, from its labels (byName false).
func shardOf(p *promserver.Server, s *appsv1.StatefulSet) (shard int32, byName, ok bool) {
	if s.Namespace != "" && p.Namespace != "" && s.Namespace != p.Namespace {
		return 0, false, false
	}
	if s.Name == Instance(p).StatefulSet(0) {
		return 0, true, true
	}
	if rest, found := strings.CutPrefix(s.Name, Instance(p).StatefulSet(0)+"-shard-"); found {
		if n, err := strconv.ParseInt(rest, 10, 32); err == nil && n > 0 {
			return int32(n), true, true
		}
	}
	if s.Labels[layout.OperatorNameLabel] == p.Name {
		if n, err := strconv.ParseInt(s.Labels[layout.ShardLabel], 10, 32); err == nil && n >= 0 {
			return int32(n), false, true
		}
	}
	return 0, false, false
}

// unreadyPods names up to maxPodsInMessage pods of the shard that are not ready, with the
// reason their first waiting or failing container gives.
func unreadyPods(p *promserver.Server, shard int32, pods []corev1.Pod) string {
	return unreadyPodsOf(pods, func(pod *corev1.Pod) bool {
		if pod.Labels[layout.OperatorNameLabel] != p.Name || pod.Labels[layout.ShardLabel] != strconv.Itoa(int(shard)) {
			return false
		}
		return p.Namespace == "" || pod.Namespace == "" || pod.Namespace == p.Namespace
	})
}

// unreadyPodsOf names up to maxPodsInMessage pods that mine accepts and are not ready.
func unreadyPodsOf(pods []corev1.Pod, mine func(*corev1.Pod) bool) string {
	var out []string
	more := 0
	names := make([]int, 0, len(pods))
	for i := range pods {
		names = append(names, i)
	}
	sort.Slice(names, func(a, b int) bool { return pods[names[a]].Name < pods[names[b]].Name })
	for _, i := range names {
		pod := &pods[i]
		if !mine(pod) || podReady(pod) {
			continue
		}
		if len(out) == maxPodsInMessage {
			more++
			continue
		}
		out = append(out, "pod "+pod.Name+": "+podProblem(pod))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("%d more pods not ready", more))
	}
	return strings.Join(out, ", ")
}

func podReady(pod *corev1.Pod) bool {
	if pod.DeletionTimestamp != nil {
		return false
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// podProblem says why a pod is not ready, as precisely as its status allows.
func podProblem(pod *corev1.Pod) string {
	if pod.DeletionTimestamp != nil {
		return "terminating"
	}
	statuses := append(append([]corev1.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...)
	for _, cs := range statuses {
		if w := cs.State.Waiting; w != nil && w.Reason != "" {
			return fmt.Sprintf("container %s is waiting: %s", cs.Name, w.Reason)
		}
		if t := cs.State.Terminated; t != nil && t.ExitCode != 0 {
			return fmt.Sprintf("container %s terminated: %s (exit code %d)", cs.Name, t.Reason, t.ExitCode)
		}
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return "not scheduled: " + c.Reason
		}
	}
	if pod.Status.Phase != "" && pod.Status.Phase != corev1.PodRunning {
		return "phase " + string(pod.Status.Phase)
	}
	return "not ready"
}
