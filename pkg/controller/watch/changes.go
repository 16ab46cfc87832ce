package watch

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Queue is a controller's work queue.
type Queue = workqueue.TypedRateLimitingInterface[reconcile.Request]

// Changes is an event handler that calls enqueue with the object of every create, delete
// and update, and whether it was deleted; an update that keeps the resourceVersion (an
// informer resync) changed nothing and is skipped.
func Changes(enqueue func(ctx context.Context, o client.Object, deleted bool, q Queue)) handler.EventHandler {
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, e event.CreateEvent, q Queue) { enqueue(ctx, e.Object, false, q) },
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q Queue) {
			if e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion() {
				return
			}
			enqueue(ctx, e.ObjectNew, false, q)
		},
		DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q Queue) { enqueue(ctx, e.Object, true, q) },
	}
}

// Wrote tells whether a Secret or ConfigMap (kind), as a create or update event delivers
// it, is at the version the operator's own last write produced (apply.Applier.Wrote).
type Wrote func(gk schema.GroupKind, o client.Object) bool

// OwnEcho reports whether a Secret or ConfigMap event of kind is the echo of the operator's
// own write, after which its owners need no reconcile: at 20,000 monitors every config
// change otherwise ran a second, idle reconcile of the Prometheus, doubling the CPU of a
// change. Deletes are never echoes. The objects whose configuration reads the asset are
// still reconciled: another owner's generated object can be someone's input.
func OwnEcho(wrote Wrote, kind string, o client.Object, deleted bool) bool {
	return !deleted && wrote != nil && wrote(schema.GroupKind{Kind: kind}, o)
}

// EnqueueOwnersOf adds to q the owners of o of kind in apiVersion (for example
// monitoring.coreos.com/v1 Prometheus), in o's namespace.
func EnqueueOwnersOf(o client.Object, apiVersion, kind string, q Queue) {
	for _, ref := range o.GetOwnerReferences() {
		if ref.Kind == kind && ref.APIVersion == apiVersion {
			q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: ref.Name}})
		}
	}
}
