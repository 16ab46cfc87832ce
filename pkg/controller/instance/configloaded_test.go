package instance

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/lookout-operator/lookout/pkg/layout"
)

const (
	hashNew = "abcdef1234567890abcdef1234567890abcdef1234567890abcdef1234567890"
	hashOld = "0123456789ab0123456789ab0123456789ab0123456789ab0123456789ab0123"
)

func loadedPod(name, hash string) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	if hash != "" {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{
			Type: layout.ConfigLoadedPodCondition, Status: corev1.ConditionTrue, Reason: layout.ConfigLoadedPodReason, Message: layout.ConfigLoadedMessage(hash)})
	}
	return p
}

// Without Shard (Alertmanager, ThanosRuler) the lagging pods are named without one.
func TestLoadedConditionWithoutShards(t *testing.T) {
	in := Loaded{Hash: hashNew, Pods: []string{"alertmanager-main-0", "alertmanager-main-1", "alertmanager-main-2"},
		Reported: []corev1.Pod{loadedPod("alertmanager-main-0", hashNew), loadedPod("alertmanager-main-1", hashOld)}}
	got := LoadedCondition(in)
	want := "2 of 3 replicas do not run the latest configuration (sha256 abcdef123456) yet: " +
		"alertmanager-main-1 runs sha256 0123456789ab, alertmanager-main-2 does not exist"
	if got.Status != monitoringv1.ConditionFalse || got.Reason != ReasonReplicasLagging || got.Message != want {
		t.Errorf("got %s %s: %s\nwant False %s: %s", got.Status, got.Reason, got.Message, ReasonReplicasLagging, want)
	}
	in.Unavailable = NoServiceAccountMessage
	if got := LoadedCondition(in); got.Status != monitoringv1.ConditionUnknown || got.Reason != ReasonReportingUnavailable || got.Message != NoServiceAccountMessage {
		t.Errorf("unavailable: got %s %s: %s", got.Status, got.Reason, got.Message)
	}
}

func TestReportChangedPredicate(t *testing.T) {
	old, cur := loadedPod("p-0", hashOld), loadedPod("p-0", hashOld)
	cur.Status.Conditions[0].Status = corev1.ConditionFalse // the kubelet's readiness
	if ReportChanged.Update(updateEvent(&old, &cur)) {
		t.Error("a readiness change passed")
	}
	cur = loadedPod("p-0", hashNew)
	if !ReportChanged.Update(updateEvent(&old, &cur)) {
		t.Error("a new reported hash did not pass")
	}
}

func TestStripPod(t *testing.T) {
	pod := loadedPod("p-0", hashNew)
	pod.Labels = map[string]string{"prometheus": "main"}
	pod.Spec.Containers = []corev1.Container{{Name: "prometheus", Args: []string{"--config.file=x"}}}
	out, err := StripPod(&pod)
	if err != nil {
		t.Fatal(err)
	}
	s := out.(*corev1.Pod)
	if len(s.Spec.Containers) != 0 || len(s.Status.Conditions) != 1 || s.Labels["prometheus"] != "main" {
		t.Errorf("stripped pod %+v", s)
	}
	if h, ok := ReportedHash(s); !ok || h != hashNew {
		t.Errorf("reported hash %q, %v after stripping", h, ok)
	}
}

func updateEvent(old, cur *corev1.Pod) event.UpdateEvent {
	return event.UpdateEvent{ObjectOld: old, ObjectNew: cur}
}
