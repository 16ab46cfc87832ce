package thanosruler

import (
	"context"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// steps are the ThanosRuler steps of the shared instance lifecycle.
type steps struct{ r *Reconciler }

func (s steps) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (*monitoringv1.ThanosRuler, client.Object, error) {
	t, obj, err := instance.Get[monitoringv1.ThanosRuler](ctx, c, nn)
	if err != nil {
		return nil, nil, err
	}
	return s.r.cfg.DefaultVersions.OfThanosRuler(t), obj, nil
}

func (steps) NewState(types.NamespacedName) *trState { return &trState{} }

func (steps) Paused(t *monitoringv1.ThanosRuler) bool { return t.Spec.Paused }

func (s steps) Apply(ctx context.Context, t *monitoringv1.ThanosRuler, st *trState) (time.Duration, error) {
	return 0, s.r.reconcileObjects(ctx, t, st)
}

func (s steps) Status(ctx context.Context, t *monitoringv1.ThanosRuler, _ *trState, result error) (monitoringv1.ThanosRulerStatus, monitoringv1.ThanosRulerStatus, error) {
	status, err := s.r.status(ctx, t, result)
	return status, t.Status, err
}

func (steps) Forget(types.NamespacedName) {}

func (steps) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*monitoringv1.ThanosRuler, error) {
	var list monitoringv1.ThanosRulerList
	if err := c.List(ctx, &list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	return instance.Pointers(list.Items), nil
}
