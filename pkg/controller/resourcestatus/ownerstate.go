package resourcestatus

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
)

// StateOf is the OwnerState of o for the controller of one resource (prometheuses,
// alertmanagers, ...): foreign when o names another resource, else read (which reads the
// owner and says whether this operator manages it) decides; an owner not found is gone.
func StateOf(o Owner, resource string, read func(types.NamespacedName) (managed bool, err error)) (OwnerState, error) {
	if o.Resource != resource {
		return OwnerForeign, nil
	}
	managed, err := read(types.NamespacedName{Namespace: o.Namespace, Name: o.Name})
	switch {
	case apierrors.IsNotFound(err):
		return OwnerGone, nil
	case err != nil:
		return OwnerForeign, fmt.Errorf("reading %s %s/%s: %w", resource, o.Namespace, o.Name, err)
	case managed:
		return OwnerManaged, nil
	}
	return OwnerForeign, nil
}
