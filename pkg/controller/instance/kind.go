package instance

import (
	"context"
	"fmt"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// Object is a pointer to an instance kind's object: with the accessors prometheus-operator
// gives its instance kinds.
type Object[T any] interface {
	*T
	client.Object
	GetConditions() []monitoringv1.Condition
	ExpectedReplicas() int
}

// List is a pointer to a kind's list type.
type List[L any] interface {
	*L
	client.ObjectList
}

// Kind describes an instance kind that runs one StatefulSet and whose steps handle the
// object itself (kinds.go: Alertmanager, ThanosRuler): what the shared code needs to know
// of it besides its controller's Behavior. T is the object's type, L its list's and St its
// status's.
type Kind[T any, PT Object[T], L any, PL List[L], St any] struct {
	Info
	// Controller names the controller (and its metrics and logs).
	Controller string
	// Defaults fills in what Get's caller must see set (the default version).
	Defaults func(versions.Defaults, PT) PT
	// Paused reports whether spec.paused is set.
	Paused func(PT) bool
	// StatefulSet names o's StatefulSet; its pods are <StatefulSet>-<ordinal>.
	StatefulSet func(o PT) string
	// Status is o's status from its StatefulSet (nil when it is missing), before the
	// Reconciled and ConfigLoaded conditions, and o's status as it is; Conditions points
	// at a status's conditions.
	Status     func(o PT, sts *appsv1.StatefulSet, now metav1.Time) (status, live St)
	Conditions func(*St) *[]monitoringv1.Condition
	// Reconciled is the Reconciled message of a plain success.
	Reconciled string
	// o's pods carry PodLabel=<o's name> and app.kubernetes.io/name=PodName.
	PodLabel, PodName string
	// GoverningService is the governing Service's name, and UsesGoverningService
	// whether o uses it (Config.WatchGoverningServices).
	GoverningService     string
	UsesGoverningService func(o PT) bool
}

// Behavior is what a Kind's controller does: S is the state it keeps per object.
type Behavior[PT any, S any] struct {
	// Apply generates and applies everything but the status (Steps.Apply, never asking
	// for a requeue).
	Apply func(ctx context.Context, o PT, st *S) error
	// Watches adds the controller's own watches to those every Kind has.
	Watches func(b *builder.Builder, on watch.Triggers) *builder.Builder
	// Hash is, with --reloader-report-config, the hash of what the operator wrote last
	// that o's reloaders report once loaded ("" when unknown), and Reports false when
	// o's reloaders do not report (no service account of its own:
	// NoServiceAccountMessage).
	Hash    func(o PT, st *S) string
	Reports func(o PT) bool
	// Drop, when set, forgets what the controller keeps about a gone object beyond its
	// state.
	Drop func(types.NamespacedName)
}

// KindReconciler is the Reconciler of a Kind: Get and List read the cache, the state
// starts empty, the status is the StatefulSet's with the Reconciled condition and, with
// --reloader-report-config, ConfigLoaded; SetupWithManager registers the watches every
// such kind has and the Behavior's.
type KindReconciler[T any, PT Object[T], L any, PL List[L], S any, St any] struct {
	*Reconciler[PT, S, St]
	kind *Kind[T, PT, L, PL, St]
	do   Behavior[PT, S]
}

// NewKind returns the Reconciler of kind k doing do (New with their steps).
func NewKind[T any, PT Object[T], L any, PL List[L], S any, St any](d Deps, cfg *Config, k *Kind[T, PT, L, PL, St], do Behavior[PT, S]) *KindReconciler[T, PT, L, PL, S, St] {
	r := &KindReconciler[T, PT, L, PL, S, St]{kind: k, do: do}
	r.Reconciler = New(d, cfg, k.Info, kindSteps[T, PT, L, PL, S, St]{r})
	return r
}

// SetupWithManager registers the controller: Builder's watches (the objects and their
// StatefulSets), the Behavior's, the kind's pods with --reloader-report-config
// (WatchReportingPods) and its governing Service with Config.WatchGoverningServices
// (WatchGoverningService).
func (r *KindReconciler[T, PT, L, PL, S, St]) SetupWithManager(mgr ctrl.Manager) error {
	k := r.kind
	b, on := r.Builder(mgr, k.Controller, PT(new(T)))
	b = r.do.Watches(b, on)
	b = r.WatchReportingPods(b, k.PodLabel, k.PodName)
	b = r.WatchGoverningService(b, k.GoverningService, func(_ context.Context, o PT, _ client.Object) bool { return k.UsesGoverningService(o) })
	return r.Complete(b, r)
}

// status computes o's status from its live StatefulSet and the reconcile outcome,
// repairing a stuck rollout on the way (--repair-policy-for-statefulsets), and with
// --reloader-report-config the ConfigLoaded condition.
func (r *KindReconciler[T, PT, L, PL, S, St]) status(ctx context.Context, o PT, st *S, result error) (status, live St, err error) {
	k := r.kind
	sts, err := r.OwnedStatefulSet(ctx, o, k.StatefulSet(o))
	if err != nil {
		return status, live, err
	}
	now := metav1.NewTime(r.Clock.Now())
	var more []monitoringv1.Condition
	if r.Cfg.Workload.ReloaderReportConfig {
		c, err := r.configLoaded(ctx, o, st, now)
		if err != nil {
			return status, live, err
		}
		more = append(more, c)
	}
	status, live = k.Status(o, sts, now)
	conds := k.Conditions(&status)
	*conds = WithReconciled(*conds, o.GetConditions(), result, k.Reconciled, o.GetGeneration(), now, more...)
	return status, live, nil
}

// configLoaded computes o's ConfigLoaded condition from its cached pods and the hash of
// what the operator wrote last (Behavior.Hash).
func (r *KindReconciler[T, PT, L, PL, S, St]) configLoaded(ctx context.Context, o PT, st *S, now metav1.Time) (monitoringv1.Condition, error) {
	k := r.kind
	in := Loaded{Hash: r.do.Hash(o, st)}
	if !r.do.Reports(o) {
		in.Unavailable = NoServiceAccountMessage
	}
	for i := range max(o.ExpectedReplicas(), 0) {
		in.Pods = append(in.Pods, fmt.Sprintf("%s-%d", k.StatefulSet(o), i))
	}
	labels := map[string]string{k.PodLabel: o.GetName(), layout.NameLabel: k.PodName}
	return r.ConfigLoaded(ctx, o.GetNamespace(), labels, in, o.GetConditions(), now)
}

// kindSteps are the Steps of a Kind.
type kindSteps[T any, PT Object[T], L any, PL List[L], S any, St any] struct {
	r *KindReconciler[T, PT, L, PL, S, St]
}

// Get reads the object from the cache, with Defaults applied.
func (s kindSteps[T, PT, L, PL, S, St]) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (PT, client.Object, error) {
	o, obj, err := Get[T, PT](ctx, c, nn)
	if err != nil {
		return o, obj, err
	}
	return s.r.kind.Defaults(s.r.Cfg.DefaultVersions, o), obj, nil
}

// List lists the objects from the cache, shared with it.
func (s kindSteps[T, PT, L, PL, S, St]) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]PT, error) {
	list := PL(new(L))
	if err := c.List(ctx, list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	var out []PT
	err := apimeta.EachListItem(list, func(o runtime.Object) error {
		out = append(out, o.(PT))
		return nil
	})
	return out, err
}

// NewState returns an empty state.
func (kindSteps[T, PT, L, PL, S, St]) NewState(types.NamespacedName) *S { return new(S) }

// Paused is Kind.Paused.
func (s kindSteps[T, PT, L, PL, S, St]) Paused(o PT) bool { return s.r.kind.Paused(o) }

// Apply is Behavior.Apply.
func (s kindSteps[T, PT, L, PL, S, St]) Apply(ctx context.Context, o PT, st *S) (time.Duration, error) {
	return 0, s.r.do.Apply(ctx, o, st)
}

// Status is KindReconciler.status.
func (s kindSteps[T, PT, L, PL, S, St]) Status(ctx context.Context, o PT, st *S, result error) (St, St, error) {
	return s.r.status(ctx, o, st, result)
}

// Forget calls Behavior.Drop, when set.
func (s kindSteps[T, PT, L, PL, S, St]) Forget(nn types.NamespacedName) {
	if s.r.do.Drop != nil {
		s.r.do.Drop(nn)
	}
}
