package resourcestatus

import (
	"testing"

	"github.com/lookout-operator/lookout/pkg/selection"
)

func TestOwnerVerdicts(t *testing.T) {
	a := Owner{Resource: "prometheuses", Namespace: "ns", Name: "a"}
	b := Owner{Resource: "prometheuses", Namespace: "ns", Name: "b"}
	v1 := selection.Verdict{Kind: "ServiceMonitor", Namespace: "ns", Name: "sm", Generation: 1, Reason: selection.Accepted}
	v2 := v1
	v2.Generation = 2

	var ov ownerVerdicts
	if _, ok := ov.get(a); ok {
		t.Fatal("empty list has a verdict")
	}
	if !ov.set(a, v1) || !ov.set(b, v1) {
		t.Fatal("first set of an owner must report a change")
	}
	if ov.set(a, v1) {
		t.Fatal("setting the same verdict again reported a change")
	}
	if !ov.set(a, v2) {
		t.Fatal("a new verdict must report a change")
	}
	if got, ok := ov.get(a); !ok || got != v2 {
		t.Fatalf("get(a) = %v, %v; want %v", got, ok, v2)
	}
	if !ov.remove(a) || ov.remove(a) {
		t.Fatal("remove must report true once, then false")
	}
	if _, ok := ov.get(a); ok || len(ov) != 1 {
		t.Fatalf("after removing a: %v", ov)
	}
	if got, ok := ov.get(b); !ok || got != v1 {
		t.Fatalf("b's verdict lost: %v, %v", got, ok)
	}
}
