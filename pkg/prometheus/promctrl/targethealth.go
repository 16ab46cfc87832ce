package promctrl

import (
	"context"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// TargetHealthView returns, for the target health poller, the Prometheus (or
// PrometheusAgent view) an owner of this controller's kind names: nil when the owner is of
// another kind or has no StatefulSet pods to ask (an agent in DaemonSet mode).
func (r *Reconciler) TargetHealthView(ctx context.Context, o resourcestatus.Owner) (*promserver.Server, error) {
	if o.Resource != r.kind.Resource {
		return nil, nil
	}
	p, _, err := r.kind.get(ctx, r.Client, types.NamespacedName{Namespace: o.Namespace, Name: o.Name})
	if err != nil {
		return nil, err
	}
	if p.DaemonSetMode() {
		return nil, nil
	}
	return p, nil
}
