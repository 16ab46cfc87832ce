package apply

import (
	"context"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Applier creates, updates and deletes generated objects.
type Applier struct {
	// Client writes to the API server; its reads of PartialObjectMetadata come from the
	// metadata cache.
	Client client.Client

	mu      sync.Mutex
	written map[writeKey]writeMemo
}

type writeKey struct {
	gk        schema.GroupKind
	namespace string
	name      string
}

// writeMemo remembers our last write of an object: until the cache catches up, the cached
// object still has the previous resourceVersion, and comparing with it would write again.
type writeMemo struct {
	hash           string
	rv, previousRV string
	at             time.Time
}

// memoTTL bounds how long a write is trusted over the cache: long enough for the watch
// event to arrive, short enough that an object deleted behind our back is recreated.
const memoTTL = 10 * time.Second

// New returns an Applier.
func New(c client.Client) *Applier {
	return &Applier{Client: c, written: map[writeKey]writeMemo{}}
}

// Ensure creates obj or replaces the live object when its content hash differs; obj must
// carry that hash in the layout.InputHashAnnotation annotation. gvk names the kind for the
// metadata lookup. It returns whether it wrote.
func (a *Applier) Ensure(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) (bool, error) {
	hash := obj.GetAnnotations()[layout.InputHashAnnotation]
	if hash == "" {
		return false, fmt.Errorf("%s %s/%s has no %s annotation", gvk.Kind, obj.GetNamespace(), obj.GetName(), layout.InputHashAnnotation)
	}
	live := &metav1.PartialObjectMetadata{}
	live.SetGroupVersionKind(gvk)
	key := writeKey{gvk.GroupKind(), obj.GetNamespace(), obj.GetName()}
	err := a.Client.Get(ctx, types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}, live)
	switch {
	case apierrors.IsNotFound(err):
		if a.recentlyWritten(key, hash, "") {
			return false, nil
		}
		obj.SetResourceVersion("")
		if err := a.Client.Create(ctx, obj); err != nil {
			return false, fmt.Errorf("creating %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
		}
		countWrite(gvk.Kind, "create")
		a.remember(key, hash, obj.GetResourceVersion(), "")
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	if live.GetAnnotations()[layout.InputHashAnnotation] == hash || a.recentlyWritten(key, hash, live.GetResourceVersion()) {
		return false, nil
	}
	obj.SetResourceVersion(live.GetResourceVersion())
	if err := a.Client.Update(ctx, obj); err != nil {
		return false, fmt.Errorf("updating %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	countWrite(gvk.Kind, "update")
	a.remember(key, hash, obj.GetResourceVersion(), live.GetResourceVersion())
	return true, nil
}

// recentlyWritten reports whether we wrote this content and the cache only shows the
// object as it was before (or not at all, right after a create).
func (a *Applier) recentlyWritten(key writeKey, hash, liveRV string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	m, ok := a.written[key]
	if !ok || m.hash != hash || time.Since(m.at) > memoTTL {
		return false
	}
	return liveRV == m.previousRV || liveRV == m.rv
}

func (a *Applier) remember(key writeKey, hash, rv, previousRV string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.written[key] = writeMemo{hash: hash, rv: rv, previousRV: previousRV, at: time.Now()}
}

// Delete deletes an object if it exists, counting the write.
func (a *Applier) Delete(ctx context.Context, obj client.Object, kind string, opts ...client.DeleteOption) error {
	if err := a.Client.Delete(ctx, obj, opts...); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("deleting %s %s/%s: %w", kind, obj.GetNamespace(), obj.GetName(), err)
	}
	countWrite(kind, "delete")
	a.mu.Lock()
	for k := range a.written {
		if k.namespace == obj.GetNamespace() && k.name == obj.GetName() && k.gk.Kind == kind {
			delete(a.written, k)
		}
	}
	a.mu.Unlock()
	return nil
}

// CountWrite records a write made outside Ensure and Delete (status updates).
func CountWrite(kind, verb string) { countWrite(kind, verb) }
