package instance

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/controller/write"
)

// Info names a kind: what its status, events, metrics and status bindings call it.
type Info struct {
	// Kind and APIVersion are those of the reconciled objects.
	Kind, APIVersion string
	// Resource is the plural the status bindings of selected objects name
	// (prometheuses, prometheusagents, alertmanagers, thanosrulers).
	Resource string
	// Paused is the Reconciled message of an object with spec.paused set.
	Paused string
}

// Steps are what one kind supplies to the Reconciler. O is the kind's object as its
// steps handle it, S what the controller remembers about one object between reconciles,
// St its status type.
type Steps[O client.Object, S any, St any] interface {
	// Get reads one object from the cache: the object the steps handle, and the object
	// itself (its metadata decides whether it is managed; events are about it).
	Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (O, client.Object, error)
	// List lists the objects of the kind from the cache, shared with it (read only).
	List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]O, error)
	// NewState returns the empty state of a newly seen object.
	NewState(nn types.NamespacedName) *S
	// Paused reports whether the object's spec.paused is set.
	Paused(o O) bool
	// Apply generates and applies everything but the status. The outcome is nil, an
	// *outcome.Note (success with something to say) or a failure; requeue, when positive,
	// is when the object wants to be reconciled again.
	Apply(ctx context.Context, o O, st *S) (requeue time.Duration, result error)
	// Status computes the object's status after a reconcile with the given outcome, and
	// returns it with the status the object has now.
	Status(ctx context.Context, o O, st *S, result error) (status, live St, err error)
	// Forget drops what the kind remembers about an object that is gone or no longer
	// this operator's (the Reconciler drops its own part).
	Forget(nn types.NamespacedName)
}

// Reconciler runs the lifecycle of one instance kind (see the package comment).
type Reconciler[O client.Object, S any, St any] struct {
	Deps
	// Cfg is the kind's shared configuration: the kind's own Config embeds it, so both
	// see one value.
	Cfg  *Config
	Info Info
	// Refs are the Secrets and ConfigMaps each object's last reconcile read, so that a
	// change of one reconciles the objects that read it.
	Refs *watch.RefIndex

	steps   Steps[O, S, St]
	written resourcestatus.Written[St]

	mu    sync.Mutex
	state map[types.NamespacedName]*slot[S]
}

// slot is one object's state and the lock its reconciles hold.
type slot[S any] struct {
	mu sync.Mutex
	s  *S
}

// New returns the Reconciler of a kind, filling in defaults for what d and cfg leave out
// (in place: cfg is the kind's own).
func New[O client.Object, S any, St any](d Deps, cfg *Config, info Info, steps Steps[O, S, St]) *Reconciler[O, S, St] {
	if d.Clock == nil {
		d.Clock = clock.RealClock{}
	}
	if d.Applier == nil {
		d.Applier = apply.New(d.Client, nil, d.Clock)
	}
	if d.Metrics == nil {
		d.Metrics, _ = NewMetrics(nil, info.Kind)
	}
	if cfg.MaxConcurrentReconciles < 1 {
		cfg.MaxConcurrentReconciles = 1
	}
	if cfg.InstanceSelector == nil {
		cfg.InstanceSelector = labels.Everything()
	}
	return &Reconciler[O, S, St]{
		Deps: d, Cfg: cfg, Info: info, Refs: watch.NewRefIndex(),
		steps: steps, state: map[types.NamespacedName]*slot[S]{},
	}
}

// Reconcile brings one object's generated objects in line with its spec and inputs, then
// writes its status. A failure is returned (and retried with backoff) after the status
// says why.
func (r *Reconciler[O, S, St]) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	defer r.Gate.Enter()()
	o, obj, err := r.steps.Get(ctx, r.Client, req.NamespacedName)
	if err != nil {
		if apierrors.IsNotFound(err) {
			r.Forget(req.NamespacedName)
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, fmt.Errorf("reading %s %s: %w", r.Info.Kind, req.NamespacedName, err)
	}
	if !r.Managed(obj) {
		r.Forget(req.NamespacedName)
		return reconcile.Result{}, nil
	}
	if obj.GetDeletionTimestamp() != nil {
		return reconcile.Result{}, client.IgnoreNotFound(r.releaseUpstreamFinalizer(ctx, obj, req.NamespacedName))
	}
	// prometheus_operator_spec_replicas and the like, whatever the reconcile's outcome.
	r.Upstream.ObserveSpec(req.String(), obj)
	sl := r.slotFor(req.NamespacedName)
	sl.mu.Lock()
	defer sl.mu.Unlock()

	start := r.Clock.Now()
	var (
		requeue time.Duration
		result  error
	)
	if r.steps.Paused(o) {
		result = &outcome.Note{Reason: outcome.ReasonPaused, Message: r.Info.Paused}
	} else {
		requeue, result = r.steps.Apply(ctx, o, sl.s)
	}
	if serr := r.writeStatus(ctx, o, obj, sl.s, result); serr != nil {
		log.FromContext(ctx).Error(serr, "updating "+r.Info.Kind+" status")
		if result == nil {
			result = serr
		}
	}
	ns, name := req.Namespace, req.Name
	if outcome.Succeeded(result) {
		r.Metrics.reconciled.WithLabelValues(ns, name).Set(1)
		r.Upstream.Reconciled(req.String(), r.Clock.Since(start), false)
		return reconcile.Result{RequeueAfter: requeue}, nil
	}
	reason := outcome.Reason(result)
	r.Metrics.reconciled.WithLabelValues(ns, name).Set(0)
	r.Metrics.reconcileFailures.WithLabelValues(ns, name, reason).Inc()
	r.Upstream.Reconciled(req.String(), r.Clock.Since(start), true)
	if r.Recorder != nil {
		r.Recorder.Eventf(obj, nil, corev1.EventTypeWarning, reason, "Reconcile", "%s", resourcestatus.Truncate(result.Error(), resourcestatus.MaxEventNoteBytes))
	}
	return reconcile.Result{}, result
}

// State returns the state of one object, creating it when the object is new. Reconciles
// of the object hold its lock; other readers (watch map functions) guard what they read
// themselves.
func (r *Reconciler[O, S, St]) State(nn types.NamespacedName) *S { return r.slotFor(nn).s }

func (r *Reconciler[O, S, St]) slotFor(nn types.NamespacedName) *slot[S] {
	r.mu.Lock()
	defer r.mu.Unlock()
	sl := r.state[nn]
	if sl == nil {
		sl = &slot[S]{s: r.steps.NewState(nn)}
		r.state[nn] = sl
	}
	return sl
}

// Forget drops everything remembered about an object that is gone or no longer this
// operator's: its state, references, written status, status bindings and metrics.
func (r *Reconciler[O, S, St]) Forget(nn types.NamespacedName) {
	r.mu.Lock()
	delete(r.state, nn)
	r.mu.Unlock()
	r.written.Forget(nn)
	r.Refs.Forget(nn)
	r.Statuses.Forget(r.Owner(nn))
	r.Metrics.Forget(nn.Namespace, nn.Name)
	r.Upstream.Forget(nn.String())
	r.steps.Forget(nn)
}

// Managed reports whether this operator is responsible for o: in a watched namespace,
// carrying this instance's controller ID, and matching the instance selector.
func (r *Reconciler[O, S, St]) Managed(o client.Object) bool {
	return write.Managed(o, r.Cfg.Scope, r.Cfg.ControllerID, r.Cfg.InstanceSelector)
}

// Owner is the status-binding owner an object of the kind is named as.
func (r *Reconciler[O, S, St]) Owner(nn types.NamespacedName) resourcestatus.Owner {
	return resourcestatus.Owner{Resource: r.Info.Resource, Namespace: nn.Namespace, Name: nn.Name}
}

// OwnerState tells the status controllers how an object named in a status binding
// relates to this operator.
func (r *Reconciler[O, S, St]) OwnerState(ctx context.Context, o resourcestatus.Owner) (resourcestatus.OwnerState, error) {
	return resourcestatus.StateOf(o, r.Info.Resource, func(nn types.NamespacedName) (bool, error) {
		_, obj, err := r.steps.Get(ctx, r.Client, nn)
		return err == nil && r.Managed(obj), err
	})
}

// Writer is the shared write path with this operator's labels and annotations.
func (r *Reconciler[O, S, St]) Writer() *write.Writer {
	return &write.Writer{Applier: r.Applier, APIReader: r.APIReader, Labels: r.Cfg.Labels, Annotations: r.Cfg.Annotations}
}
