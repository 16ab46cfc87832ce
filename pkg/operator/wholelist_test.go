package operator

import (
	"context"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	toolscache "k8s.io/client-go/tools/cache"
)

// initialRequests records how a reflector fetched the initial state through a ListWatch:
// by a list, or by a watch asking for the initial events (the streaming list).
type initialRequests struct {
	mu        sync.Mutex
	lists     int
	streaming int
	watched   chan struct{}
}

func (r *initialRequests) listWatch(list runtime.Object) *toolscache.ListWatch {
	return &toolscache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			r.mu.Lock()
			r.lists++
			r.mu.Unlock()
			return list, nil
		},
		WatchFuncWithContext: func(_ context.Context, o metav1.ListOptions) (watch.Interface, error) {
			r.mu.Lock()
			if o.SendInitialEvents != nil && *o.SendInitialEvents {
				r.streaming++
			}
			r.mu.Unlock()
			select {
			case r.watched <- struct{}{}:
			default:
			}
			return watch.NewFake(), nil
		},
	}
}

func TestNewInformerListsTypedObjectsInOneResponse(t *testing.T) {
	if cacheOptions(DefaultOptions()).NewInformer == nil {
		t.Fatal("the cache options do not use newInformer")
	}
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Fatal("client-go's WatchListClient is off: the test cannot tell the two ways apart")
	}
	for _, c := range []struct {
		name      string
		obj       runtime.Object
		list      runtime.Object
		wantLists bool
	}{
		{"ServiceMonitor", &monitoringv1.ServiceMonitor{}, &monitoringv1.ServiceMonitorList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, true},
		{"metadata", &metav1.PartialObjectMetadata{}, &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := &initialRequests{watched: make(chan struct{}, 1)}
			inf := newInformer(req.listWatch(c.list), c.obj, 0, toolscache.Indexers{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go inf.RunWithContext(ctx)
			select {
			case <-req.watched:
			case <-time.After(10 * time.Second):
				t.Fatal("the informer never watched")
			}
			cancel()
			req.mu.Lock()
			defer req.mu.Unlock()
			if c.wantLists && (req.lists != 1 || req.streaming != 0) {
				t.Errorf("lists %d, streaming lists %d; want one list and no streaming list", req.lists, req.streaming)
			}
			if !c.wantLists && (req.lists != 0 || req.streaming == 0) {
				t.Errorf("lists %d, streaming lists %d; want the streaming list and no list", req.lists, req.streaming)
			}
		})
	}
}
