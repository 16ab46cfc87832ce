package promctrl

import (
	"context"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// configLoaded computes p's ConfigLoaded condition from the cached pods and the hash of
// the configuration written last: this reconcile's, or, when this operator has not
// written one since it started (paused, failing), the hash annotation of the config
// Secret in the metadata cache.
func (r *Reconciler) configLoaded(ctx context.Context, p *promserver.Server, st *promState, now metav1.Time) (monitoringv1.Condition, error) {
	opts, _ := r.workloadOptions(p)
	in := loadedInput{Prometheus: p, Reports: promplan.ReportsConfig(p, opts), Hash: st.configHash}
	if in.Reports && in.Hash == "" {
		sec, err := write.Metadata(ctx, r.Client, apply.SecretGVK, types.NamespacedName{Namespace: p.Namespace, Name: promplan.Instance(p).ConfigSecret()})
		switch {
		case err != nil:
			return monitoringv1.Condition{}, fmt.Errorf("reading the config Secret's metadata: %w", err)
		case sec != nil && ownedBy(sec, p):
			// Also of a configuration spread over part Secrets: its hash is part 0's
			// (ADR 38).
			in.Hash = sec.GetAnnotations()[layout.InputHashAnnotation]
		}
	}
	if p.DaemonSetMode() && in.Reports {
		pods, err := r.cachedPods(ctx, p)
		if err != nil {
			return monitoringv1.Condition{}, err
		}
		in.Pods = pods
	}
	return r.ConfigLoaded(ctx, p.Namespace, podLabels(p), in.loaded(), p.Status.Conditions, now)
}

// cachedPods are p's pods in the pod cache (ConfigLoaded's watch, metadata and the
// reported configuration only).
func (r *Reconciler) cachedPods(ctx context.Context, p *promserver.Server) ([]corev1.Pod, error) {
	var pods corev1.PodList
	if err := r.Client.List(ctx, &pods, client.InNamespace(p.Namespace), client.MatchingLabels(podLabels(p))); err != nil {
		return nil, fmt.Errorf("listing pods: %w", err)
	}
	return pods.Items, nil
}

// daemonSetPods are the names of the pods of p, an agent in DaemonSet mode whose
// reloaders report (its Role lets exactly these patch their status); nil otherwise.
func (r *Reconciler) daemonSetPods(ctx context.Context, p *promserver.Server, opts workload.Options) ([]string, error) {
	if !p.DaemonSetMode() || !promplan.ReportsConfig(p, opts) {
		return nil, nil
	}
	pods, err := r.cachedPods(ctx, p)
	if err != nil {
		return nil, err
	}
	return podNames(pods), nil
}
