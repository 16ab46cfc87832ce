package amctrl

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
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
