package watch

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"
)

func TestAfterInitialList(t *testing.T) {
	o := &corev1.Secret{}
	if AfterInitialList.Create(event.CreateEvent{Object: o, IsInInitialList: true}) {
		t.Error("a create of the initial list passed")
	}
	if !AfterInitialList.Create(event.CreateEvent{Object: o}) {
		t.Error("a create after the initial list was dropped")
	}
	if !AfterInitialList.Update(event.UpdateEvent{ObjectOld: o, ObjectNew: o}) || !AfterInitialList.Delete(event.DeleteEvent{Object: o}) {
		t.Error("an update or delete was dropped")
	}
}
