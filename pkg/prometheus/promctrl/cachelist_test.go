package promctrl

import (
	"context"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type informerSource struct{ inf cache.Informer }

func (s informerSource) GetInformer(context.Context, client.Object, ...cache.InformerGetOption) (cache.Informer, error) {
	return s.inf, nil
}

// notIndexed is an informer without a store of its own (like a multi-namespace one).
type notIndexed struct{ cache.Informer }

// TestCachedObjectsAreTheStoresPointers: the objects come from the informer's store
// itself, not copies; without a single store the caller is told to list.
func TestCachedObjectsAreTheStoresPointers(t *testing.T) {
	ctx := context.Background()
	inf := toolscache.NewSharedIndexInformer(&toolscache.ListWatch{}, &monitoringv1.ServiceMonitor{}, 0, toolscache.Indexers{})
	a := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}
	b := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b"}}
	for _, o := range []*monitoringv1.ServiceMonitor{a, b} {
		if err := inf.GetIndexer().Add(o); err != nil {
			t.Fatal(err)
		}
	}
	objs, ok, err := cachedObjects(ctx, informerSource{inf}, &monitoringv1.ServiceMonitor{}, nil)
	if err != nil || !ok || len(objs) != 2 {
		t.Fatalf("cachedObjects = %d objects, %v, %v; want 2, true, nil", len(objs), ok, err)
	}
	for _, o := range objs {
		if o != a && o != b {
			t.Fatalf("%s is a copy, not the store's object", o.Name)
		}
	}
	if _, ok, err := cachedObjects(ctx, informerSource{notIndexed{inf}}, &monitoringv1.ServiceMonitor{}, nil); ok || err != nil {
		t.Fatalf("an informer without a store: ok=%v err=%v, want false, nil", ok, err)
	}
	if _, ok, err := cachedObjects[*monitoringv1.ServiceMonitor](ctx, nil, &monitoringv1.ServiceMonitor{}, nil); ok || err != nil {
		t.Fatalf("no source: ok=%v err=%v, want false, nil", ok, err)
	}
}

// TestCachedObjectsInOrder: with an order, the objects come sorted by namespace and name,
// read in the remembered order while the store holds the same keys (updated objects
// included), and sorted afresh when an object is added, deleted or replaced by another.
func TestCachedObjectsInOrder(t *testing.T) {
	ctx := context.Background()
	inf := toolscache.NewSharedIndexInformer(&toolscache.ListWatch{}, &monitoringv1.ServiceMonitor{}, 0, toolscache.Indexers{})
	store := inf.GetIndexer()
	sm := func(ns, name string) *monitoringv1.ServiceMonitor {
		return &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	}
	for _, o := range []*monitoringv1.ServiceMonitor{sm("b", "x"), sm("a-b", "y"), sm("a", "z"), sm("a", "c")} {
		if err := store.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	var order storeOrder
	read := func() []*monitoringv1.ServiceMonitor {
		t.Helper()
		objs, ok, err := cachedObjects(ctx, informerSource{inf}, &monitoringv1.ServiceMonitor{}, &order)
		if err != nil || !ok {
			t.Fatalf("cachedObjects: ok=%v err=%v", ok, err)
		}
		return objs
	}
	names := func(objs []*monitoringv1.ServiceMonitor) string {
		var s []string
		for _, o := range objs {
			s = append(s, o.Namespace+"/"+o.Name)
		}
		return strings.Join(s, " ")
	}
	// Sorted as selection sorts: by namespace, then name ("a" before "a-b", unlike the keys).
	want := "a/c a/z a-b/y b/x"
	if got := names(read()); got != want {
		t.Fatalf("first read: %s, want %s", got, want)
	}
	if got := strings.Join(order.keys, " "); got != want {
		t.Fatalf("remembered keys %s, want %s", got, want)
	}

	// An update keeps the keys: the new object comes at the old one's place.
	updated := sm("a", "z")
	updated.Generation = 2
	if err := store.Update(updated); err != nil {
		t.Fatal(err)
	}
	objs := read()
	if got := names(objs); got != want || objs[1] != updated {
		t.Fatalf("after an update: %s (updated at 1: %v), want %s", got, objs[1] == updated, want)
	}

	// Same count, another key: read afresh.
	if err := store.Delete(sm("a", "c")); err != nil {
		t.Fatal(err)
	}
	if err := store.Add(sm("c", "a")); err != nil {
		t.Fatal(err)
	}
	if got, want := names(read()), "a/z a-b/y b/x c/a"; got != want {
		t.Fatalf("after a replace: %s, want %s", got, want)
	}
	if err := store.Add(sm("a", "a")); err != nil {
		t.Fatal(err)
	}
	if got, want := names(read()), "a/a a/z a-b/y b/x c/a"; got != want {
		t.Fatalf("after an add: %s, want %s", got, want)
	}
}
