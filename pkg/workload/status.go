package workload

import (
	"fmt"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
