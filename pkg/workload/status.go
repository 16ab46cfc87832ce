package workload

import (
	"fmt"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
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

// AvailableCondition is the Available condition of a workload expecting expected
// replicas of which available are: True when all are, Degraded when some are, False when
// none is; problems explain the missing ones. The transition time of prev's Available
// condition is kept while its status does not change.
func AvailableCondition(expected, available int32, problems []string, generation int64, prev []monitoringv1.Condition, now metav1.Time) monitoringv1.Condition {
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

// UnreadyPodsOf names up to maxPodsInMessage pods that mine accepts and are not ready.
func UnreadyPodsOf(pods []corev1.Pod, mine func(*corev1.Pod) bool) string {
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

// ReplicaCounts are the replica counts status reports of one StatefulSet.
type ReplicaCounts struct {
	Replicas, Updated, Available, Unavailable int32
}

// CountReplicas are the replica counts of the live StatefulSet sts: unavailable are those
// of the larger of its spec and status replicas that are not available.
func CountReplicas(sts *appsv1.StatefulSet) ReplicaCounts {
	want := max(sts.Status.Replicas, ptr.Deref(sts.Spec.Replicas, 1))
	return ReplicaCounts{
		Replicas:    sts.Status.Replicas,
		Updated:     sts.Status.UpdatedReplicas,
		Available:   sts.Status.AvailableReplicas,
		Unavailable: max(want-sts.Status.AvailableReplicas, 0),
	}
}

// OneStatefulSet is an instance of a kind that runs one StatefulSet (Alertmanager,
// ThanosRuler), for its status.
type OneStatefulSet struct {
	// Name, Namespace and Generation are the instance's, SpecReplicas its spec.replicas.
	Name, Namespace string
	Generation      int64
	SpecReplicas    *int32
	// StatefulSet is the name of its StatefulSet, Live the live one (nil when it does not
	// exist), Pods the pods the controller has, of which those labelled NameLabel=Name are
	// the instance's.
	StatefulSet string
	Live        *appsv1.StatefulSet
	Pods        []corev1.Pod
	NameLabel   string
	// Conditions are the instance's current status conditions.
	Conditions []monitoringv1.Condition
}

// Status is the replica counts of o and its Available condition (see
// AvailableCondition); now is the transition time of a changed status.
func (o OneStatefulSet) Status(now metav1.Time) (ReplicaCounts, monitoringv1.Condition) {
	replicas := max(ptr.Deref(o.SpecReplicas, 1), 0)
	var counts ReplicaCounts
	var problems []string
	if o.Live != nil {
		counts = CountReplicas(o.Live)
		if counts.Available < replicas {
			msg := fmt.Sprintf("StatefulSet %s: %d/%d available", o.StatefulSet, counts.Available, replicas)
			if why := UnreadyPodsOf(o.Pods, func(p *corev1.Pod) bool {
				return p.Labels[o.NameLabel] == o.Name && (o.Namespace == "" || p.Namespace == "" || p.Namespace == o.Namespace)
			}); why != "" {
				msg += " (" + why + ")"
			}
			problems = append(problems, msg)
		}
	} else if replicas > 0 {
		problems = append(problems, fmt.Sprintf("StatefulSet %s not found", o.StatefulSet))
	}
	available := min(counts.Available, replicas)
	return counts, AvailableCondition(replicas, available, problems, o.Generation, o.Conditions, now)
}
