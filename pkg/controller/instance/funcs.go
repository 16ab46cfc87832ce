package instance

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Funcs are the Steps of a kind whose steps handle the object itself (Alertmanager,
// ThanosRuler): T is the object's type and L its list's, S the state and St the status.
// The kind supplies only what differs; Get and List read the cache, and the state starts
// empty.
type Funcs[T any, PT interface {
	*T
	client.Object
}, L any, PL interface {
	*L
	client.ObjectList
}, S any, St any] struct {
	// Defaults, when set, fills in what Get's caller must see set (the default version).
	Defaults func(PT) PT
	// Items are the items of a list.
	Items func(PL) []T
	// IsPaused reports whether spec.paused is set.
	IsPaused func(PT) bool
	// Reconcile generates and applies everything but the status (Steps.Apply, never
	// asking for a requeue).
	Reconcile func(ctx context.Context, o PT, st *S) error
	// NewStatus computes the status after a reconcile with the given outcome; Live is
	// the status the object has.
	NewStatus func(ctx context.Context, o PT, st *S, result error) (St, error)
	Live      func(PT) St
	// Drop, when set, forgets what the kind keeps about a gone object beyond its state.
	Drop func(types.NamespacedName)
}

// Get reads the object from the cache, with Defaults applied.
func (f Funcs[T, PT, L, PL, S, St]) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (PT, client.Object, error) {
	o, obj, err := Get[T, PT](ctx, c, nn)
	if err != nil || f.Defaults == nil {
		return o, obj, err
	}
	return f.Defaults(o), obj, nil
}

// List lists the objects from the cache, shared with it.
func (f Funcs[T, PT, L, PL, S, St]) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]PT, error) {
	list := PL(new(L))
	if err := c.List(ctx, list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	items := f.Items(list)
	out := make([]PT, len(items))
	for i := range items {
		out[i] = PT(&items[i])
	}
	return out, nil
}

// NewState returns an empty state.
func (Funcs[T, PT, L, PL, S, St]) NewState(types.NamespacedName) *S { return new(S) }

// Paused is IsPaused.
func (f Funcs[T, PT, L, PL, S, St]) Paused(o PT) bool { return f.IsPaused(o) }

// Apply is Reconcile.
func (f Funcs[T, PT, L, PL, S, St]) Apply(ctx context.Context, o PT, st *S) (time.Duration, error) {
	return 0, f.Reconcile(ctx, o, st)
}

// Status is NewStatus, with the object's Live status.
func (f Funcs[T, PT, L, PL, S, St]) Status(ctx context.Context, o PT, st *S, result error) (St, St, error) {
	status, err := f.NewStatus(ctx, o, st, result)
	return status, f.Live(o), err
}

// Forget calls Drop, when set.
func (f Funcs[T, PT, L, PL, S, St]) Forget(nn types.NamespacedName) {
	if f.Drop != nil {
		f.Drop(nn)
	}
}
