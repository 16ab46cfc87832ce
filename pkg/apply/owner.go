package apply

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// NotOwnedError says a live object has the name of a generated object but does not belong
// to the object it would be generated for: it was created by a user, by another operator,
// or for another Prometheus whose names collide. The Applier never writes or deletes it.
type NotOwnedError struct {
	Kind, Namespace, Name string
	// Owners describes the live object's owner references ("none" when it has none).
	Owners string
}

func (e *NotOwnedError) Error() string {
	return fmt.Sprintf("%s %s/%s exists and is not owned by this object (its owners: %s); the operator leaves it alone: rename or delete it",
		e.Kind, e.Namespace, e.Name, e.Owners)
}

// ownedBy reports whether live has an owner reference to one of the owners desired names.
// A generated object without owner references is never owned.
func ownedBy(live, desired metav1.Object) bool {
	want := map[types.UID]bool{}
	for _, r := range desired.GetOwnerReferences() {
		want[r.UID] = true
	}
	for _, r := range live.GetOwnerReferences() {
		if want[r.UID] {
			return true
		}
	}
	return false
}

func notOwned(kind string, live metav1.Object) *NotOwnedError {
	owners := "none"
	if refs := live.GetOwnerReferences(); len(refs) > 0 {
		owners = ""
		for i, r := range refs {
			if i > 0 {
				owners += ", "
			}
			owners += r.Kind + " " + r.Name
		}
	}
	return &NotOwnedError{Kind: kind, Namespace: live.GetNamespace(), Name: live.GetName(), Owners: owners}
}
