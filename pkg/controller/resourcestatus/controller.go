package resourcestatus

import (
	"context"
	"fmt"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/priority"
)

// FieldOwner is the field manager of the bindings Lookout applies: each writer of
// status.bindings owns only its own entries (the list is keyed by group, resource,
// namespace and name), so another operator's bindings on the same object stay.
const FieldOwner = "lookout-operator"

// OwnerLookup tells how an owner relates to this operator. An error (other than the owner
// being gone) retries the reconcile.
type OwnerLookup func(ctx context.Context, o Owner) (OwnerState, error)

// Deps are what a status reconciler works with.
type Deps struct {
	// Client reads objects from the cache and applies status.
	Client client.Client
	// Store holds the verdicts to write.
	Store *Store
	// Owners classifies the owners named in live bindings.
	Owners OwnerLookup
	// Recorder receives a Warning event for every new rejection (nil: no events).
	Recorder events.EventRecorder
	// Applier counts the status writes (nil: not counted).
	Applier *apply.Applier
	// Clock stamps condition transitions (nil: the real clock).
	Clock clock.PassiveClock
	// Gate is held by the reconciles writing generated objects: a status reconcile waits
	// for it (at most MaxGateWait) so that configuration writes go first (nil: no wait).
	Gate *priority.Gate
}

// MaxGateWait bounds how long a status write waits for configuration reconciles, so that
// a stream of them delays status but never starves it.
const MaxGateWait = 2 * time.Second

// Reconciler writes status.bindings of one kind from the Store.
type Reconciler struct {
	Deps
	kind Kind
}

// New returns the status reconciler of one kind.
func New(d Deps, kind Kind) *Reconciler {
	if d.Clock == nil {
		d.Clock = clock.RealClock{}
	}
	return &Reconciler{Deps: d, kind: kind}
}

// SetupWithManager registers one status controller per kind in Kinds, fed by the store.
func SetupWithManager(mgr ctrl.Manager, d Deps, workers int, kinds []Kind) error {
	for _, k := range kinds {
		r := New(d, k)
		err := ctrl.NewControllerManagedBy(mgr).
			Named(lowerKind(k.Name) + "-status").
			WatchesRawSource(d.Store.Source(k.Name)).
			WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
			Complete(r)
		if err != nil {
			return fmt.Errorf("setting up %s status controller: %w", k.Name, err)
		}
	}
	return nil
}

// Reconcile applies the object's bindings when the ones this operator holds differ from
// the desired ones.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	// Configuration writes first: the plan is made after the wait, from what the
	// configuration reconcile just published.
	r.Gate.Wait(ctx, MaxGateWait)
	obj := r.kind.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	verdicts, published := r.Store.Verdicts(r.kind.Name, req.NamespacedName)
	var lookupErr error
	state := func(o Owner) OwnerState {
		s, err := r.Owners(ctx, o)
		if err != nil && lookupErr == nil {
			lookupErr = err
		}
		return s
	}
	planNow := func() plan {
		health := r.Store.healthOf(r.kind.Name, req.NamespacedName)
		now := metav1.NewTime(r.Clock.Now())
		p := planBindings(obj.Bindings(), obj.GetGeneration(), verdicts, published, state, health, now)
		return withCost(p, obj.Bindings(), verdicts, monitorcost.SampleLimitOf(obj), r.Store.costOf(r.kind.Name, req.NamespacedName), now)
	}
	p := planNow()
	if lookupErr != nil {
		return reconcile.Result{}, fmt.Errorf("looking up the owners of %s %s's bindings: %w", r.kind.Name, req.NamespacedName, lookupErr)
	}
	if !p.changed() {
		return reconcile.Result{}, nil
	}
	err := r.applyBindings(ctx, obj, p.desired)
	if err != nil && r.refused(ctx, err) {
		// The binding without target health rather than no binding at all.
		if p = planNow(); !p.changed() {
			return reconcile.Result{}, nil
		}
		err = r.applyBindings(ctx, obj, p.desired)
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if r.Recorder != nil {
		for _, b := range newlyRejected(obj.Bindings(), p.desired) {
			for _, c := range b.Conditions {
				if c.Type != monitoringv1.Accepted {
					continue
				}
				r.Recorder.Eventf(obj, nil, corev1.EventTypeWarning, c.Reason, "Reject", "%s",
					Truncate(fmt.Sprintf("rejected by %s %s/%s: %s", ownerKind(b.Resource), b.Namespace, b.Name, c.Message), MaxEventNoteBytes))
			}
		}
	}
	return reconcile.Result{}, nil
}

// applyBindings applies status.bindings = desired with server-side apply as FieldOwner.
func (r *Reconciler) applyBindings(ctx context.Context, obj Object, desired []monitoringv1.WorkloadBinding) error {
	// An empty list (not an absent one, which the API server reads as a null status)
	// releases every binding this field manager held.
	if desired == nil {
		desired = []monitoringv1.WorkloadBinding{}
	}
	status := struct {
		Bindings []monitoringv1.WorkloadBinding `json:"bindings"`
	}{desired}
	applied, err := ApplyStatus(ctx, r.Client, r.kind.APIVersion, r.kind.Name, obj.GetNamespace(), obj.GetName(), status)
	if applied && r.Applier != nil {
		r.Applier.CountWrite(r.kind.Name, "apply-status")
	}
	return err
}

// refused reports whether err is the API server refusing Lookout's binding conditions
// (TargetsHealthy, SampleCost: a CRD whose condition type enum is upstream's), turning
// each refused one off for the kind and saying so once.
func (r *Reconciler) refused(ctx context.Context, err error) bool {
	health := r.Store.healthRefused(r.kind.Name, err)
	if health {
		log.FromContext(ctx).Error(err, "the "+r.kind.Name+" CRD does not allow the TargetsHealthy condition (prometheus-operator's CRDs?): target health is off for this kind until the operator restarts; install Lookout's CRDs (lookout-operator crds) to have it")
	}
	cost := r.Store.costRefused(r.kind.Name, err)
	if cost {
		log.FromContext(ctx).Error(err, "the "+r.kind.Name+" CRD does not allow the SampleCost condition (prometheus-operator's CRDs?): sample cost is off for this kind until the operator restarts; install Lookout's CRDs (lookout-operator crds) to have it")
	}
	return health || cost
}
