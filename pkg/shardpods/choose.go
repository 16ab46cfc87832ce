package shardpods

import (
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Choose picks for each shard (0 to shards-1, from the pod's shard label; none is
// shard 0) the first pod by name that is ready, not being deleted and, when keep is
// given, kept by it. pods is sorted in place.
func Choose(pods []corev1.Pod, shards int32, keep func(*corev1.Pod) bool) map[int32]*corev1.Pod {
	out := map[int32]*corev1.Pod{}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	for i := range pods {
		pod := &pods[i]
		if pod.DeletionTimestamp != nil || !Ready(pod) || (keep != nil && !keep(pod)) {
			continue
		}
		shard := int32(0)
		if s, ok := pod.Labels[layout.ShardLabel]; ok {
			n, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				continue
			}
			shard = int32(n)
		}
		if shard >= 0 && shard < shards && out[shard] == nil {
			out[shard] = pod
		}
	}
	return out
}

// Ready reports whether pod's Ready condition is True.
func Ready(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// WebPort is the number of the pod's container port named name, or def.
func WebPort(pod *corev1.Pod, name string, def int) int {
	for _, c := range pod.Spec.Containers {
		for _, cp := range c.Ports {
			if cp.Name == name && cp.ContainerPort > 0 {
				return int(cp.ContainerPort)
			}
		}
	}
	return def
}
