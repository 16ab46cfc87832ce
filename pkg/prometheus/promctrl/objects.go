package promctrl

import (
	"context"
	"fmt"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// maxSecretData is what one Secret may hold.
const maxSecretData = write.MaxSecretData

func nnOf(o client.Object) types.NamespacedName {
	return types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
}

func slots(n int) int { return workload.Slots(n) }

// splitConfig spreads the configuration of res over as many Secrets as it needs
// (ADR 20), starting from how many it takes now, and counts its size.
func (r *Reconciler) splitConfig(ctx context.Context, p *promserver.Server, st *promState, res *promcfg.Result) (splitConfig, error) {
	current := st.configParts
	if current == 0 {
		var err error
		if current, err = r.liveConfigParts(ctx, p); err != nil {
			return splitConfig{}, err
		}
	}
	limit := r.cfg.MaxSecretData
	if limit <= 0 {
		limit = maxSecretData
	}
	s, err := st.split(res, current, limit)
	if err != nil {
		return splitConfig{}, invalid(err)
	}
	r.Metrics.ConfigSize.WithLabelValues(p.Namespace, p.Name, "plain").Set(float64(res.Size))
	r.Metrics.ConfigSize.WithLabelValues(p.Namespace, p.Name, "gzip").Set(float64(s.compressedSize()))
	return s, nil
}

// workloadOptions are the pod options for p. API-watch mode needs p's own service
// account: the Role that reads the config Secret (every inlined scrape credential) is
// never bound to the namespace's default service account, which every other pod of the
// namespace may run as; p's reloader then reads the kubelet volume instead.
func (r *Reconciler) workloadOptions(p *promserver.Server) (workload.Options, *note) {
	opts := r.cfg.Workload
	if p.Spec.ServiceAccountName == "" {
		// Nor is it granted patch on the pods' status: reports need p's own account.
		opts.ReloaderReportConfig = false
	}
	if opts.ReloaderWatchAPI && p.Spec.ServiceAccountName == "" {
		opts.ReloaderWatchAPI = false
		return opts, &note{Reason: ReasonAPIWatchNeedsServiceAccount, Message: "the operator runs with --reloader-watch-api, but this " + r.kind.Kind + " has no spec.serviceAccountName: " +
			"the config-reloader reads the mounted volume instead, so that the namespace's default service account is not granted the configuration Secret"}
	}
	return opts, nil
}

// deleteSurplusShards removes the StatefulSets of shards p no longer has (or, under
// spec.shardRetentionPolicy Retain, marks them with their deletion deadline and deletes
// them once it has passed). Only StatefulSets p owns are considered, and the Applier checks
// it again before deleting. It returns when the earliest deadline of a retained shard
// passes (0: none pending).
func (r *Reconciler) deleteSurplusShards(ctx context.Context, p *promserver.Server) (time.Duration, error) {
	names, err := promplan.StatefulSetNames(p)
	if err != nil {
		return 0, invalid(err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var sets appsv1.StatefulSetList
	if err := r.Client.List(ctx, &sets, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
		return 0, applyFailed(fmt.Errorf("listing StatefulSets: %w", err))
	}
	var recheck time.Duration
	for i := range sets.Items {
		s := &sets.Items[i]
		if !ownedBy(s, p) || want[s.Name] {
			continue
		}
		after, err := r.surplusShard(ctx, p, s.DeepCopy())
		if err != nil {
			return 0, err
		}
		if after > 0 && (recheck == 0 || after < recheck) {
			recheck = after
		}
	}
	return recheck, nil
}

// surplusShard applies spec.shardRetentionPolicy to sts, the StatefulSet of a shard p no
// longer has: delete it, or annotate it with its deletion deadline (a merge patch guarded
// by its resourceVersion), or leave it until the deadline returned.
func (r *Reconciler) surplusShard(ctx context.Context, p *promserver.Server, sts *appsv1.StatefulSet) (time.Duration, error) {
	d, err := promplan.DecideSurplusShard(p, sts, r.Clock.Now())
	if err != nil {
		return 0, invalid(err)
	}
	switch {
	case d.Delete:
		if err := r.Applier.Delete(ctx, "StatefulSet", sts, p.UID); err != nil {
			return 0, applyFailed(err)
		}
		return 0, nil
	case d.Annotate != "":
		orig := sts.DeepCopy()
		if sts.Annotations == nil {
			sts.Annotations = map[string]string{}
		}
		sts.Annotations[promplan.DeletionDeadlineAnnotation] = d.Annotate
		patch := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
		if err := r.Client.Patch(ctx, sts, patch); err != nil {
			return 0, applyFailed(fmt.Errorf("marking the StatefulSet %s/%s of a retained shard: %w", sts.Namespace, sts.Name, err))
		}
		r.Applier.CountWrite("StatefulSet", "patch")
	}
	return d.RecheckAfter, nil
}

func ownedBy(o metav1.Object, p *promserver.Server) bool { return write.OwnedBy(o, p.UID) }
