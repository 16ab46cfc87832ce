package amctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// status computes the status from the live StatefulSet and the reconcile outcome,
// repairing a stuck rollout on the way (--repair-policy-for-statefulsets), and with
// --reloader-report-config the ConfigLoaded condition.
func (r *Reconciler) status(ctx context.Context, a *monitoringv1.Alertmanager, st *amState, result error) (monitoringv1.AlertmanagerStatus, error) {
	sts, err := r.OwnedStatefulSet(ctx, a, layout.Alertmanager(a.Name).StatefulSet())
	if err != nil {
		return monitoringv1.AlertmanagerStatus{}, err
	}
	now := metav1.NewTime(r.Clock.Now())
	var more []monitoringv1.Condition
	if r.cfg.Workload.ReloaderReportConfig {
		c, err := r.configLoaded(ctx, a, st, now)
		if err != nil {
			return monitoringv1.AlertmanagerStatus{}, err
		}
		more = append(more, c)
	}
	status := amplan.AlertmanagerStatus(a, sts, nil, now)
	status.Conditions = instance.WithReconciled(status.Conditions, a.Status.Conditions, result,
		"the configuration, Secrets, Service and StatefulSet match the spec", a.Generation, now, more...)
	return status, nil
}

// configLoaded computes a's ConfigLoaded condition from its cached pods and the hash of
// the configuration this operator wrote last (unknown until it has written one since
// it started: Alertmanager's generated Secret holds the configuration compressed, with
// its templates, so no annotation holds the hash its reloader reports).
func (r *Reconciler) configLoaded(ctx context.Context, a *monitoringv1.Alertmanager, st *amState, now metav1.Time) (monitoringv1.Condition, error) {
	in := instance.Loaded{Hash: st.configHash}
	if opts, _ := r.workloadOptions(a); !opts.ReloaderReportConfig {
		in.Unavailable = instance.NoServiceAccountMessage
	}
	in.Pods, _ = amplan.AlertmanagerPodNames(a)
	labels := map[string]string{layout.AlertmanagerNameLabel: a.Name, layout.NameLabel: amplan.AlertmanagerNameValue}
	return r.ConfigLoaded(ctx, a.Namespace, labels, in, a.Status.Conditions, now)
}
