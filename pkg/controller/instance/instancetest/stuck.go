// Package instancetest holds test helpers every instance kind's tests share: a
// StatefulSet rollout stuck on a broken revision, and the check that the repair policy
// handled it.
package instancetest

import (
	"context"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/write"
)

// StuckRollout makes sts look as the StatefulSet controller shows a stuck rollout: the
// update revision "new" rolled out to pod 0, pod 1 not ready on revision "broken".
func StuckRollout(t *testing.T, c client.Client, sts *appsv1.StatefulSet) {
	t.Helper()
	ctx := context.Background()
	sts.Status = appsv1.StatefulSetStatus{ObservedGeneration: sts.Generation, Replicas: 2, ReadyReplicas: 1, CurrentRevision: "old", UpdateRevision: "new"}
	if err := c.Status().Update(ctx, sts); err != nil {
		t.Fatal(err)
	}
	for i, rev := range []string{"new", "broken"} {
		ready := corev1.ConditionFalse
		if rev == "new" {
			ready = corev1.ConditionTrue
		}
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: sts.Namespace, Name: fmt.Sprintf("%s-%d", sts.Name, i), UID: types.UID("pod-" + rev),
				Labels: map[string]string{appsv1.ControllerRevisionHashLabelKey: rev}},
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}},
		}
		for k, v := range sts.Spec.Selector.MatchLabels {
			pod.Labels[k] = v
		}
		if err := c.Create(ctx, pod); err != nil {
			t.Fatal(err)
		}
	}
}

// CheckRepaired checks what policy did to the pods StuckRollout made: the stuck pod is
// gone unless the policy is none, the ready one is untouched.
func CheckRepaired(t *testing.T, c client.Client, sts *appsv1.StatefulSet, policy string) {
	t.Helper()
	ctx := context.Background()
	err := c.Get(ctx, types.NamespacedName{Namespace: sts.Namespace, Name: sts.Name + "-1"}, &corev1.Pod{})
	if gone := apierrors.IsNotFound(err); gone != (policy != write.RepairNone) {
		t.Fatalf("policy %s: stuck pod gone %v (%v)", policy, gone, err)
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: sts.Namespace, Name: sts.Name + "-0"}, &corev1.Pod{}); err != nil {
		t.Fatalf("the ready pod was touched: %v", err)
	}
}

// Policies are the values of --repair-policy-for-statefulsets, for table tests.
var Policies = []string{write.RepairNone, write.RepairDelete, write.RepairEvict}
