package watch

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// Named keeps the events of objects called name, in any namespace (the governing
// Services prometheus-operated and alertmanager-operated).
func Named(name string) predicate.Predicate {
	return predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetName() == name })
}
