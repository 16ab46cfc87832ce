package apply

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/layout"
)

var secretGVK = corev1.SchemeGroupVersion.WithKind("Secret")

func owner(uid string) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "monitoring.coreos.com/v1", Kind: "Prometheus", Name: "p-" + uid, UID: types.UID(uid)}
}

func secret(name, hash string, data string, owners ...metav1.OwnerReference) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Annotations: map[string]string{layout.InputHashAnnotation: hash}, OwnerReferences: owners},
		Data:       map[string][]byte{"k": []byte(data)},
	}
}

func newApplier(t *testing.T, objs ...client.Object) (*Applier, client.Client, *Metrics, *clocktesting.FakeClock) {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	clk := clocktesting.NewFakeClock(time.Unix(1_000_000, 0))
	return New(c, m, clk), c, m, clk
}

func writes(m *Metrics, verb string) int {
	return int(testutil.ToFloat64(m.Writes.WithLabelValues("Secret", verb)))
}

func liveData(t *testing.T, c client.Client, name string) string {
	t.Helper()
	s := &corev1.Secret{}
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "ns", Name: name}, s); err != nil {
		t.Fatal(err)
	}
	return string(s.Data["k"])
}

func TestEnsureCreatesUpdatesAndSkips(t *testing.T) {
	ctx := context.Background()
	a, c, m, _ := newApplier(t)
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a"))); err != nil || !wrote {
		t.Fatalf("create: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a"))); err != nil || wrote {
		t.Fatalf("same hash: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); err != nil || !wrote {
		t.Fatalf("new hash: wrote=%v err=%v", wrote, err)
	}
	if got := liveData(t, c, "s"); got != "two" {
		t.Fatalf("live data %q, want two", got)
	}
	if writes(m, "create") != 1 || writes(m, "update") != 1 {
		t.Fatalf("writes: create %d update %d, want 1 and 1", writes(m, "create"), writes(m, "update"))
	}
	// Drifted forces a rewrite of unchanged content.
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a")), Drifted(true)); err != nil || !wrote {
		t.Fatalf("drifted: wrote=%v err=%v", wrote, err)
	}
}

func TestEnsureRequiresHashAndOwner(t *testing.T) {
	a, _, _, _ := newApplier(t)
	if _, err := a.Ensure(context.Background(), secretGVK, secret("s", "", "x", owner("a"))); err == nil {
		t.Fatal("no hash: want an error")
	}
	if _, err := a.Ensure(context.Background(), secretGVK, secret("s", "h", "x")); err == nil {
		t.Fatal("no owner: want an error")
	}
}

func TestEnsureNeverWritesWhatItDoesNotOwn(t *testing.T) {
	ctx := context.Background()
	for name, live := range map[string]*corev1.Secret{
		"user's own":         secret("s", "user", "mine"),
		"other Prometheus":   secret("s", "h0", "theirs", owner("b")),
		"same hash, foreign": secret("s", "h1", "theirs", owner("b")),
	} {
		t.Run(name, func(t *testing.T) {
			a, c, m, _ := newApplier(t, live)
			_, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")))
			if !IsNotOwned(err) {
				t.Fatalf("want a NotOwnedError, got %v", err)
			}
			if got := liveData(t, c, "s"); got != string(live.Data["k"]) {
				t.Fatalf("live data changed to %q", got)
			}
			if writes(m, "update") != 0 || testutil.ToFloat64(m.Conflicts.WithLabelValues("Secret")) != 1 {
				t.Fatal("want no write and one conflict counted")
			}
		})
	}
	// A shared object (several owners) may be written by any of them.
	a, _, _, _ := newApplier(t, secret("s", "h0", "shared", owner("a"), owner("b")))
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "shared2", owner("b"), owner("c"))); err != nil || !wrote {
		t.Fatalf("co-owned: wrote=%v err=%v", wrote, err)
	}
}

// staleClient serves Gets of one object from a frozen copy, as an informer cache does
// before the watch event of our own write arrives.
type staleClient struct {
	client.Client
	frozen *metav1.PartialObjectMetadata // nil: reads say NotFound
}

func (s *staleClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	if s.frozen == nil {
		return apierrors.NewNotFound(corev1.Resource("secrets"), key.Name)
	}
	s.frozen.DeepCopyInto(obj.(*metav1.PartialObjectMetadata))
	return nil
}

func TestWriteMemoBridgesTheCacheLag(t *testing.T) {
	ctx := context.Background()
	_, c, _, _ := newApplier(t)
	m, _ := NewMetrics(nil)
	clk := clocktesting.NewFakeClock(time.Unix(1_000_000, 0))
	stale := &staleClient{Client: c}
	a := New(stale, m, clk)

	// Created, but the cache does not show it yet: no second create.
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a"))); err != nil || !wrote {
		t.Fatalf("create: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a"))); err != nil || wrote {
		t.Fatalf("create during lag: wrote=%v err=%v", wrote, err)
	}

	// The cache shows the created object; update to h2, then the cache still shows h1.
	live := &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, live); err != nil {
		t.Fatal(err)
	}
	stale.frozen = &metav1.PartialObjectMetadata{ObjectMeta: *live.ObjectMeta.DeepCopy()}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); err != nil || !wrote {
		t.Fatalf("update: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); err != nil || wrote {
		t.Fatalf("update during lag: wrote=%v err=%v", wrote, err)
	}
	if writes(m, "update") != 1 {
		t.Fatalf("updates %d, want 1", writes(m, "update"))
	}
	// Past the memo's lifetime the cache is believed again: the stale cache makes Ensure
	// try to write, and the API server's resourceVersion check refuses the stale update
	// (the reconcile is retried) instead of the memo hiding a change for good.
	clk.Step(memoTTL + time.Second)
	if _, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); !apierrors.IsConflict(errors.Unwrap(err)) {
		t.Fatalf("after the memo expired, with a stale cache: want a conflict, got %v", err)
	}
	// Once the cache caught up, nothing is written.
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, live); err != nil {
		t.Fatal(err)
	}
	stale.frozen = &metav1.PartialObjectMetadata{ObjectMeta: *live.ObjectMeta.DeepCopy()}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); err != nil || wrote {
		t.Fatalf("cache caught up: wrote=%v err=%v", wrote, err)
	}
}

func TestDeleteOnlyOwned(t *testing.T) {
	ctx := context.Background()
	mine := secret("mine", "h", "x", owner("a"))
	theirs := secret("theirs", "h", "x", owner("b"))
	a, c, m, _ := newApplier(t, mine, theirs)
	get := func(name string) *corev1.Secret {
		s := &corev1.Secret{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: name}, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := a.Delete(ctx, "Secret", get("theirs"), "a"); !IsNotOwned(err) {
		t.Fatalf("deleting a foreign object: want NotOwnedError, got %v", err)
	}
	live := get("mine")
	if err := a.Delete(ctx, "Secret", live, "a"); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, "Secret", live, "a"); err != nil {
		t.Fatalf("deleting a deleted object: %v", err)
	}
	if writes(m, "delete") != 1 {
		t.Fatalf("deletes %d, want 1", writes(m, "delete"))
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "theirs"}, &corev1.Secret{}); err != nil {
		t.Fatalf("the foreign object is gone: %v", err)
	}
}

func TestOwnedWhen(t *testing.T) {
	ctx := context.Background()
	managed := func(o metav1.Object) bool {
		return o.GetLabels()["app.kubernetes.io/managed-by"] == "prometheus-operator"
	}
	ours := secret("ours", "h0", "x")
	ours.Labels = map[string]string{"app.kubernetes.io/managed-by": "prometheus-operator"}
	a, c, _, _ := newApplier(t, ours, secret("user", "h0", "x"))
	desired := func(name string) *corev1.Secret {
		s := secret(name, "h1", "new")
		s.Labels = map[string]string{"app.kubernetes.io/managed-by": "prometheus-operator"}
		return s
	}
	if wrote, err := a.Ensure(ctx, secretGVK, desired("ours"), OwnedWhen(managed)); err != nil || !wrote {
		t.Fatalf("labelled as ours: wrote=%v err=%v", wrote, err)
	}
	if _, err := a.Ensure(ctx, secretGVK, desired("user"), OwnedWhen(managed)); !IsNotOwned(err) {
		t.Fatalf("a user's object: want NotOwnedError, got %v", err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, desired("new"), OwnedWhen(managed)); err != nil || !wrote {
		t.Fatalf("create without owner reference: wrote=%v err=%v", wrote, err)
	}
	user := &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "user"}, user); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteIf(ctx, "Secret", user, managed); !IsNotOwned(err) {
		t.Fatalf("deleting a user's object: want NotOwnedError, got %v", err)
	}
}

// countingReader counts the reads that go past the cache.
type countingReader struct {
	client.Reader
	gets int
}

func (r *countingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.gets++
	return r.Reader.Get(ctx, key, obj, opts...)
}

// TestDataEditBehindTheHashIsRewritten: someone replaces a generated Secret's data and
// keeps its hash annotation. The metadata cannot tell; with a LiveReader, Ensure reads
// that new version once, finds the data changed and writes it back, and reads nothing for
// versions it wrote or already checked.
func TestDataEditBehindTheHashIsRewritten(t *testing.T) {
	ctx := context.Background()
	a, c, m, _ := newApplier(t)
	r := &countingReader{Reader: c}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(r)); err != nil || !wrote {
		t.Fatalf("create: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(r)); err != nil || wrote || r.gets != 0 {
		t.Fatalf("our own version: wrote=%v err=%v reads=%d, want no write and no read", wrote, err, r.gets)
	}

	edited := &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, edited); err != nil {
		t.Fatal(err)
	}
	edited.Data["k"] = []byte("theirs")
	if err := c.Update(ctx, edited); err != nil {
		t.Fatal(err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(r)); err != nil || !wrote {
		t.Fatalf("after a data edit: wrote=%v err=%v, want a write", wrote, err)
	}
	if got := liveData(t, c, "s"); got != "ours" {
		t.Fatalf("live data %q, want ours", got)
	}
	if r.gets != 1 || writes(m, "update") != 1 {
		t.Fatalf("reads %d, updates %d: want one of each", r.gets, writes(m, "update"))
	}
	// The version just written is known: no read, no write.
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(r)); err != nil || wrote || r.gets != 1 {
		t.Fatalf("after the rewrite: wrote=%v err=%v reads=%d", wrote, err, r.gets)
	}

	// A metadata-only edit (a label) keeps the data: read once, not written.
	edited = &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, edited); err != nil {
		t.Fatal(err)
	}
	edited.Labels = map[string]string{"someone": "else"}
	if err := c.Update(ctx, edited); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(r)); err != nil || wrote {
			t.Fatalf("after a label edit: wrote=%v err=%v", wrote, err)
		}
	}
	if r.gets != 2 || writes(m, "update") != 1 {
		t.Fatalf("reads %d, updates %d: want the new version read once and no write", r.gets, writes(m, "update"))
	}

	// Without a LiveReader, the hash annotation decides, as before.
	edited = &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, edited); err != nil {
		t.Fatal(err)
	}
	edited.Data["k"] = []byte("theirs")
	if err := c.Update(ctx, edited); err != nil {
		t.Fatal(err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a"))); err != nil || wrote {
		t.Fatalf("no LiveReader: wrote=%v err=%v", wrote, err)
	}
}

// TestConfigMapDataCompared: ConfigMaps are compared by Data and BinaryData.
func TestConfigMapDataCompared(t *testing.T) {
	ctx := context.Background()
	a, c, m, _ := newApplier(t)
	r := &countingReader{Reader: c}
	cmGVK := corev1.SchemeGroupVersion.WithKind("ConfigMap")
	desired := func() *corev1.ConfigMap {
		return &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "rules", Annotations: map[string]string{layout.InputHashAnnotation: "h"}, OwnerReferences: []metav1.OwnerReference{owner("a")}},
			Data:       map[string]string{"a.yaml": "groups: []"},
			BinaryData: map[string][]byte{"b": {1, 2}},
		}
	}
	if _, err := a.Ensure(ctx, cmGVK, desired(), LiveReader(r)); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*corev1.ConfigMap){
		"data":        func(cm *corev1.ConfigMap) { cm.Data["a.yaml"] = "groups: [x]" },
		"binary data": func(cm *corev1.ConfigMap) { cm.BinaryData["b"] = []byte{3} },
		"extra key":   func(cm *corev1.ConfigMap) { cm.Data["extra.yaml"] = "" },
	} {
		live := &corev1.ConfigMap{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "rules"}, live); err != nil {
			t.Fatal(err)
		}
		edit(live)
		if err := c.Update(ctx, live); err != nil {
			t.Fatal(err)
		}
		if wrote, err := a.Ensure(ctx, cmGVK, desired(), LiveReader(r)); err != nil || !wrote {
			t.Fatalf("%s edited: wrote=%v err=%v", name, wrote, err)
		}
	}
	if got := int(testutil.ToFloat64(m.Writes.WithLabelValues("ConfigMap", "update"))); got != 3 {
		t.Fatalf("ConfigMap updates %d, want 3", got)
	}
}

// TestRestartReadsOnceWritesNothing: a new Applier (an operator restart) has no memo:
// each generated Secret is read once and, unchanged, not written.
func TestRestartReadsOnceWritesNothing(t *testing.T) {
	ctx := context.Background()
	a, c, m, _ := newApplier(t, secret("s", "h1", "ours", owner("a")))
	r := &countingReader{Reader: c}
	for range 3 {
		if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(r)); err != nil || wrote {
			t.Fatalf("wrote=%v err=%v", wrote, err)
		}
	}
	if r.gets != 1 || writes(m, "update")+writes(m, "create") != 0 {
		t.Fatalf("reads %d, writes %d: want one read and no write", r.gets, writes(m, "update")+writes(m, "create"))
	}
	// Kinds whose content the Applier does not compare are never read.
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc", Annotations: map[string]string{layout.InputHashAnnotation: "h"}, OwnerReferences: []metav1.OwnerReference{owner("a")}}}
	svcGVK := corev1.SchemeGroupVersion.WithKind("Service")
	if _, err := a.Ensure(ctx, svcGVK, svc.DeepCopy(), LiveReader(r)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ensure(ctx, svcGVK, svc.DeepCopy(), LiveReader(r)); err != nil {
		t.Fatal(err)
	}
	if r.gets != 1 {
		t.Fatalf("reads %d: a Service was read", r.gets)
	}
}

// TestDeletedBeforeTheCacheSawItIsRecreated: an object deleted right after Ensure created
// it looks, in the cache, like a create the cache has not caught up with. The write memo
// alone would skip it until it expires, and nothing would reconcile it again; with a
// LiveReader the API server tells, and the object is created again. While the object
// really is there, nothing is written.
func TestDeletedBeforeTheCacheSawItIsRecreated(t *testing.T) {
	ctx := context.Background()
	_, c, _, _ := newApplier(t)
	m, _ := NewMetrics(nil)
	clk := clocktesting.NewFakeClock(time.Unix(1_000_000, 0))
	stale := &staleClient{Client: c} // the cache never shows the object
	a := New(stale, m, clk)
	r := &countingReader{Reader: c}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a")), LiveReader(r)); err != nil || !wrote {
		t.Fatalf("create: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a")), LiveReader(r)); err != nil || wrote {
		t.Fatalf("present, cache behind: wrote=%v err=%v", wrote, err)
	}
	if err := c.Delete(ctx, secret("s", "", "")); err != nil {
		t.Fatal(err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a")), LiveReader(r)); err != nil || !wrote {
		t.Fatalf("deleted within the memo's lifetime: wrote=%v err=%v, want it created again", wrote, err)
	}
	if got := liveData(t, c, "s"); got != "one" || writes(m, "create") != 2 || r.gets != 2 {
		t.Fatalf("data %q, creates %d, reads %d", got, writes(m, "create"), r.gets)
	}
}

// TestDeletedBetweenCacheAndRead: the cache still shows an object someone else edited
// and then deleted; the read finds it gone and Ensure creates it.
func TestDeletedBetweenCacheAndRead(t *testing.T) {
	ctx := context.Background()
	_, c, _, _ := newApplier(t, secret("s", "h1", "theirs", owner("a")))
	live := &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, live); err != nil {
		t.Fatal(err)
	}
	stale := &staleClient{Client: c, frozen: &metav1.PartialObjectMetadata{ObjectMeta: *live.ObjectMeta.DeepCopy()}}
	m, _ := NewMetrics(nil)
	a := New(stale, m, clocktesting.NewFakeClock(time.Unix(1_000_000, 0)))
	if err := c.Delete(ctx, live); err != nil {
		t.Fatal(err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "ours", owner("a")), LiveReader(c)); err != nil || !wrote {
		t.Fatalf("wrote=%v err=%v, want a create", wrote, err)
	}
	if got := liveData(t, c, "s"); got != "ours" || writes(m, "create") != 1 {
		t.Fatalf("data %q, creates %d", got, writes(m, "create"))
	}
}

func TestMetricsTotal(t *testing.T) {
	m, _ := NewMetrics(nil)
	m.CountWrite("Secret", "create")
	m.CountWrite("Secret", "update")
	m.CountWrite("StatefulSet", "update")
	if got := m.Total(); got != 3 {
		t.Fatalf("Total() = %v, want 3", got)
	}
}

// readTypes records the Go type of every object Get reads into.
type readTypes struct {
	client.Client
	types []string
}

func (r *readTypes) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.types = append(r.types, fmt.Sprintf("%T", obj))
	return r.Client.Get(ctx, key, obj, opts...)
}

// TestCachedAs: with CachedAs, Ensure reads the live object as the typed object given,
// not as metadata, and judges it the same way: it creates, skips an unchanged hash,
// updates a changed one and refuses what it does not own.
func TestCachedAs(t *testing.T) {
	ctx := context.Background()
	_, c, m, clk := newApplier(t, secret("foreign", "h0", "theirs", owner("b")))
	rec := &readTypes{Client: c}
	a := New(rec, m, clk)
	typed := func() Option { return CachedAs(&corev1.Secret{}) }
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a")), typed()); err != nil || !wrote {
		t.Fatalf("create: wrote=%v err=%v", wrote, err)
	}
	clk.Step(memoTTL + time.Second) // past the write memo: the hash comparison decides
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a")), typed()); err != nil || wrote {
		t.Fatalf("same hash: wrote=%v err=%v", wrote, err)
	}
	if wrote, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a")), typed()); err != nil || !wrote {
		t.Fatalf("new hash: wrote=%v err=%v", wrote, err)
	}
	if got := liveData(t, c, "s"); got != "two" {
		t.Fatalf("live data %q, want two", got)
	}
	if _, err := a.Ensure(ctx, secretGVK, secret("foreign", "h1", "ours", owner("a")), typed()); !IsNotOwned(err) {
		t.Fatalf("foreign: want a NotOwnedError, got %v", err)
	}
	for _, typ := range rec.types {
		if typ != "*v1.Secret" {
			t.Errorf("read as %s, want *v1.Secret", typ)
		}
	}
	rec.types = nil
	if _, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); err != nil {
		t.Fatal(err)
	}
	if len(rec.types) == 0 || rec.types[0] != "*v1.PartialObjectMetadata" {
		t.Errorf("without CachedAs, read as %v, want metadata first", rec.types)
	}
}
