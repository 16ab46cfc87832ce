package operator

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/lookout-operator/lookout/pkg/opmetrics"
)

// readiness sets prometheus_operator_ready once the caches are synced, in every replica
// (a standby replica is ready to take over), and clears it at shutdown.
type readiness struct {
	mgr     manager.Manager
	metrics *opmetrics.Controller
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
