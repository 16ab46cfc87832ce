package prometheus

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

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
func (r *Reconciler) configLoaded(ctx context.Context, p *promserver.Server, st *promState) (monitoringv1.Condition, error) {
	opts, _ := r.workloadOptions(p)
	in := loadedInput{Prometheus: p, Reports: workload.ReportsConfig(p, opts), Hash: st.configHash}
	if !in.Reports {
		return configLoadedCondition(in), nil
	}
	if in.Hash == "" {
		sec, err := write.Metadata(ctx, r.Client, apply.SecretGVK, types.NamespacedName{Namespace: p.Namespace, Name: workload.Instance(p).ConfigSecret()})
		switch {
		case err != nil:
			return monitoringv1.Condition{}, fmt.Errorf("reading the config Secret's metadata: %w", err)
		case sec != nil && ownedBy(sec, p):
			in.Hash = sec.GetAnnotations()[layout.InputHashAnnotation]
		}
		// A configuration spread over part Secrets (ADR 20) has the hash of the parts
		// concatenated, which no annotation holds: unknown until the next write.
		if in.Hash != "" && in.Hash != unmanagedHash {
			part, err := write.Metadata(ctx, r.Client, apply.SecretGVK, types.NamespacedName{Namespace: p.Namespace, Name: workload.Instance(p).ConfigPartSecret(1)})
			switch {
			case err != nil:
				return monitoringv1.Condition{}, fmt.Errorf("reading the config part Secret's metadata: %w", err)
			case part != nil:
				in.Hash = ""
			}
		}
	}
	var pods corev1.PodList
	if err := r.Client.List(ctx, &pods, client.InNamespace(p.Namespace), client.MatchingLabels(podLabels(p)), client.UnsafeDisableDeepCopy); err != nil {
		return monitoringv1.Condition{}, fmt.Errorf("listing pods: %w", err)
	}
	in.Pods = pods.Items
	return configLoadedCondition(in), nil
}

// mapPod maps one of the kind's pods to its Prometheus (or PrometheusAgent).
func (r *Reconciler) mapPod(_ context.Context, o client.Object) []reconcile.Request {
	l := o.GetLabels()
	name := l[layout.PrometheusNameLabel]
	nameValue := workload.PrometheusNameValue
	if r.kind.agent() {
		nameValue = workload.AgentNameValue
	}
	if name == "" || l[layout.NameLabel] != nameValue {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: name}}}
}

// reportChanged passes pod events that can change a ConfigLoaded condition: a pod
// created or deleted, and an update of its reported configuration or of its deletion
// time. The kubelet's own status updates (readiness, restarts) pass no further.
var reportChanged = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		oldPod, ok1 := e.ObjectOld.(*corev1.Pod)
		newPod, ok2 := e.ObjectNew.(*corev1.Pod)
		if !ok1 || !ok2 {
			return true
		}
		oldHash, oldOK := reportedHash(oldPod)
		newHash, newOK := reportedHash(newPod)
		return oldHash != newHash || oldOK != newOK || (oldPod.DeletionTimestamp == nil) != (newPod.DeletionTimestamp == nil)
	},
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// StripPod is the pod cache's transform: the operator reads a pod's name, labels,
// owners and reported configuration only, so the cache keeps nothing else (a pod's spec
// is most of its size).
func StripPod(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	out := &corev1.Pod{
		TypeMeta: pod.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID, ResourceVersion: pod.ResourceVersion,
			Generation: pod.Generation, Labels: pod.Labels, OwnerReferences: pod.OwnerReferences,
			CreationTimestamp: pod.CreationTimestamp, DeletionTimestamp: pod.DeletionTimestamp,
		},
		Status: corev1.PodStatus{Phase: pod.Status.Phase},
	}
	for _, c := range pod.Status.Conditions {
		if _, ok := reportedHash(&corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{c}}}); ok {
			out.Status.Conditions = append(out.Status.Conditions, c)
		}
	}
	return out, nil
}
