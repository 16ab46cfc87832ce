package prometheus

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"

	"github.com/lookout-operator/lookout/pkg/controller/generated"
)

// Repair policies of --repair-policy-for-statefulsets.
const (
	RepairNone   = generated.RepairNone
	RepairEvict  = generated.RepairEvict
	RepairDelete = generated.RepairDelete
)

// repairStuck applies the repair policy to the StatefulSets of p that have fewer ready
// replicas than they want (generated.Repairer, shared with the ThanosRuler controller).
func (r *Reconciler) repairStuck(ctx context.Context, _ *monitoringv1.Prometheus, sets []appsv1.StatefulSet) {
	generated.Repairer{Policy: r.cfg.RepairPolicy, Client: r.Client, APIReader: r.APIReader, Applier: r.Applier, Recorder: r.Recorder}.RepairStuck(ctx, sets)
}
