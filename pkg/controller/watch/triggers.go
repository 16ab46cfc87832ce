package watch

import (
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// Triggers builds the predicates of a controller's watches from the counter of a kind's
// events (prometheus-operator's prometheus_operator_triggered_total): every event is
// counted first, ahead of the filters.
type Triggers func(kind string) predicate.Predicate

// Of counts kind's events, then keeps those every p passes.
func (t Triggers) Of(kind string, p ...predicate.Predicate) builder.Predicates {
	return builder.WithPredicates(t.chain(kind, false, p)...)
}

// Mapped is Of for a watch that maps an object to the workloads it concerns: once
// counted, the initial lists are dropped too (AfterInitialList).
func (t Triggers) Mapped(kind string, p ...predicate.Predicate) builder.Predicates {
	return builder.WithPredicates(t.chain(kind, true, p)...)
}

// chain is the counter of kind, then AfterInitialList when mapped, then p.
func (t Triggers) chain(kind string, mapped bool, p []predicate.Predicate) []predicate.Predicate {
	out := []predicate.Predicate{t(kind)}
	if mapped {
		out = append(out, AfterInitialList)
	}
	return append(out, p...)
}
