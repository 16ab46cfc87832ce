package promctrl

import (
	"context"
	"errors"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// checkDaemonSetMode refuses a PrometheusAgent in DaemonSet mode when the feature gate is
// off (as prometheus-operator does) or when its spec has what the mode cannot have.
func (r *Reconciler) checkDaemonSetMode(p *promserver.Server) error {
	if !p.DaemonSetMode() {
		return nil
	}
	if !r.cfg.AgentDaemonSet {
		return invalid(errors.New("spec.mode is DaemonSet, which needs the PrometheusAgentDaemonSet feature gate: start the operator with --feature-gates=PrometheusAgentDaemonSet=true, and let it manage daemonsets (apps), which prometheus-operator's RBAC does not grant"))
	}
	if err := promplan.CheckDaemonSetMode(p); err != nil {
		return invalid(err)
	}
	return nil
}

// deleteDaemonSet removes the DaemonSet of an agent back in StatefulSet mode (only with
// the feature gate on: the operator may not even read DaemonSets otherwise).
func (r *Reconciler) deleteDaemonSet(ctx context.Context, p *promserver.Server) error {
	if !r.kind.agent() || !r.cfg.AgentDaemonSet {
		return nil
	}
	live, err := r.liveDaemonSet(ctx, p)
	if err != nil || live == nil {
		return err
	}
	if !ownedBy(live, p) {
		return nil
	}
	return applyFailed(r.Applier.Delete(ctx, "DaemonSet", live, p.UID))
}

// liveDaemonSet reads p's DaemonSet from the cache; nil when there is none.
func (r *Reconciler) liveDaemonSet(ctx context.Context, p *promserver.Server) (*appsv1.DaemonSet, error) {
	ds := &appsv1.DaemonSet{}
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: promplan.Instance(p).StatefulSet(0)}, ds)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, applyFailed(fmt.Errorf("reading DaemonSet %s: %w", ds.Name, err))
	}
	return ds, nil
}

// daemonSetStatus is the status of an agent in DaemonSet mode, from its DaemonSet.
func (r *Reconciler) daemonSetStatus(ctx context.Context, p *promserver.Server, now metav1.Time) (monitoringv1.PrometheusStatus, error) {
	ds, err := r.liveDaemonSet(ctx, p)
	if err != nil {
		return monitoringv1.PrometheusStatus{}, err
	}
	if ds != nil && !ownedBy(ds, p) {
		ds = nil
	}
	return promplan.DaemonSetStatus(p, ds, now), nil
}
