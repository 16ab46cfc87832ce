package promctrl

import (
	"context"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// checkShardNames refuses p when its StatefulSet is also a shard's of another object of
// its kind in its namespace: shard 1 of Prometheus "a" is the StatefulSet
// prometheus-a-shard-1 (first pod prometheus-a-shard-1-0), which is also the StatefulSet
// of a Prometheus named "a-shard-1". Only a shard-0 name can collide with another
// object's shard (k ≥ 1). An object whose StatefulSet already runs as its own keeps it
// (the other then reports the name conflict when it applies that shard); otherwise p is
// refused before it creates anything.
func (r *Reconciler) checkShardNames(ctx context.Context, p *promserver.Server) error {
	mine := promplan.Instance(p).StatefulSet(0)
	live, err := write.Metadata(ctx, r.Client, apply.StatefulSetGVK, types.NamespacedName{Namespace: p.Namespace, Name: mine})
	if err != nil {
		return applyFailed(err)
	}
	if live != nil && ownedBy(live, p) {
		return nil
	}
	others, err := r.kind.list(ctx, r.Client, client.InNamespace(p.Namespace))
	if err != nil {
		return applyFailed(err)
	}
	for _, q := range others {
		if q.Name == p.Name || q.DeletionTimestamp != nil {
			continue
		}
		n, err := promplan.Shards(q)
		if err != nil {
			continue
		}
		for s := 1; s < int(n); s++ {
			if promplan.Instance(q).StatefulSet(s) == mine {
				return invalid(fmt.Errorf("the StatefulSet %s of this %s is also shard %d of %s %s (spec.shards %d): their pods would have the same names; rename this object or give %s fewer shards",
					mine, r.kind.Kind, s, r.kind.Kind, q.Name, n, q.Name))
			}
		}
	}
	return nil
}
