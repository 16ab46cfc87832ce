package watch

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// A mapped watch's predicates count the creates of the initial list, then drops them; Of keeps them.
func TestTriggers(t *testing.T) {
	counted := map[string]int{}
	on := Triggers(func(kind string) predicate.Predicate {
		return predicate.Funcs{CreateFunc: func(event.CreateEvent) bool { counted[kind]++; return true }}
	})
	initial := event.CreateEvent{Object: &corev1.Secret{}, IsInInitialList: true}
	passes := func(ps []predicate.Predicate) bool {
		for _, p := range ps {
			if !p.Create(initial) {
				return false
			}
		}
		return true
	}
	if !passes(on.chain("Prometheus", false, nil)) {
		t.Error("Of dropped a create of the initial list")
	}
	if passes(on.chain("Secret", true, nil)) {
		t.Error("Mapped kept a create of the initial list")
	}
	if counted["Prometheus"] != 1 || counted["Secret"] != 1 {
		t.Errorf("counted %v, want every create counted once", counted)
	}
}
