package prometheus

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// Repair policies of --repair-policy-for-statefulsets.
const (
	RepairNone   = "none"
	RepairEvict  = "evict"
	RepairDelete = "delete"
)

// repairStuck applies the repair policy to the StatefulSets of p that have fewer ready
// replicas than they want, as prometheus-operator does: at most one pod per StatefulSet
// and reconcile, the one workload.PodToRepair picks, is evicted or deleted so that the
// StatefulSet controller recreates it at the update revision. Pods are read from the API
// server (the operator caches none). Failures are logged, never fatal.
func (r *Reconciler) repairStuck(ctx context.Context, p *monitoringv1.Prometheus, sets []appsv1.StatefulSet) {
	if r.cfg.RepairPolicy == "" || r.cfg.RepairPolicy == RepairNone {
		return
	}
	for i := range sets {
		s := &sets[i]
		if s.Status.ReadyReplicas >= ptr.Deref(s.Spec.Replicas, 1) || s.Spec.Selector == nil {
			continue
		}
		if err := r.repair(ctx, s); err != nil {
			log.FromContext(ctx).Error(err, "repairing a stuck StatefulSet rollout", "statefulset", s.Namespace+"/"+s.Name, "policy", r.cfg.RepairPolicy)
		}
	}
}

func (r *Reconciler) repair(ctx context.Context, s *appsv1.StatefulSet) error {
	sel, err := metav1.LabelSelectorAsSelector(s.Spec.Selector)
	if err != nil {
		return err
	}
	var pods corev1.PodList
	if err := r.APIReader.List(ctx, &pods, client.InNamespace(s.Namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return fmt.Errorf("listing pods: %w", err)
	}
	pod := workload.PodToRepair(s, pods.Items)
	if pod == nil {
		return nil
	}
	del := &metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground), Preconditions: &metav1.Preconditions{UID: &pod.UID}}
	switch r.cfg.RepairPolicy {
	case RepairEvict:
		ev := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name}, DeleteOptions: del}
		err = r.Client.SubResource("eviction").Create(ctx, pod, ev)
	case RepairDelete:
		err = r.Client.Delete(ctx, pod, &client.DeleteOptions{Raw: del})
	default:
		return fmt.Errorf("unknown repair policy %q", r.cfg.RepairPolicy)
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s pod %s/%s: %w", r.cfg.RepairPolicy, pod.Namespace, pod.Name, err)
	}
	r.Applier.CountWrite("Pod", r.cfg.RepairPolicy)
	log.FromContext(ctx).Info("repaired a stuck StatefulSet rollout", "statefulset", s.Namespace+"/"+s.Name, "pod", pod.Name, "policy", r.cfg.RepairPolicy)
	if r.Recorder != nil {
		r.Recorder.Eventf(s, nil, corev1.EventTypeNormal, "RolloutRepaired", "Repair", "pod %s of revision %s was stuck not ready: %s it so that it is recreated at revision %s",
			pod.Name, pod.Labels[appsv1.ControllerRevisionHashLabelKey], map[string]string{RepairEvict: "evicted", RepairDelete: "deleted"}[r.cfg.RepairPolicy], s.Status.UpdateRevision)
	}
	return nil
}
