package workload

import (
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// PodToRepair picks the pod of a stuck StatefulSet rollout that
// --repair-policy-for-statefulsets evicts or deletes, as prometheus-operator picks it: the
// StatefulSet controller has seen its latest generation, and the pod with the highest
// ordinal that is not ready, not being deleted, and of neither the current nor the update
// revision (a pod the StatefulSet controller will not replace by itself). nil when there
// is none. pods are the StatefulSet's pods in any order.
func PodToRepair(sts *appsv1.StatefulSet, pods []corev1.Pod) *corev1.Pod {
	if sts.Generation != sts.Status.ObservedGeneration {
		return nil
	}
	sorted := make([]*corev1.Pod, 0, len(pods))
	for i := range pods {
		sorted = append(sorted, &pods[i])
	}
	sort.Slice(sorted, func(i, j int) bool { return ordinal(sts, sorted[i]) > ordinal(sts, sorted[j]) })
	for _, pod := range sorted {
		rev := pod.Labels[appsv1.ControllerRevisionHashLabelKey]
		switch {
		case podReady(pod), pod.DeletionTimestamp != nil,
			rev == sts.Status.CurrentRevision, rev == sts.Status.UpdateRevision:
			continue
		}
		return pod
	}
	return nil
}

// ordinal is a pod's ordinal in its StatefulSet (-1 when the name does not carry one).
func ordinal(sts *appsv1.StatefulSet, pod *corev1.Pod) int {
	n, err := strconv.Atoi(strings.TrimPrefix(pod.Name, sts.Name+"-"))
	if err != nil || !strings.HasPrefix(pod.Name, sts.Name+"-") {
		return -1
	}
	return n
}
