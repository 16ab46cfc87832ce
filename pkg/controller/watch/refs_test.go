package watch

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

func TestRefIndex(t *testing.T) {
	x := NewRefIndex()
	p1, p2 := types.NamespacedName{Namespace: "mon", Name: "p1"}, types.NamespacedName{Namespace: "mon", Name: "p2"}
	x.Set(p1, map[string]bool{RefKey("Secret", "app", "s"): true, RefKey("ConfigMap", "app", "c"): true})
	x.Set(p2, map[string]bool{RefKey("Secret", "app", "s"): true})
	if got := x.Users("Secret", "app", "s"); len(got) != 2 {
		t.Fatalf("users of the shared Secret: %v", got)
	}
	x.Set(p1, map[string]bool{RefKey("Secret", "app", "s"): true})
	if got := x.Users("ConfigMap", "app", "c"); len(got) != 0 {
		t.Fatalf("a dropped reference is still indexed: %v", got)
	}
	x.Forget(p2)
	if got := x.Users("Secret", "app", "s"); len(got) != 1 || got[0] != p1 {
		t.Fatalf("after forget: %v", got)
	}
	if len(x.byObject) != 1 || len(x.byOwner) != 1 {
		t.Fatalf("index leaks: %d objects, %d owners", len(x.byObject), len(x.byOwner))
	}
}
