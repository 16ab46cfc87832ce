package promctrl

import (
	"context"
	"fmt"
	"strings"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// status computes the status from the live StatefulSets (or DaemonSet) and the reconcile
// outcome, repairing stuck rollouts on the way (--repair-policy-for-statefulsets).
func (r *Reconciler) status(ctx context.Context, p *promserver.Server, st *promState, outcome error) (monitoringv1.PrometheusStatus, error) {
	now := metav1.NewTime(r.Clock.Now())
	var status monitoringv1.PrometheusStatus
	if p.DaemonSetMode() && r.cfg.AgentDaemonSet {
		var err error
		if status, err = r.daemonSetStatus(ctx, p, now); err != nil {
			return status, err
		}
	} else {
		var sets appsv1.StatefulSetList
		if err := r.Client.List(ctx, &sets, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
			return status, fmt.Errorf("listing StatefulSets: %w", err)
		}
		var mine []appsv1.StatefulSet
		for i := range sets.Items {
			if ownedBy(&sets.Items[i], p) {
				mine = append(mine, sets.Items[i])
			}
		}
		r.RepairStuck(ctx, mine)
		status = promplan.Status(p, mine, nil, now)
	}
	status.Conditions = append(status.Conditions, reconciledCondition(p, outcome, now))
	if r.cfg.Workload.ReloaderReportConfig {
		c, err := r.configLoaded(ctx, p, st, now)
		if err != nil {
			return status, err
		}
		status.Conditions = append(status.Conditions, c)
	}
	for i := range status.Conditions {
		status.Conditions[i].ObservedGeneration = p.Generation
	}
	return status, nil
}

// statusChange says briefly what differs between two statuses, for the log line of a
// status write: the conditions whose status, reason or message changed, and the replica
// counts and paused flag.
func statusChange(old, cur monitoringv1.PrometheusStatus) string {
	var parts []string
	oldConds := map[monitoringv1.ConditionType]monitoringv1.Condition{}
	for _, c := range old.Conditions {
		oldConds[c.Type] = c
	}
	for _, c := range cur.Conditions {
		o, ok := oldConds[c.Type]
		switch {
		case !ok:
			parts = append(parts, fmt.Sprintf("%s: none -> %s/%s", c.Type, c.Status, c.Reason))
		case o.Status != c.Status || o.Reason != c.Reason:
			parts = append(parts, fmt.Sprintf("%s: %s/%s -> %s/%s", c.Type, o.Status, o.Reason, c.Status, c.Reason))
		case o.Message != c.Message:
			parts = append(parts, fmt.Sprintf("%s message: %q -> %q", c.Type, o.Message, c.Message))
		case o.ObservedGeneration != c.ObservedGeneration:
			parts = append(parts, fmt.Sprintf("%s observedGeneration: %d -> %d", c.Type, o.ObservedGeneration, c.ObservedGeneration))
		}
	}
	if old.Replicas != cur.Replicas || old.AvailableReplicas != cur.AvailableReplicas || old.UpdatedReplicas != cur.UpdatedReplicas || old.UnavailableReplicas != cur.UnavailableReplicas {
		parts = append(parts, fmt.Sprintf("replicas %d/%d/%d/%d -> %d/%d/%d/%d", old.Replicas, old.UpdatedReplicas, old.AvailableReplicas, old.UnavailableReplicas,
			cur.Replicas, cur.UpdatedReplicas, cur.AvailableReplicas, cur.UnavailableReplicas))
	}
	if old.Paused != cur.Paused || old.Shards != cur.Shards || old.Selector != cur.Selector {
		parts = append(parts, fmt.Sprintf("paused %v shards %d selector %q -> paused %v shards %d selector %q", old.Paused, old.Shards, old.Selector, cur.Paused, cur.Shards, cur.Selector))
	}
	if len(parts) == 0 {
		return "other fields (shard statuses, transition times)"
	}
	return strings.Join(parts, "; ")
}

// reconciledCondition turns the outcome into the Reconciled condition, keeping the
// transition time while the status does not change.
func reconciledCondition(p *promserver.Server, result error, now metav1.Time) monitoringv1.Condition {
	return outcome.ReconciledCondition(p.Status.Conditions, result, "the configuration, rule ConfigMaps and StatefulSets match the spec and the selected monitors", now)
}
