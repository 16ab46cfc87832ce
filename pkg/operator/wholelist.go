package operator

import (
	"context"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/lookout-operator/lookout/pkg/listdecode"
)

// newInformer is the cache's informer constructor. The informers of typed objects, which
// the API server sends as JSON (custom resources always; Lookout's client asks JSON of
// the built-in kinds too), fetch their initial state in one list response instead of
// client-go's streaming list (WatchListClient, on by default since client-go 1.35): the
// stream sends every object as a watch event, decoded on its own in four passes over its
// bytes, and the API server deep-copies each one out of its watch cache first. At 20,000
// ServiceMonitors the list costs the operator about a second less CPU and the API server
// less too (ADR 24). The metadata informers (protobuf) keep the streaming list.
func newInformer(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
	if _, meta := obj.(*metav1.PartialObjectMetadata); !meta {
		if l, ok := lw.(*toolscache.ListWatch); ok {
			itemType := reflect.TypeOf(obj).Elem()
			lw = wholeList{l, func() runtime.Object { return reflect.New(itemType).Interface().(runtime.Object) }}
		}
	}
	return toolscache.NewSharedIndexInformer(lw, obj, resync, indexers)
}

// wholeList is a ListWatch whose reflector lists instead of streaming the initial state
// (client-go asks IsWatchListSemanticsUnSupported of the ListerWatcher it is given), and
// whose list items are decoded as the response arrives, on every core (pkg/listdecode;
// the manager's transport is wrapped with listdecode.Wrap).
type wholeList struct {
	*toolscache.ListWatch
	newItem func() runtime.Object
}

// IsWatchListSemanticsUnSupported tells client-go's reflector to list.
func (wholeList) IsWatchListSemanticsUnSupported() bool { return true }

// ListWithContext lists through the wrapped ListWatch with the request marked for
// listdecode, and puts the items it decoded into the list.
func (w wholeList) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	ctx, req := listdecode.Mark(ctx, w.newItem)
	list, err := w.ListWatch.ListWithContext(ctx, opts)
	if err != nil {
		return list, err
	}
	if items, ok := req.Items(); ok && len(items) > 0 {
		if err := meta.SetList(list, items); err != nil {
			return nil, err
		}
	}
	return list, nil
}
