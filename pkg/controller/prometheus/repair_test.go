package prometheus

import (
	"context"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

func TestRepairPolicy(t *testing.T) {
	for _, policy := range []string{RepairNone, RepairDelete, RepairEvict} {
		t.Run(policy, func(t *testing.T) {
			f := newFixture(t, Config{RepairPolicy: policy}, prom("p", func(p *monitoringv1.Prometheus) { p.Spec.Replicas = ptr.To(int32(2)) }))
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			// The StatefulSet controller's view: revision "new" rolled out to pod 0, pod 1
			// stuck not ready on revision "broken".
			sts, _ := f.statefulSet("prometheus-p")
			sts.Status = appsv1.StatefulSetStatus{ObservedGeneration: sts.Generation, Replicas: 2, ReadyReplicas: 1, CurrentRevision: "old", UpdateRevision: "new"}
			if err := f.c.Status().Update(context.Background(), sts); err != nil {
				t.Fatal(err)
			}
			for i, rev := range []string{"new", "broken"} {
				pod := &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "prometheus-p-" + string(rune('0'+i)), UID: types.UID("pod-" + rev),
						Labels: map[string]string{"app.kubernetes.io/name": "prometheus", "prometheus": "p", "app.kubernetes.io/managed-by": "prometheus-operator", "app.kubernetes.io/instance": "p", "operator.prometheus.io/name": "p", "operator.prometheus.io/shard": "0", appsv1.ControllerRevisionHashLabelKey: rev}},
					Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: map[bool]corev1.ConditionStatus{true: corev1.ConditionTrue, false: corev1.ConditionFalse}[rev == "new"]}}},
				}
				for k, v := range sts.Spec.Selector.MatchLabels {
					pod.Labels[k] = v
				}
				if err := f.c.Create(context.Background(), pod); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prometheus-p-1"}, &corev1.Pod{})
			if gone := apierrors.IsNotFound(err); gone != (policy != RepairNone) {
				t.Fatalf("policy %s: stuck pod gone %v (%v)", policy, gone, err)
			}
			if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prometheus-p-0"}, &corev1.Pod{}); err != nil {
				t.Fatalf("the ready pod was touched: %v", err)
			}
		})
	}
}
