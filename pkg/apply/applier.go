package apply

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Applier creates, updates and deletes generated objects. It is the only write path for
// them: every controller constructs its objects, hashes their content into
// layout.InputHashAnnotation and hands them to Ensure.
type Applier struct {
	client  client.Client
	clock   clock.PassiveClock
	metrics *Metrics

	mu      sync.Mutex
	written map[writeKey]writeMemo
}

type writeKey struct {
	gk        schema.GroupKind
	namespace string
	name      string
}

// writeMemo remembers our last write of an object: until the cache catches up, the cached
// object still has the previous resourceVersion (or is missing, after a create), and
// comparing with it would write again.
type writeMemo struct {
	hash           string
	rv, previousRV string
	at             time.Time
}

// memoTTL bounds how long a write is trusted over the cache: long enough for the watch
// event to arrive, short enough that an object deleted behind our back is recreated.
const memoTTL = 10 * time.Second

// New returns an Applier writing through c, whose reads of PartialObjectMetadata should
// come from a metadata cache. m may be nil (writes are not counted); clk nil means the
// real clock.
func New(c client.Client, m *Metrics, clk clock.PassiveClock) *Applier {
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &Applier{client: c, clock: clk, metrics: m, written: map[writeKey]writeMemo{}}
}

// Option changes one Ensure call.
type Option func(*options)

type options struct{ force bool }

// Drifted makes Ensure update the object even when the hashes match: the caller compared
// the live content and found it changed behind the hash (for instance a StatefulSet
// scaled by hand).
func Drifted(drifted bool) Option { return func(o *options) { o.force = o.force || drifted } }

// Ensure creates obj, or replaces the live object when its content hash differs. obj must
// carry the hash of its content in the layout.InputHashAnnotation annotation, and its
// owner references: a live object owned by none of them is never written (the result is
// a *NotOwnedError). gvk names the kind for the metadata lookup. It returns whether it
// wrote.
func (a *Applier) Ensure(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object, opts ...Option) (bool, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	hash := obj.GetAnnotations()[layout.InputHashAnnotation]
	if hash == "" {
		return false, fmt.Errorf("%s %s/%s has no %s annotation", gvk.Kind, obj.GetNamespace(), obj.GetName(), layout.InputHashAnnotation)
	}
	if len(obj.GetOwnerReferences()) == 0 {
		return false, fmt.Errorf("%s %s/%s has no owner reference", gvk.Kind, obj.GetNamespace(), obj.GetName())
	}
	live := &metav1.PartialObjectMetadata{}
	live.SetGroupVersionKind(gvk)
	key := writeKey{gvk.GroupKind(), obj.GetNamespace(), obj.GetName()}
	err := a.client.Get(ctx, types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}, live)
	switch {
	case apierrors.IsNotFound(err):
		if a.recentlyWritten(key, hash, "") {
			return false, nil
		}
		obj.SetResourceVersion("")
		if err := a.client.Create(ctx, obj); err != nil {
			return false, fmt.Errorf("creating %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
		}
		a.metrics.CountWrite(gvk.Kind, "create")
		a.remember(key, hash, obj.GetResourceVersion(), "")
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	if !ownedBy(live, obj) {
		a.metrics.countConflict(gvk.Kind)
		return false, notOwned(gvk.Kind, live)
	}
	if !o.force && (live.GetAnnotations()[layout.InputHashAnnotation] == hash || a.recentlyWritten(key, hash, live.GetResourceVersion())) {
		return false, nil
	}
	obj.SetResourceVersion(live.GetResourceVersion())
	if err := a.client.Update(ctx, obj); err != nil {
		return false, fmt.Errorf("updating %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	a.metrics.CountWrite(gvk.Kind, "update")
	a.remember(key, hash, obj.GetResourceVersion(), live.GetResourceVersion())
	return true, nil
}

// recentlyWritten reports whether we wrote this content and the cache only shows the
// object as it was before (or not at all, right after a create).
func (a *Applier) recentlyWritten(key writeKey, hash, liveRV string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	m, ok := a.written[key]
	if !ok || m.hash != hash || a.clock.Since(m.at) > memoTTL {
		return false
	}
	return liveRV == m.previousRV || liveRV == m.rv
}

func (a *Applier) remember(key writeKey, hash, rv, previousRV string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.written[key] = writeMemo{hash: hash, rv: rv, previousRV: previousRV, at: a.clock.Now()}
}

// Delete deletes live, as read by the caller, if it is owned by owner; a live object
// owned by something else is left alone (a *NotOwnedError). The delete is conditional on
// live's UID, so an object recreated in between by someone else is not deleted either.
// A missing object is not an error.
func (a *Applier) Delete(ctx context.Context, kind string, live client.Object, owner types.UID, opts ...client.DeleteOption) error {
	if !hasOwner(live, owner) {
		a.metrics.countConflict(kind)
		return notOwned(kind, live)
	}
	if uid := live.GetUID(); uid != "" {
		opts = append(opts, client.Preconditions{UID: &uid})
	}
	if err := a.client.Delete(ctx, live, opts...); err != nil {
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil // gone, or replaced by an object that is not ours to delete
		}
		return fmt.Errorf("deleting %s %s/%s: %w", kind, live.GetNamespace(), live.GetName(), err)
	}
	a.metrics.CountWrite(kind, "delete")
	a.mu.Lock()
	for k := range a.written {
		if k.namespace == live.GetNamespace() && k.name == live.GetName() && k.gk.Kind == kind {
			delete(a.written, k)
		}
	}
	a.mu.Unlock()
	return nil
}

// CountWrite records a write made outside Ensure and Delete (status writes).
func (a *Applier) CountWrite(kind, verb string) { a.metrics.CountWrite(kind, verb) }

// IsNotOwned reports whether err is (or wraps) a *NotOwnedError.
func IsNotOwned(err error) bool {
	var e *NotOwnedError
	return errors.As(err, &e)
}

func hasOwner(o metav1.Object, uid types.UID) bool {
	for _, r := range o.GetOwnerReferences() {
		if r.UID == uid {
			return true
		}
	}
	return false
}
