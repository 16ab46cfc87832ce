package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
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
	// synced holds, per object whose content Ensure can compare (Secrets and
	// ConfigMaps), the resourceVersion at which its content was last known to be what
	// the operator generates: written by us, or read back and found equal.
	synced map[writeKey]syncMemo
}

// syncMemo is an object version whose content matched the generated content of hash.
type syncMemo struct {
	hash, rv string
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
	return &Applier{client: c, clock: clk, metrics: m, written: map[writeKey]writeMemo{}, synced: map[writeKey]syncMemo{}}
}

// Option changes one Ensure call.
type Option func(*options)

type options struct {
	force  bool
	owns   func(live metav1.Object) bool
	reader client.Reader
	cached client.Object
}

// Drifted makes Ensure update the object even when the hashes match: the caller compared
// the live content and found it changed behind the hash (for instance a StatefulSet
// scaled by hand).
func Drifted(drifted bool) Option { return func(o *options) { o.force = o.force || drifted } }

// OwnedWhen replaces the owner-reference check for objects that cannot carry an owner
// reference (cluster-wide objects, or objects in another namespace than what they are
// generated for, such as the kubelet Service): the live object is the operator's when
// owns says so (typically by its managed-by label). obj then needs no owner reference.
func OwnedWhen(owns func(live metav1.Object) bool) Option {
	return func(o *options) { o.owns = owns }
}

// LiveReader lets Ensure read through r, straight from the API server, where the cached
// metadata cannot tell: whether an object the cache does not show, but that Ensure
// created moments ago, is still there (or was deleted before the cache saw it); and, for
// Secrets and ConfigMaps, whether a version of the object it has not written or checked
// before (someone else's update, or the first look after a restart) still holds the
// generated data, since an edit of the data that keeps the hash annotation is invisible
// in the metadata. Each version is read at most once; versions the Applier wrote itself
// are never read.
func LiveReader(r client.Reader) Option { return func(o *options) { o.reader = r } }

// CachedAs makes Ensure read the live object from the cache as empty, a new typed object
// of obj's kind, instead of as metadata. It is for kinds whose typed objects the cache
// holds already (the StatefulSets and DaemonSets the controllers own): read as metadata,
// the cache would start an informer of their metadata on the first read and wait for it
// to list every one, about 100 ms into the first reconcile, and then hold them twice.
func CachedAs(empty client.Object) Option { return func(o *options) { o.cached = empty } }

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
	owns := func(live metav1.Object) bool { return ownedBy(live, obj) }
	if o.owns != nil {
		owns = o.owns
	} else if len(obj.GetOwnerReferences()) == 0 {
		return false, fmt.Errorf("%s %s/%s has no owner reference", gvk.Kind, obj.GetNamespace(), obj.GetName())
	}
	var live client.Object = o.cached
	if live == nil {
		meta := &metav1.PartialObjectMetadata{}
		meta.SetGroupVersionKind(gvk)
		live = meta
	}
	key := writeKey{gvk.GroupKind(), obj.GetNamespace(), obj.GetName()}
	err := a.client.Get(ctx, types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}, live)
	switch {
	case apierrors.IsNotFound(err):
		if a.recentlyWritten(key, hash, "") {
			// Created moments ago and not in the cache yet, or deleted meanwhile: only
			// the API server can tell.
			gone, err := a.goneFromAPI(ctx, o.reader, gvk, obj)
			if err != nil || !gone {
				return false, err
			}
		}
		return a.create(ctx, gvk, key, hash, obj)
	case err != nil:
		return false, fmt.Errorf("reading %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	if !owns(live) {
		a.metrics.countConflict(gvk.Kind)
		return false, notOwned(gvk.Kind, live)
	}
	rv := live.GetResourceVersion()
	if !o.force && a.recentlyWritten(key, hash, rv) {
		return false, nil
	}
	if !o.force && live.GetAnnotations()[layout.InputHashAnnotation] == hash {
		same, freshRV, err := a.sameContent(ctx, o.reader, key, hash, rv, obj)
		switch {
		case err != nil || same:
			return false, err
		case freshRV == "":
			// Deleted since the cache saw it.
			return a.create(ctx, gvk, key, hash, obj)
		}
		rv = freshRV
	}
	obj.SetResourceVersion(rv)
	if err := a.client.Update(ctx, obj); err != nil {
		return false, fmt.Errorf("updating %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	a.metrics.CountWrite(gvk.Kind, "update")
	a.remember(key, hash, obj.GetResourceVersion(), rv)
	return true, nil
}

func (a *Applier) create(ctx context.Context, gvk schema.GroupVersionKind, key writeKey, hash string, obj client.Object) (bool, error) {
	obj.SetResourceVersion("")
	if err := a.client.Create(ctx, obj); err != nil {
		return false, fmt.Errorf("creating %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	a.metrics.CountWrite(gvk.Kind, "create")
	a.remember(key, hash, obj.GetResourceVersion(), "")
	return true, nil
}

// goneFromAPI reports whether obj is absent from the API server. Without a reader the
// cache's lag is assumed (the object is there).
func (a *Applier) goneFromAPI(ctx context.Context, r client.Reader, gvk schema.GroupVersionKind, obj client.Object) (bool, error) {
	if r == nil {
		return false, nil
	}
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(gvk)
	err := r.Get(ctx, client.ObjectKeyFromObject(obj), m)
	switch {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	return false, nil
}

// sameContent reports whether the live object, whose hash annotation is desired's and
// whose cached resourceVersion is rv, holds desired's content. Objects whose content
// the Applier cannot compare, and versions known to be in sync, are trusted. Otherwise
// the object is read through r and compared; freshRV is the version read, on which an
// update must be conditional, or "" when the object is gone.
func (a *Applier) sameContent(ctx context.Context, r client.Reader, key writeKey, hash, rv string, desired client.Object) (same bool, freshRV string, err error) {
	fresh := emptyLike(desired)
	if r == nil || fresh == nil || a.inSync(key, hash, rv) {
		return true, rv, nil
	}
	if err := r.Get(ctx, client.ObjectKeyFromObject(desired), fresh); err != nil {
		if apierrors.IsNotFound(err) {
			return false, "", nil
		}
		return false, "", fmt.Errorf("reading %s %s/%s to compare its content: %w", key.gk.Kind, desired.GetNamespace(), desired.GetName(), err)
	}
	if !equalContent(desired, fresh) {
		return false, fresh.GetResourceVersion(), nil
	}
	a.mu.Lock()
	a.synced[key] = syncMemo{hash: hash, rv: fresh.GetResourceVersion()}
	a.mu.Unlock()
	return true, rv, nil
}

func (a *Applier) inSync(key writeKey, hash, rv string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	m, ok := a.synced[key]
	return ok && m.hash == hash && m.rv == rv
}

// emptyLike returns a new object of desired's kind when the Applier can compare that
// kind's content (Secrets and ConfigMaps: their data is all the operator generates),
// nil otherwise.
func emptyLike(desired client.Object) client.Object {
	switch desired.(type) {
	case *corev1.Secret:
		return &corev1.Secret{}
	case *corev1.ConfigMap:
		return &corev1.ConfigMap{}
	}
	return nil
}

// equalContent compares the data of a generated Secret or ConfigMap with a live one.
func equalContent(desired, live client.Object) bool {
	switch d := desired.(type) {
	case *corev1.Secret:
		// The type is immutable: a Secret of another type cannot be updated anyway.
		return equalBytes(d.Data, live.(*corev1.Secret).Data)
	case *corev1.ConfigMap:
		l := live.(*corev1.ConfigMap)
		return maps.Equal(d.Data, l.Data) && equalBytes(d.BinaryData, l.BinaryData)
	}
	return true
}

func equalBytes(a, b map[string][]byte) bool {
	return maps.EqualFunc(a, b, func(x, y []byte) bool { return bytes.Equal(x, y) })
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

// Wrote reports whether o, as a watch event delivers it, is at the version the Applier's
// own last write of it produced (gk is o's group and kind). Such an event is the echo of
// that write: the reconcile that made it had everything in place, and reconciling the
// owner again would only find so. A delete is never an echo; callers must not ask.
func (a *Applier) Wrote(gk schema.GroupKind, o client.Object) bool {
	rv := o.GetResourceVersion()
	if a == nil || rv == "" {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	m, ok := a.written[writeKey{gk, o.GetNamespace(), o.GetName()}]
	return ok && m.rv == rv
}

func (a *Applier) remember(key writeKey, hash, rv, previousRV string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.written[key] = writeMemo{hash: hash, rv: rv, previousRV: previousRV, at: a.clock.Now()}
	a.synced[key] = syncMemo{hash: hash, rv: rv}
}

// Delete deletes live, as read by the caller, if it is owned by owner; a live object
// owned by something else is left alone (a *NotOwnedError). The delete is conditional on
// live's UID, so an object recreated in between by someone else is not deleted either.
// A missing object is not an error.
func (a *Applier) Delete(ctx context.Context, kind string, live client.Object, owner types.UID, opts ...client.DeleteOption) error {
	return a.DeleteIf(ctx, kind, live, func(o metav1.Object) bool { return hasOwner(o, owner) }, opts...)
}

// DeleteIf is Delete with the ownership decided by owns (see OwnedWhen).
func (a *Applier) DeleteIf(ctx context.Context, kind string, live client.Object, owns func(metav1.Object) bool, opts ...client.DeleteOption) error {
	if !owns(live) {
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
			delete(a.synced, k)
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
