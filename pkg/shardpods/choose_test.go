package shardpods

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

func pod(name, shard string, ready bool, ip string) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}, Status: corev1.PodStatus{PodIP: ip}}
	if shard != "" {
		p.Labels[layout.ShardLabel] = shard
	}
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
	return p
}

// TestChoose: per shard the first ready pod by name that keep keeps; pods of shards out
// of range, with a bad shard label, not ready or being deleted are never chosen.
func TestChoose(t *testing.T) {
	deleting := pod("a-0", "0", true, "10.0.0.1")
	deleting.DeletionTimestamp = &metav1.Time{}
	pods := []corev1.Pod{
		pod("b-1", "1", true, "10.0.0.4"), pod("b-0", "1", true, ""), deleting,
		pod("a-1", "0", false, "10.0.0.2"), pod("a-2", "0", true, "10.0.0.3"),
		pod("c-0", "2", true, "10.0.0.5"), pod("d-0", "x", true, "10.0.0.6"),
	}
	got := Choose(pods, 2, nil)
	if len(got) != 2 || got[0].Name != "a-2" || got[1].Name != "b-0" {
		t.Fatalf("without keep: %v", got)
	}
	got = Choose(pods, 2, func(p *corev1.Pod) bool { return p.Status.PodIP != "" })
	if got[1].Name != "b-1" {
		t.Fatalf("with keep: shard 1 is %s, want b-1", got[1].Name)
	}
	if one := Choose([]corev1.Pod{pod("p-0", "", true, "1.2.3.4")}, 1, nil); one[0] == nil {
		t.Fatal("a pod without a shard label is shard 0")
	}
}
