package operator

import (
	"context"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promctrl"
)

// listObservers hands the items of the informers' lists, as pkg/listdecode decodes them,
// to what prewarms from them: the Prometheus generators render each monitor while the
// rest of the list still arrives (promctrl.Reconciler.Prewarm). Observers are added
// while the controllers are set up, before the manager starts its caches, and looked up
// by item type when a list is sent.
type listObservers struct {
	mu  sync.RWMutex
	fns map[reflect.Type][]func(runtime.Object)
}

// add makes fn observe the list items of obj's type.
func (l *listObservers) add(obj runtime.Object, fn func(runtime.Object)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fns == nil {
		l.fns = map[reflect.Type][]func(runtime.Object){}
	}
	t := reflect.TypeOf(obj)
	l.fns[t] = append(l.fns[t], fn)
}

// observer returns what observes the list items of type t (a pointer type), nil for none.
func (l *listObservers) observer(t reflect.Type) func(runtime.Object) {
	if l == nil {
		return nil
	}
	l.mu.RLock()
	fns := l.fns[t]
	l.mu.RUnlock()
	switch len(fns) {
	case 0:
		return nil
	case 1:
		return fns[0]
	}
	return func(o runtime.Object) {
		for _, fn := range fns {
			fn(o)
		}
	}
}

// prewarmMonitors makes every monitor kind's list items prewarm the generators of the
// Prometheus (and PrometheusAgent) reconcilers given, once this manager leads: a standby
// renders nothing it would keep.
func prewarmMonitors(l *listObservers, mgr manager.Manager, recs ...*promctrl.Reconciler) {
	if l == nil {
		return
	}
	ctx := context.Background()
	for _, k := range monitorkind.All {
		name := k.Name
		l.add(k.New(), func(o runtime.Object) {
			select {
			case <-mgr.Elected():
			default:
				return
			}
			obj, ok := o.(client.Object)
			if !ok {
				return
			}
			for _, r := range recs {
				if r != nil {
					r.Prewarm(ctx, name, obj)
				}
			}
		})
	}
}
