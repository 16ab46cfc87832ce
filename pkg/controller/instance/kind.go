package instance

import (
	"context"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// Kind is an instance kind whose steps handle the object itself and which runs one
// StatefulSet (Alertmanager, ThanosRuler): only what differs between such kinds. T is the
// object's type and L its list's, S the state and St the status. NewKind makes its
// Reconciler: Get and List read the cache, the state starts empty, the status is the
// StatefulSet's with the Reconciled condition and, with --reloader-report-config,
// ConfigLoaded; SetupKind registers the watches every such kind has.
type Kind[T any, PT interface {
	*T
	client.Object
}, L any, PL interface {
	*L
	client.ObjectList
}, S any, St any] struct {
	Info
	// Controller names the controller (and its metrics and logs).
	Controller string
	// Defaults, when set, fills in what Get's caller must see set (the default version).
	Defaults func(PT) PT
	// Items are the items of a list.
	Items func(PL) []T
	// Paused reports whether spec.paused is set.
	Paused func(PT) bool
	// Apply generates and applies everything but the status (Steps.Apply, never asking
	// for a requeue).
	Apply func(ctx context.Context, o PT, st *S) error
	// Drop, when set, forgets what the kind keeps about a gone object beyond its state.
	Drop func(types.NamespacedName)

	// StatefulSet names o's StatefulSet.
	StatefulSet func(o PT) string
	// Status is o's status from its StatefulSet (nil when it is missing), before the
	// Reconciled and ConfigLoaded conditions; Conditions points at a status's
	// conditions, and Live is o's status as it is.
	Status     func(o PT, sts *appsv1.StatefulSet, now metav1.Time) St
	Conditions func(*St) *[]monitoringv1.Condition
	Live       func(PT) St
	// Reconciled is the Reconciled message of a plain success.
	Reconciled string

	// With --reloader-report-config, the ConfigLoaded condition compares Hash, the hash
	// of what the operator wrote last that o's reloaders report once loaded ("" when
	// unknown), with what each of o's Pods reported; Reports is false when o's reloaders
	// do not report (no service account of its own: NoServiceAccountMessage). o's pods
	// carry PodLabel=<o's name> and app.kubernetes.io/name=PodName.
	Hash              func(o PT, st *S) string
	Reports           func(o PT) bool
	Pods              func(o PT) ([]string, error)
	PodLabel, PodName string

	// GoverningService is the governing Service's name, and UsesGoverningService
	// whether o uses it (Config.WatchGoverningServices).
	GoverningService     string
	UsesGoverningService func(o PT) bool
}

// KindReconciler is the Reconciler of a Kind.
type KindReconciler[T any, PT interface {
	*T
	client.Object
}, L any, PL interface {
	*L
	client.ObjectList
}, S any, St any] struct {
	*Reconciler[PT, S, St]
	kind *Kind[T, PT, L, PL, S, St]
}

// NewKind returns the Reconciler of kind k (New with k's steps).
func NewKind[T any, PT interface {
	*T
	client.Object
}, L any, PL interface {
	*L
	client.ObjectList
}, S any, St any](d Deps, cfg *Config, k *Kind[T, PT, L, PL, S, St]) *KindReconciler[T, PT, L, PL, S, St] {
	r := &KindReconciler[T, PT, L, PL, S, St]{kind: k}
	r.Reconciler = New(d, cfg, k.Info, kindSteps[T, PT, L, PL, S, St]{r})
	return r
}

// SetupKind registers the controller: Builder's watches, the kind's own (watches), the
// kind's pods with --reloader-report-config (WatchReportingPods) and its governing
// Service with Config.WatchGoverningServices (WatchGoverningService).
func (r *KindReconciler[T, PT, L, PL, S, St]) SetupKind(mgr ctrl.Manager, watches func(*builder.Builder, watch.Triggers) *builder.Builder) error {
	k := r.kind
	b, on := r.Builder(mgr, k.Controller, PT(new(T)))
	b = watches(b, on)
	b = r.WatchReportingPods(b, k.PodLabel, k.PodName)
	b = r.WatchGoverningService(b, k.GoverningService, func(_ context.Context, o PT, _ client.Object) bool { return k.UsesGoverningService(o) })
	return r.Complete(b, r)
}

// status computes o's status from its live StatefulSet and the reconcile outcome,
// repairing a stuck rollout on the way (--repair-policy-for-statefulsets), and with
// --reloader-report-config the ConfigLoaded condition.
func (r *KindReconciler[T, PT, L, PL, S, St]) status(ctx context.Context, o PT, st *S, result error) (St, St, error) {
	k := r.kind
	live := k.Live(o)
	var status St
	sts, err := r.OwnedStatefulSet(ctx, o, k.StatefulSet(o))
	if err != nil {
		return status, live, err
	}
	now := metav1.NewTime(r.Clock.Now())
	prev := *k.Conditions(&live)
	var more []monitoringv1.Condition
	if r.Cfg.Workload.ReloaderReportConfig {
		in := Loaded{Hash: k.Hash(o, st)}
		if !k.Reports(o) {
			in.Unavailable = NoServiceAccountMessage
		}
		in.Pods, _ = k.Pods(o)
		labels := map[string]string{k.PodLabel: o.GetName(), layout.NameLabel: k.PodName}
		c, err := r.ConfigLoaded(ctx, o.GetNamespace(), labels, in, prev, now)
		if err != nil {
			return status, live, err
		}
		more = append(more, c)
	}
	status = k.Status(o, sts, now)
	conds := k.Conditions(&status)
	*conds = WithReconciled(*conds, prev, result, k.Reconciled, o.GetGeneration(), now, more...)
	return status, live, nil
}

// kindSteps are the Steps of a Kind.
type kindSteps[T any, PT interface {
	*T
	client.Object
}, L any, PL interface {
	*L
	client.ObjectList
}, S any, St any] struct {
	r *KindReconciler[T, PT, L, PL, S, St]
}

// Get reads the object from the cache, with Defaults applied.
func (s kindSteps[T, PT, L, PL, S, St]) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (PT, client.Object, error) {
	o, obj, err := Get[T, PT](ctx, c, nn)
	if err != nil || s.r.kind.Defaults == nil {
		return o, obj, err
	}
	return s.r.kind.Defaults(o), obj, nil
}

// List lists the objects from the cache, shared with it.
func (s kindSteps[T, PT, L, PL, S, St]) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]PT, error) {
	list := PL(new(L))
	if err := c.List(ctx, list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	items := s.r.kind.Items(list)
	out := make([]PT, len(items))
	for i := range items {
		out[i] = PT(&items[i])
	}
	return out, nil
}

// NewState returns an empty state.
func (kindSteps[T, PT, L, PL, S, St]) NewState(types.NamespacedName) *S { return new(S) }

// Paused is Kind.Paused.
func (s kindSteps[T, PT, L, PL, S, St]) Paused(o PT) bool { return s.r.kind.Paused(o) }

// Apply is Kind.Apply.
func (s kindSteps[T, PT, L, PL, S, St]) Apply(ctx context.Context, o PT, st *S) (time.Duration, error) {
	return 0, s.r.kind.Apply(ctx, o, st)
}

// Status is KindReconciler.status.
func (s kindSteps[T, PT, L, PL, S, St]) Status(ctx context.Context, o PT, st *S, result error) (St, St, error) {
	return s.r.status(ctx, o, st, result)
}

// Forget calls Drop, when set.
func (s kindSteps[T, PT, L, PL, S, St]) Forget(nn types.NamespacedName) {
	if s.r.kind.Drop != nil {
		s.r.kind.Drop(nn)
	}
}
