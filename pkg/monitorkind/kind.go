package monitorkind

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/selection"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// Kind is one monitor kind. The functions are typed for the kind (see newKind).
type Kind struct {
	// Name is the kind ("ServiceMonitor"); APIVersion its group and version.
	Name, APIVersion string
	// Field names the Prometheus fields selecting the kind (spec.<Field>Selector and
	// spec.<Field>NamespaceSelector); the kind's generated job names start with it too
	// ("serviceMonitor/<ns>/<name>/<i>").
	Field string
	// Selectors returns the selectors of a Prometheus's spec for the kind: objects and
	// namespaces (nil when unset).
	Selectors func(*monitoringv1.CommonPrometheusFields) (objects, namespaces *metav1.LabelSelector)
	// New returns an empty object of the kind, NewList an empty list.
	New     func() client.Object
	NewList func() client.ObjectList
	// Items returns the items of a list made by NewList, as the list's own pointers.
	Items func(client.ObjectList) []client.Object
	// Len is the number of the kind's objects in a Set.
	Len func(*Set) int
	// Each calls f with each of the kind's objects in a Set, in order.
	Each func(s *Set, f func(client.Object))
	// Put sets the kind's objects in a Set; every object must be of the kind.
	Put func(*Set, []client.Object)
	// Select puts in into the objects of from that c selects (see selection.Select) and
	// returns the verdict on every object of the kind in from.
	Select func(c *selection.Compiled, from, into *Set, scope selection.Scope, nsLabels selection.NamespaceLabels) []selection.Verdict
	// Append appends an object of the kind to a Set.
	Append func(*Set, client.Object)
}

// newKind makes the Kind of the typed object T, whose Set field field returns and whose
// list type L has the items items returns.
func newKind[T, L any, PT interface {
	*T
	client.Object
}, PL interface {
	*L
	client.ObjectList
}](name, apiVersion, field string, selectors func(*monitoringv1.CommonPrometheusFields) (*metav1.LabelSelector, *metav1.LabelSelector),
	of func(*Set) *[]PT, items func(*L) []T) *Kind {
	return &Kind{
		Name: name, APIVersion: apiVersion, Field: field, Selectors: selectors,
		New:     func() client.Object { return PT(new(T)) },
		NewList: func() client.ObjectList { return PL(new(L)) },
		Items: func(l client.ObjectList) []client.Object {
			its := items((*L)(l.(PL)))
			out := make([]client.Object, len(its))
			for i := range its {
				out[i] = PT(&its[i])
			}
			return out
		},
		Len: func(s *Set) int { return len(*of(s)) },
		Each: func(s *Set, f func(client.Object)) {
			for _, o := range *of(s) {
				f(o)
			}
		},
		Put: func(s *Set, objs []client.Object) {
			typed := make([]PT, len(objs))
			for i, o := range objs {
				typed[i] = o.(PT)
			}
			*of(s) = typed
		},
		Select: func(c *selection.Compiled, from, into *Set, scope selection.Scope, nsLabels selection.NamespaceLabels) []selection.Verdict {
			var v []selection.Verdict
			*of(into), v = selection.Select(c, *of(from), scope, nsLabels)
			return v
		},
		Append: func(s *Set, o client.Object) { *of(s) = append(*of(s), o.(PT)) },
	}
}
