package workload

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPodToRepair(t *testing.T) {
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "prometheus-k8s", Generation: 3},
		Status:     appsv1.StatefulSetStatus{ObservedGeneration: 3, CurrentRevision: "cur", UpdateRevision: "upd"},
	}
	pod := func(name, rev string, ready bool, mut ...func(*corev1.Pod)) corev1.Pod {
		status := corev1.ConditionFalse
		if ready {
			status = corev1.ConditionTrue
		}
		p := corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{appsv1.ControllerRevisionHashLabelKey: rev}},
			Status:     corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}},
		}
		for _, m := range mut {
			m(&p)
		}
		return p
	}
	deleting := func(p *corev1.Pod) { p.DeletionTimestamp = &metav1.Time{} }
	cases := []struct {
		name string
		sts  func(*appsv1.StatefulSet)
		pods []corev1.Pod
		want string
	}{
		{"all ready", nil, []corev1.Pod{pod("prometheus-k8s-0", "old", true), pod("prometheus-k8s-1", "old", true)}, ""},
		{"stuck on an old revision", nil, []corev1.Pod{pod("prometheus-k8s-0", "upd", true), pod("prometheus-k8s-1", "old", false)}, "prometheus-k8s-1"},
		{"highest ordinal first", nil, []corev1.Pod{pod("prometheus-k8s-2", "old", false), pod("prometheus-k8s-10", "old", false), pod("prometheus-k8s-9", "old", false)}, "prometheus-k8s-10"},
		{"current revision left to the StatefulSet controller", nil, []corev1.Pod{pod("prometheus-k8s-0", "cur", false)}, ""},
		{"update revision left to the StatefulSet controller", nil, []corev1.Pod{pod("prometheus-k8s-0", "upd", false)}, ""},
		{"being deleted", nil, []corev1.Pod{pod("prometheus-k8s-0", "old", false, deleting)}, ""},
		{"generation not observed yet", func(s *appsv1.StatefulSet) { s.Status.ObservedGeneration = 2 }, []corev1.Pod{pod("prometheus-k8s-0", "old", false)}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sts.DeepCopy()
			if c.sts != nil {
				c.sts(s)
			}
			got := ""
			if p := PodToRepair(s, c.pods); p != nil {
				got = p.Name
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
