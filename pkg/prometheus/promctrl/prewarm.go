package promctrl

import (
	"context"
	"strings"
	"sync"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Prewarm hands one monitor of kind (a monitorkind name), decoded from an informer's
// first list, to the generator of every Prometheus in the cache that may select it
// (promcfg.Generator.Prewarm), so that its rendering is ready when the first reconcile
// comes: the list keeps one core busy in the API server while the operator's decoding
// leaves the other partly idle. It never waits on a cache: before the Prometheus
// informer has synced it does nothing. o must not change while Prewarm reads it.
func (r *Reconciler) Prewarm(ctx context.Context, kind string, o client.Object) int {
	kept := 0
	for _, t := range r.warmTargets(ctx) {
		if t.sel.Monitors[kind].MayMatch(o, r.cfg.Scope) && t.st.generator.Prewarm(t.p, kind, o) {
			kept++
			r.Metrics.Prewarmed.WithLabelValues(t.p.Namespace, t.p.Name).Inc()
		}
	}
	return kept
}

// warmTarget is one Prometheus prewarmed for: as the pipeline reads it, its state and
// its selectors.
type warmTarget struct {
	p   *promserver.Server
	st  *promState
	sel *pipeline.Selectors
}

// warmCache keeps the targets of the Prometheus objects the store last held, by their
// UIDs and resourceVersions: every monitor of the list looks them up.
type warmCache struct {
	mu      sync.Mutex
	key     string
	targets []warmTarget
	// waited is set once the first monitor waited for the Prometheus objects' list.
	waitMu sync.Mutex
	waited bool
	// obj is an empty object of the kind, made once: the informer is looked up by type
	// for every monitor, and a Prometheus object is large.
	objOnce sync.Once
	obj     client.Object
}

// probe returns the empty object of kind the informer is looked up with.
func (w *warmCache) probe(k *Kind) client.Object {
	w.objOnce.Do(func() { w.obj = k.object() })
	return w.obj
}

// syncWait is how long the first monitor decoded waits for the Prometheus objects' list,
// which the controller starts with the monitors' and which is short: without it the
// monitors decoded first would not be prewarmed.
const syncWait = 500 * time.Millisecond

// synced reports whether inf has synced, the first call waiting up to syncWait for it
// (the decoding goroutines that call it meanwhile wait too).
func (w *warmCache) synced(inf cache.Informer) bool {
	if inf.HasSynced() {
		return true
	}
	w.waitMu.Lock()
	defer w.waitMu.Unlock()
	if w.waited {
		return inf.HasSynced()
	}
	w.waited = true
	for deadline := time.Now().Add(syncWait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if inf.HasSynced() {
			return true
		}
	}
	return false
}

// warmTargets returns the Prometheus objects of the informer's store, once it has
// synced, that this operator manages and generates a configuration for.
func (r *Reconciler) warmTargets(ctx context.Context) []warmTarget {
	if r.Informers == nil {
		return nil
	}
	inf, err := r.Informers.GetInformer(ctx, r.warm.probe(r.kind), cache.BlockUntilSynced(false))
	if err != nil || !r.warm.synced(inf) {
		return nil
	}
	ix, ok := inf.(interface{ GetIndexer() toolscache.Indexer })
	if !ok {
		return nil
	}
	items := ix.GetIndexer().List()
	var key strings.Builder
	for _, it := range items {
		if o, ok := it.(client.Object); ok {
			key.WriteString(string(o.GetUID()) + "/" + o.GetResourceVersion() + ",")
		}
	}
	w := &r.warm
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.key == key.String() && w.targets != nil {
		return w.targets
	}
	w.key, w.targets = key.String(), []warmTarget{}
	for _, it := range items {
		pi, ok := it.(monitoringv1.PrometheusInterface)
		if !ok {
			continue
		}
		p := promserver.Of(pi)
		if !r.Managed(p) || p.Spec.Paused || p.DeletionTimestamp != nil || r.unmanagedConfiguration(p) {
			continue
		}
		p = r.served(p)
		st := r.State(nnOf(p))
		sel, err := st.compile(p)
		if err != nil {
			continue
		}
		w.targets = append(w.targets, warmTarget{p, st, sel})
	}
	return w.targets
}
