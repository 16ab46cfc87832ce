package prometheus

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// configLoaded computes p's ConfigLoaded condition from the cached pods and the hash of
// the configuration written last: this reconcile's, or, when this operator has not
// written one since it started (paused, failing), the hash annotation of the config
// Secret in the metadata cache.
func (r *Reconciler) configLoaded(ctx context.Context, p *monitoringv1.Prometheus, st *promState, now metav1.Time) (monitoringv1.Condition, error) {
	opts, _ := r.workloadOptions(p)
	in := loadedInput{Prometheus: p, Reports: workload.ReportsConfig(p, opts), Hash: st.configHash}
	if in.Reports && in.Hash == "" {
		sec := &metav1.PartialObjectMetadata{}
		sec.SetGroupVersionKind(secretGVK)
		err := r.Client.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: workload.Instance(p).ConfigSecret()}, sec)
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return monitoringv1.Condition{}, fmt.Errorf("reading the config Secret's metadata: %w", err)
		case ownedBy(sec, p):
			in.Hash = sec.GetAnnotations()[layout.InputHashAnnotation]
		}
		// A configuration spread over part Secrets (ADR 20) has the hash of the parts
		// concatenated, which no annotation holds: unknown until the next write.
		if in.Hash != "" && in.Hash != instance.UnmanagedHash {
			part := &metav1.PartialObjectMetadata{}
			part.SetGroupVersionKind(secretGVK)
			err := r.Client.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: workload.Instance(p).ConfigPartSecret(1)}, part)
			switch {
			case err == nil:
				in.Hash = ""
			case !apierrors.IsNotFound(err):
				return monitoringv1.Condition{}, fmt.Errorf("reading the config part Secret's metadata: %w", err)
			}
		}
	}
	return r.ConfigLoaded(ctx, p.Namespace, podLabels(p), in.loaded(), p.Status.Conditions, now)
}
