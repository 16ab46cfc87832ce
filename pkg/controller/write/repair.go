package write

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Repair policies of --repair-policy-for-statefulsets.
const (
	RepairNone   = "none"
	RepairEvict  = "evict"
	RepairDelete = "delete"
)

// Repairer applies a repair policy to StatefulSets whose rollout is stuck, for every
// controller that owns StatefulSets.
type Repairer struct {
	// Policy is RepairNone (or empty), RepairEvict or RepairDelete.
	Policy string
	// Client evicts or deletes pods; APIReader lists them (the operator caches none).
	Client    client.Client
	APIReader client.Reader
	// Applier counts the writes; Recorder receives the RolloutRepaired events (nil: none).
	Applier  *apply.Applier
	Recorder events.EventRecorder
}

// RepairStuck applies the policy to the StatefulSets that have fewer ready replicas than
// they want, as prometheus-operator does: at most one pod per StatefulSet and call, the
// one workload.PodToRepair picks, is evicted or deleted so that the StatefulSet
// controller recreates it at the update revision. Failures are logged, never fatal.
func (r Repairer) RepairStuck(ctx context.Context, sets []appsv1.StatefulSet) {
	if r.Policy == "" || r.Policy == RepairNone {
		return
	}
	for i := range sets {
		s := &sets[i]
		if s.Status.ReadyReplicas >= ptr.Deref(s.Spec.Replicas, 1) || s.Spec.Selector == nil {
			continue
		}
		if err := r.repair(ctx, s); err != nil {
			log.FromContext(ctx).Error(err, "repairing a stuck StatefulSet rollout", "statefulset", s.Namespace+"/"+s.Name, "policy", r.Policy)
		}
	}
}

func (r Repairer) repair(ctx context.Context, s *appsv1.StatefulSet) error {
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
	switch r.Policy {
	case RepairEvict:
		ev := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name}, DeleteOptions: del}
		err = r.Client.SubResource("eviction").Create(ctx, pod, ev)
	case RepairDelete:
		err = r.Client.Delete(ctx, pod, &client.DeleteOptions{Raw: del})
	default:
		return fmt.Errorf("unknown repair policy %q", r.Policy)
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s pod %s/%s: %w", r.Policy, pod.Namespace, pod.Name, err)
	}
	r.Applier.CountWrite("Pod", r.Policy)
	log.FromContext(ctx).Info("repaired a stuck StatefulSet rollout", "statefulset", s.Namespace+"/"+s.Name, "pod", pod.Name, "policy", r.Policy)
	if r.Recorder != nil {
		r.Recorder.Eventf(s, nil, corev1.EventTypeNormal, "RolloutRepaired", "Repair", "pod %s of revision %s was stuck not ready: %s it so that it is recreated at revision %s",
			pod.Name, pod.Labels[appsv1.ControllerRevisionHashLabelKey], map[string]string{RepairEvict: "evicted", RepairDelete: "deleted"}[r.Policy], s.Status.UpdateRevision)
	}
	return nil
}
