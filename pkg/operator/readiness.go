package operator

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/lookout-operator/lookout/pkg/opmetrics"
)

// readiness sets prometheus_operator_ready once the caches are synced, in every replica
// (a standby replica is ready to take over), and clears it at shutdown.
type readiness struct {
	mgr     manager.Manager
	metrics *opmetrics.Controller
}

// controllerMetrics creates prometheus-operator's metrics of the controller called name
// on reg and has the manager keep their readiness gauge.
func controllerMetrics(mgr manager.Manager, reg prometheus.Registerer, name string) (*opmetrics.Controller, error) {
	m, err := opmetrics.NewController(reg, name)
	if err != nil {
		return nil, err
	}
	if err := mgr.Add(readiness{mgr: mgr, metrics: m}); err != nil {
		return nil, err
	}
	return m, nil
}

// NeedLeaderElection is false: the metric describes every replica.
func (r readiness) NeedLeaderElection() bool { return false }

// Start waits for the caches, sets the gauge and clears it when ctx ends.
func (r readiness) Start(ctx context.Context) error {
	if r.mgr.GetCache().WaitForCacheSync(ctx) {
		r.metrics.SetReady(true)
	}
	<-ctx.Done()
	r.metrics.SetReady(false)
	return nil
}

// apiServerReachable is a readyz check: the API server answers its own /readyz within
// the timeout. During an API server outage the operator reports not ready, so the
// outage shows where operators look first; it stays alive (/healthz), and leader
// election decides separately when a leader that cannot renew its Lease stops.
func apiServerReachable(cfg *rest.Config, timeout time.Duration) (healthz.Checker, error) {
	c := rest.CopyConfig(cfg)
	c.Timeout = timeout
	// Probes must not wait behind the reconcilers' requests in a shared limiter.
	c.RateLimiter = nil
	c.QPS, c.Burst = 20, 20
	cs, err := kubernetes.NewForConfig(c)
	if err != nil {
		return nil, fmt.Errorf("API server readiness check: %w", err)
	}
	rc := cs.Discovery().RESTClient()
	return func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), timeout)
		defer cancel()
		if err := rc.Get().AbsPath("/readyz").Do(ctx).Error(); err != nil {
			return fmt.Errorf("API server not reachable: %w", err)
		}
		return nil
	}, nil
}
