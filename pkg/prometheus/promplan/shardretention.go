package promplan

import (
	"fmt"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// DeletionDeadlineAnnotation is set on the StatefulSet of a shard that was scaled away
// under spec.shardRetentionPolicy.whenScaled Retain: the time (RFC 3339, UTC) after which
// it is deleted, the zero time for never. prometheus-operator uses the same annotation,
// so either operator honours the other's deadline.
const DeletionDeadlineAnnotation = "operator.prometheus.io/deletion-deadline"

// RetainShards reports whether p keeps the StatefulSets of shards it scales away
// (spec.shardRetentionPolicy.whenScaled Retain). Their pods keep running with the
// configuration every shard shares, whose jobs drop every target on a shard number at or
// above spec.shards (pkg/prometheus/promcfg), so their data stays queryable and they scrape nothing.
func RetainShards(p *promserver.Server) (bool, error) {
	r := p.PrometheusOnly().ShardRetentionPolicy
	if r == nil {
		return false, nil
	}
	switch w := ptr.Deref(r.WhenScaled, monitoringv1.DeleteWhenScaledRetentionType); w {
	case monitoringv1.DeleteWhenScaledRetentionType:
		return false, nil
	case monitoringv1.RetainWhenScaledRetentionType:
		if _, err := RetentionGracePeriod(p); err != nil {
			return false, err
		}
		return true, nil
	default:
		return false, fmt.Errorf("spec.shardRetentionPolicy.whenScaled %q: must be Retain or Delete", w)
	}
}

// RetentionGracePeriod is how long the StatefulSet of a retained shard is kept:
// spec.shardRetentionPolicy.retain.retentionPeriod, else spec.retention (24h when no
// retention is set at all). Zero means forever: the data of a Prometheus retaining by
// size (or by percentage of its volume) alone does not expire with time.
func RetentionGracePeriod(p *promserver.Server) (time.Duration, error) {
	s := p.PrometheusOnly()
	if r := s.ShardRetentionPolicy; r != nil && r.Retain != nil {
		d, err := model.ParseDuration(string(r.Retain.RetentionPeriod))
		if err != nil {
			return 0, fmt.Errorf("spec.shardRetentionPolicy.retain.retentionPeriod %q: %w", r.Retain.RetentionPeriod, err)
		}
		return time.Duration(d), nil
	}
	retention := string(s.Retention)
	if retention == "" {
		if s.RetentionSize != "" || s.RetentionPercentage != nil {
			return 0, nil
		}
		retention = defaultRetention
	}
	d, err := model.ParseDuration(retention)
	if err != nil {
		return 0, fmt.Errorf("spec.retention %q: %w", retention, err)
	}
	return time.Duration(d), nil
}

// SurplusShard is what to do with the StatefulSet of a shard p no longer has (one of its
// StatefulSets not in StatefulSetNames(p)).
type SurplusShard struct {
	// Delete: delete it now.
	Delete bool
	// Annotate, when not empty, is the DeletionDeadlineAnnotation value to set on it
	// (it is retained from now on).
	Annotate string
	// RecheckAfter, when positive, is when its deadline passes: reconcile again then.
	RecheckAfter time.Duration
}

// DecideSurplusShard applies spec.shardRetentionPolicy to sts, a StatefulSet of a shard
// p scaled away, at time now, as prometheus-operator does: without a Retain policy it is
// deleted; with one it is annotated with its deadline once (now plus
// RetentionGracePeriod, or never) and deleted when the deadline has passed. A deadline
// already on the StatefulSet is kept even if the policy changed since, except that a
// policy other than Retain deletes at once.
func DecideSurplusShard(p *promserver.Server, sts *appsv1.StatefulSet, now time.Time) (SurplusShard, error) {
	retain, err := RetainShards(p)
	if err != nil {
		return SurplusShard{}, err
	}
	if !retain {
		return SurplusShard{Delete: true}, nil
	}
	if v, ok := sts.Annotations[DeletionDeadlineAnnotation]; ok {
		deadline, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return SurplusShard{}, fmt.Errorf("StatefulSet %s/%s: annotation %s %q is not an RFC 3339 time: %w", sts.Namespace, sts.Name, DeletionDeadlineAnnotation, v, err)
		}
		switch {
		case deadline.IsZero():
			return SurplusShard{}, nil
		case now.After(deadline):
			return SurplusShard{Delete: true}, nil
		default:
			return SurplusShard{RecheckAfter: deadline.Sub(now)}, nil
		}
	}
	grace, err := RetentionGracePeriod(p)
	if err != nil {
		return SurplusShard{}, err
	}
	if grace == 0 {
		return SurplusShard{Annotate: time.Time{}.Format(time.RFC3339)}, nil
	}
	deadline := now.UTC().Add(grace)
	return SurplusShard{Annotate: deadline.Format(time.RFC3339), RecheckAfter: grace}, nil
}

// ShardReactivated reports whether live, the StatefulSet of a shard the Prometheus has
// again after scaling back up, still carries the deadline set when the shard was scaled
// away: the controller must write it again (desired StatefulSets never carry the
// annotation) even when its hash is up to date, or the deadline would delete a shard in
// use.
func ShardReactivated(live *appsv1.StatefulSet) bool {
	_, ok := live.Annotations[DeletionDeadlineAnnotation]
	return ok
}
