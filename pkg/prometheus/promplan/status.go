package promplan

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

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
			c := workload.CountReplicas(s)
			ss.Replicas, ss.UpdatedReplicas, ss.AvailableReplicas, ss.UnavailableReplicas = c.Replicas, c.Updated, c.Available, c.Unavailable
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

	cond := workload.AvailableCondition(replicas*shards, available, problems, p.Generation, p.Status.Conditions, now)
	st.Conditions = []monitoringv1.Condition{cond}
	return st
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
	return workload.UnreadyPodsOf(pods, func(pod *corev1.Pod) bool {
		if pod.Labels[layout.OperatorNameLabel] != p.Name || pod.Labels[layout.ShardLabel] != strconv.Itoa(int(shard)) {
			return false
		}
		return p.Namespace == "" || pod.Namespace == "" || pod.Namespace == p.Namespace
	})
}
