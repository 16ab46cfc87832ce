package alertmanager

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// globalConfig reads the AlertmanagerConfig spec.alertmanagerConfiguration names. A
// missing one is an invalid spec: the last generated configuration stays.
func (r *Reconciler) globalConfig(ctx context.Context, a *monitoringv1.Alertmanager) (*monitoringv1alpha1.AlertmanagerConfig, error) {
	ac := a.Spec.AlertmanagerConfiguration
	if ac == nil || ac.Name == "" {
		return nil, nil
	}
	amc := &monitoringv1alpha1.AlertmanagerConfig{}
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: a.Namespace, Name: ac.Name}, amc)
	switch {
	case apierrors.IsNotFound(err):
		return nil, outcome.Invalid(fmt.Errorf("spec.alertmanagerConfiguration.name: AlertmanagerConfig %s/%s does not exist", a.Namespace, ac.Name))
	case err != nil:
		return nil, outcome.ApplyFailed(fmt.Errorf("reading AlertmanagerConfig %s/%s: %w", a.Namespace, ac.Name, err))
	}
	return amc, nil
}

// reportVerdicts logs and sends an event for every AlertmanagerConfig whose verdict
// changed since the last reconcile: a Warning naming the field for one left out, a
// Normal event when it is accepted again.
func (r *Reconciler) reportVerdicts(ctx context.Context, a *monitoringv1.Alertmanager, st *amState, verdicts []selection.Verdict) {
	seen := make(map[string]selection.Verdict, len(verdicts))
	for _, v := range verdicts {
		key := v.Key()
		seen[key] = v
		prev, had := st.reported[key]
		if had && prev.Reason == v.Reason && prev.Message == v.Message && prev.Generation == v.Generation {
			continue
		}
		if v.Used() && !had {
			continue // accepted from the start: nothing to say
		}
		obj := &monitoringv1alpha1.AlertmanagerConfig{ObjectMeta: metav1.ObjectMeta{Namespace: v.Namespace, Name: v.Name}}
		obj.Kind, obj.APIVersion = monitoringv1alpha1.AlertmanagerConfigKind, monitoringv1alpha1.SchemeGroupVersion.String()
		if v.Used() {
			log.FromContext(ctx).Info("AlertmanagerConfig accepted again", "alertmanagerconfig", v.Namespace+"/"+v.Name)
			if r.Recorder != nil {
				r.Recorder.Eventf(obj, a, corev1.EventTypeNormal, string(selection.Accepted), "Generate",
					"used in the configuration of Alertmanager %s/%s", a.Namespace, a.Name)
			}
			continue
		}
		log.FromContext(ctx).Info("AlertmanagerConfig left out of the configuration", "alertmanagerconfig", v.Namespace+"/"+v.Name, "reason", string(v.Reason), "message", v.Message)
		if r.Recorder != nil {
			r.Recorder.Eventf(obj, a, corev1.EventTypeWarning, string(v.Reason), "Generate", "%s",
				resourcestatus.Truncate(fmt.Sprintf("left out of the configuration of Alertmanager %s/%s: %s", a.Namespace, a.Name, v.Message), resourcestatus.MaxEventNoteBytes))
		}
	}
	st.reported = seen
}
