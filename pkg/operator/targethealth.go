package operator

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/controller/targethealth"
	"github.com/lookout-operator/lookout/pkg/prometheus/promctrl"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// setupTargetHealth adds the target health poller (--target-health-interval, 0: none)
// for the Prometheus and PrometheusAgent controllers (agents nil: not running), which
// also measures the monitors' sample cost unless --monitor-cost=false (statusClient
// writes the Prometheus's TopMonitors condition).
func setupTargetHealth(mgr manager.Manager, opts Options, store *resourcestatus.Store, pr, agents *promctrl.Reconciler, statusClient client.Client) error {
	if opts.TargetHealthInterval <= 0 || store == nil {
		return nil
	}
	store.EnableHealth()
	lookup := func(ctx context.Context, o resourcestatus.Owner) (*promserver.Server, error) {
		if agents != nil && o.Resource == promctrl.AgentKind.Resource {
			return agents.TargetHealthView(ctx, o)
		}
		return pr.TargetHealthView(ctx, o)
	}
	metrics, err := targethealth.NewMetrics(opts.Registry)
	if err != nil {
		return err
	}
	var cost *targethealth.Cost
	if opts.MonitorCost {
		store.EnableCost()
		cost = &targethealth.Cost{Status: statusClient}
	}
	return mgr.Add(targethealth.New(targethealth.Deps{
		Store:   store,
		Lookup:  lookup,
		Pods:    mgr.GetAPIReader(),
		Metrics: metrics,
		Cost:    cost,
	}, targethealth.Config{Interval: opts.TargetHealthInterval}))
}
