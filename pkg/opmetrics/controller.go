package opmetrics

import (
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// Controller holds prometheus-operator's per-controller families.
type Controller struct {
	reconcileOps      prometheus.Counter
	reconcileErrors   prometheus.Counter
	reconcileDuration prometheus.Histogram
	statusOps         prometheus.Counter
	statusErrors      prometheus.Counter
	stsRecreations    prometheus.Counter
	triggered         *prometheus.CounterVec
	ready             prometheus.Gauge

	mu        sync.Mutex
	syncs     map[string]bool                // object key → last reconcile ok
	resources map[string]map[resourceKey]int // object key → counts
	specs     map[string]spec                // object key → what its spec asks for
}

type resourceKey struct{ resource, state string }

var (
	syncsDesc = prometheus.NewDesc("prometheus_operator_syncs",
		"Number of objects per sync status (ok/failed)", []string{"status"}, nil)
	resourcesDesc = prometheus.NewDesc("prometheus_operator_managed_resources",
		"Number of resources managed by the operator's controller per state (selected/rejected)", []string{"resource", "state"}, nil)
)

// NewController creates the families of one controller and registers them on reg with
// the label controller=name (reg nil: not registered).
func NewController(reg prometheus.Registerer, name string) (*Controller, error) {
	c := &Controller{
		reconcileOps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "prometheus_operator_reconcile_operations_total", Help: "Total number of reconcile operations"}),
		reconcileErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "prometheus_operator_reconcile_errors_total", Help: "Number of errors that occurred during reconcile operations"}),
		reconcileDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "prometheus_operator_reconcile_duration_seconds", Help: "Histogram of reconcile operations",
			Buckets: []float64{.1, .5, 1, 5, 10}}),
		statusOps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "prometheus_operator_status_update_operations_total", Help: "Total number of update operations to status subresources"}),
		statusErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "prometheus_operator_status_update_errors_total", Help: "Number of errors that occurred during update operations to status subresources"}),
		stsRecreations: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "prometheus_operator_reconcile_sts_delete_create_total", Help: "Number of times that reconciling a statefulset required deleting and re-creating it"}),
		triggered: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "prometheus_operator_triggered_total",
			Help: "Number of times a Kubernetes object add, delete or update event triggered the operator to reconcile an object"},
			[]string{"triggered_by", "action"}),
		ready: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "prometheus_operator_ready", Help: "1 when the controller is ready to reconcile resources, 0 otherwise"}),
		syncs:     map[string]bool{},
		resources: map[string]map[resourceKey]int{},
		specs:     map[string]spec{},
	}
	if reg != nil {
		wrapped := prometheus.WrapRegistererWith(prometheus.Labels{"controller": name}, reg)
		for _, col := range []prometheus.Collector{c.reconcileOps, c.reconcileErrors, c.reconcileDuration, c.statusOps, c.statusErrors, c.stsRecreations, c.triggered, c.ready, c} {
			if err := wrapped.Register(col); err != nil {
				return nil, fmt.Errorf("registering prometheus_operator metrics of controller %s: %w", name, err)
			}
		}
	}
	return c, nil
}

// Reconciled records one reconcile of object key (namespace/name): its duration and
// whether it failed. A nil Controller records nothing.
func (c *Controller) Reconciled(key string, took time.Duration, failed bool) {
	if c == nil {
		return
	}
	c.reconcileOps.Inc()
	c.reconcileDuration.Observe(took.Seconds())
	if failed {
		c.reconcileErrors.Inc()
	}
	c.mu.Lock()
	c.syncs[key] = !failed
	c.mu.Unlock()
}

// StatusUpdated records one write of an object's status.
func (c *Controller) StatusUpdated(err error) {
	if c == nil {
		return
	}
	c.statusOps.Inc()
	if err != nil {
		c.statusErrors.Inc()
	}
}

// StatefulSetRecreated records a StatefulSet deleted to be created again.
func (c *Controller) StatefulSetRecreated() {
	if c != nil {
		c.stsRecreations.Inc()
	}
}

// Triggered records an event of kind (add, update, delete) that queued a reconcile.
func (c *Controller) Triggered(kind, action string) {
	if c != nil {
		c.triggered.WithLabelValues(kind, action).Inc()
	}
}

// SetReady sets prometheus_operator_ready.
func (c *Controller) SetReady(ready bool) {
	if c == nil {
		return
	}
	if ready {
		c.ready.Set(1)
	} else {
		c.ready.Set(0)
	}
}

// SetResources records, for object key, how many objects of a resource kind it selected
// (accepted or rejected, as prometheus-operator counts them) and how many it rejected.
func (c *Controller) SetResources(key, resource string, selected, rejected int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.resources[key]
	if m == nil {
		m = map[resourceKey]int{}
		c.resources[key] = m
	}
	m[resourceKey{resource, "selected"}] = selected
	m[resourceKey{resource, "rejected"}] = rejected
}

// Forget drops an object that is gone or no longer managed.
func (c *Controller) Forget(key string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.syncs, key)
	delete(c.resources, key)
	delete(c.specs, key)
	c.mu.Unlock()
}

// Describe implements prometheus.Collector for the computed families.
func (c *Controller) Describe(ch chan<- *prometheus.Desc) {
	ch <- syncsDesc
	ch <- resourcesDesc
	describeSpecs(ch)
}

// Collect implements prometheus.Collector: prometheus_operator_syncs and
// prometheus_operator_managed_resources, summed over the objects.
func (c *Controller) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ok, failed := 0, 0
	for _, good := range c.syncs {
		if good {
			ok++
		} else {
			failed++
		}
	}
	ch <- prometheus.MustNewConstMetric(syncsDesc, prometheus.GaugeValue, float64(ok), "ok")
	ch <- prometheus.MustNewConstMetric(syncsDesc, prometheus.GaugeValue, float64(failed), "failed")
	totals := map[resourceKey]int{}
	for _, m := range c.resources {
		for k, v := range m {
			totals[k] += v
		}
	}
	for k, v := range totals {
		ch <- prometheus.MustNewConstMetric(resourcesDesc, prometheus.GaugeValue, float64(v), k.resource, k.state)
	}
	for _, s := range c.specs {
		s.collect(ch)
	}
}

// EventCounter is a predicate that counts every event of kind in
// prometheus_operator_triggered_total and lets it through; put it ahead of a watch's
// filters so filtered events are counted too, as prometheus-operator counts them.
func (c *Controller) EventCounter(kind string) predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { c.Triggered(kind, "add"); return true },
		UpdateFunc:  func(event.UpdateEvent) bool { c.Triggered(kind, "update"); return true },
		DeleteFunc:  func(event.DeleteEvent) bool { c.Triggered(kind, "delete"); return true },
		GenericFunc: func(event.GenericEvent) bool { return true },
	}
}
