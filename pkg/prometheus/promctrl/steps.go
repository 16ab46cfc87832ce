package promctrl

import (
	"context"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// steps are the Prometheus (and PrometheusAgent) steps of the shared instance lifecycle.
type steps struct{ r *Reconciler }

// Get reads the object as the Prometheus the pipeline handles. Without the
// PrometheusShardRetentionPolicy feature gate, spec.shardRetentionPolicy is ignored;
// without PrometheusTopologySharding, spec.shardingStrategy mode Topology is (the shards
// share the targets by address).
func (s steps) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (*promserver.Server, client.Object, error) {
	p, obj, err := s.r.kind.get(ctx, c, nn)
	if err != nil {
		return nil, nil, err
	}
	if !s.r.cfg.ShardRetention && p.PrometheusOnly().ShardRetentionPolicy != nil {
		p = p.DeepCopy()
		p.PrometheusOnly().ShardRetentionPolicy = nil
	}
	if !s.r.cfg.TopologySharding {
		p = p.WithoutTopologySharding()
	}
	return s.r.cfg.DefaultVersions.OfPrometheus(p), obj, nil
}

func (s steps) NewState(types.NamespacedName) *promState {
	return newState(s.r.cfg.MaxNamespaceConfigBytes, s.r.cfg.PodZoneLabels)
}

func (steps) Paused(p *promserver.Server) bool { return p.Spec.Paused }

// Apply runs reconcileObjects; a retained shard's deletion deadline asks for a requeue.
func (s steps) Apply(ctx context.Context, p *promserver.Server, st *promState) (time.Duration, error) {
	st.recheckAfter = 0
	err := s.r.reconcileObjects(ctx, p, st)
	s.r.first.reconciled(nnOf(p))
	return st.recheckAfter, err
}

func (s steps) Status(ctx context.Context, p *promserver.Server, st *promState, result error) (monitoringv1.PrometheusStatus, monitoringv1.PrometheusStatus, error) {
	status, err := s.r.status(ctx, p, st, result)
	return status, withoutCostCondition(*p.Status), err
}

func (steps) Forget(types.NamespacedName) {}

// DescribeChange says what changed, for the log line of a status write.
func (steps) DescribeChange(old, cur monitoringv1.PrometheusStatus) string {
	return statusChange(old, cur)
}

// List lists the Prometheus (or PrometheusAgent) objects as Servers.
func (s steps) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*promserver.Server, error) {
	return s.r.kind.list(ctx, c, opts...)
}
