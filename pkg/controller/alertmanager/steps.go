package alertmanager

import (
	"context"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// steps are the Alertmanager steps of the shared instance lifecycle.
type steps struct{ r *Reconciler }

func (s steps) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (*monitoringv1.Alertmanager, client.Object, error) {
	a, obj, err := instance.Get[monitoringv1.Alertmanager](ctx, c, nn)
	if err != nil {
		return nil, nil, err
	}
	return s.r.cfg.DefaultVersions.OfAlertmanager(a), obj, nil
}

func (steps) NewState(types.NamespacedName) *amState { return &amState{} }

func (steps) Paused(a *monitoringv1.Alertmanager) bool { return a.Spec.Paused }

func (s steps) Apply(ctx context.Context, a *monitoringv1.Alertmanager, st *amState) (time.Duration, error) {
	return 0, s.r.reconcileObjects(ctx, a, st)
}

func (s steps) Status(ctx context.Context, a *monitoringv1.Alertmanager, st *amState, result error) (monitoringv1.AlertmanagerStatus, monitoringv1.AlertmanagerStatus, error) {
	status, err := s.r.status(ctx, a, st, result)
	return status, a.Status, err
}

// Forget drops the generator's cache of a gone Alertmanager.
func (s steps) Forget(nn types.NamespacedName) {
	if g, ok := s.r.Generator.(interface{ Forget(types.NamespacedName) }); ok {
		g.Forget(nn)
	}
}

func (steps) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*monitoringv1.Alertmanager, error) {
	var list monitoringv1.AlertmanagerList
	if err := c.List(ctx, &list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	return instance.Pointers(list.Items), nil
}
