package instance

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/controller/watch"
)

// Objects lists the managed objects of the kind from the cache (shared with it: read
// only).
func (r *Reconciler[O, S, St]) Objects(ctx context.Context, opts ...client.ListOption) ([]O, error) {
	list, err := r.steps.List(ctx, r.Client, opts...)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, o := range list {
		if r.Managed(o) {
			out = append(out, o)
		}
	}
	return out, nil
}

// Map returns a map function that reconciles the managed objects for which keep is true
// when o (of kind what, for the log) changes; inNamespace limits them to o's namespace.
func (r *Reconciler[O, S, St]) Map(what string, inNamespace bool, keep func(ctx context.Context, inst O, o client.Object) bool) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		var opts []client.ListOption
		if inNamespace {
			opts = append(opts, client.InNamespace(o.GetNamespace()))
		}
		objs, err := r.Objects(ctx, opts...)
		if err != nil {
			log.FromContext(ctx).Error(err, "listing "+r.Info.Kind+" objects to map a change to", "kind", what, "object", client.ObjectKeyFromObject(o))
			return nil
		}
		var out []reconcile.Request
		for _, inst := range objs {
			if keep(ctx, inst, o) {
				out = append(out, Request(inst))
			}
		}
		return out
	}
}

// Request is the reconcile request of an object.
func Request(o client.Object) reconcile.Request {
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}}
}

// MapAsset maps a Secret or ConfigMap (kind) to the objects of the kind owning it
// (unless the event is the echo of the operator's own write) and to those whose last
// reconcile read it (Refs); also, when set, adds what more a kind maps it to.
func (r *Reconciler[O, S, St]) MapAsset(kind string, also func(ctx context.Context, o client.Object, q watch.Queue)) handler.EventHandler {
	return watch.Changes(func(ctx context.Context, o client.Object, deleted bool, q watch.Queue) {
		if !watch.OwnEcho(r.Applier.Wrote, kind, o, deleted) {
			watch.EnqueueOwnersOf(o, r.Info.APIVersion, r.Info.Kind, q)
		}
		for _, nn := range r.Refs.Users(kind, o.GetNamespace(), o.GetName()) {
			q.Add(reconcile.Request{NamespacedName: nn})
		}
		if also != nil {
			also(ctx, o, q)
		}
	})
}

// Pointers returns pointers to the items of a list, for Steps.List.
func Pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// Get reads one object of a kind whose steps handle the object itself, for Steps.Get.
func Get[T any, PT interface {
	*T
	client.Object
}](ctx context.Context, c client.Reader, nn types.NamespacedName) (PT, client.Object, error) {
	o := PT(new(T))
	if err := c.Get(ctx, nn, o); err != nil {
		return nil, nil, err
	}
	return o, o, nil
}
