package prometheus

import (
	"context"
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
	objs, ok, err := cachedObjects(ctx, informerSource{inf}, &monitoringv1.ServiceMonitor{})
	if err != nil || !ok || len(objs) != 2 {
		t.Fatalf("cachedObjects = %d objects, %v, %v; want 2, true, nil", len(objs), ok, err)
	}
	for _, o := range objs {
		if o != a && o != b {
			t.Fatalf("%s is a copy, not the store's object", o.Name)
		}
	}
	if _, ok, err := cachedObjects(ctx, informerSource{notIndexed{inf}}, &monitoringv1.ServiceMonitor{}); ok || err != nil {
		t.Fatalf("an informer without a store: ok=%v err=%v, want false, nil", ok, err)
	}
	if _, ok, err := cachedObjects[*monitoringv1.ServiceMonitor](ctx, nil, &monitoringv1.ServiceMonitor{}); ok || err != nil {
		t.Fatalf("no source: ok=%v err=%v, want false, nil", ok, err)
	}
}
