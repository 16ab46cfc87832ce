package selection

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Object is what selection needs from a monitor or rule: its metadata.
type Object interface {
	GetNamespace() string
	GetName() string
	GetLabels() map[string]string
	GetGeneration() int64
	GetResourceVersion() string
}

// Selector describes one kind's selection on a Prometheus.
type Selector struct {
	// Kind names the selected kind in verdicts ("ServiceMonitor").
	Kind string
	// Labels is e.g. spec.serviceMonitorSelector: nil selects nothing, empty selects all.
	Labels *metav1.LabelSelector
	// Namespaces is e.g. spec.serviceMonitorNamespaceSelector: nil means the Prometheus's
	// own namespace only, empty means every namespace.
	Namespaces *metav1.LabelSelector
	// OwnNamespace is the namespace of the Prometheus object.
	OwnNamespace string
}

// NamespaceLabels returns the labels of a namespace, and whether it exists.
type NamespaceLabels func(namespace string) (map[string]string, bool)

// Compiled is a Selector with its label selectors parsed once.
type Compiled struct {
	Selector
	labels     labels.Selector // nil: selects nothing
	namespaces labels.Selector // nil: own namespace only
	memo       labelMemo
}

// labelMemo keeps the label match of the objects the last Select judged, by position. A
// reconcile reads the same cached objects in the same order, so only the changed ones'
// labels are looked at: each look is a cache miss into another object's map, 18 ms a
// change at 20,000 monitors. An object is known by its namespace, name and
// resourceVersion (a changed object has a new one), never held: the informer replaces
// every object a status write touches, and holding the old ones would keep them all
// twice in memory.
type labelMemo struct {
	mu   sync.Mutex
	seen []seenObject
}

// seenObject is one position of a labelMemo.
type seenObject struct {
	namespace, name, version string
	match                    bool
}

// Compile parses the label selectors. An invalid selector is an error of the Prometheus
// object, not of the monitors.
func Compile(s Selector) (*Compiled, error) {
	c := &Compiled{Selector: s}
	if s.Labels != nil {
		sel, err := metav1.LabelSelectorAsSelector(s.Labels)
		if err != nil {
			return nil, fmt.Errorf("invalid %s selector: %w", s.Kind, err)
		}
		c.labels = sel
	}
	if s.Namespaces != nil {
		sel, err := metav1.LabelSelectorAsSelector(s.Namespaces)
		if err != nil {
			return nil, fmt.Errorf("invalid %s namespace selector: %w", s.Kind, err)
		}
		c.namespaces = sel
	}
	return c, nil
}

// Judge decides for one object. It does not check validity: generation does that and
// turns an Accepted verdict into InvalidConfiguration.
func (c *Compiled) Judge(o Object, scope Scope, nsLabels NamespaceLabels) Verdict {
	ns := o.GetNamespace()
	return c.verdict(o, ns, o.GetName(), scope.Contains(ns), c.namespaceMatches(ns, nsLabels), c.labelsMatch(o))
}

// labelsMatch reports whether the object's labels match the selector (false when unset).
func (c *Compiled) labelsMatch(o Object) bool {
	return c.labels != nil && c.labels.Matches(labels.Set(o.GetLabels()))
}

// verdict words the decision on one object, given the three tests in the order they apply.
func (c *Compiled) verdict(o Object, ns, name string, inScope, nsMatch, labelsMatch bool) Verdict {
	v := Verdict{Kind: c.Kind, Namespace: ns, Name: name, Generation: o.GetGeneration()}
	switch {
	case !inScope:
		v.Reason = NamespaceNotWatched
		v.Message = fmt.Sprintf("namespace %q is not watched by the operator", ns)
	case !nsMatch:
		v.Reason = NamespaceNotSelected
		if c.namespaces == nil {
			v.Message = fmt.Sprintf("the %s namespace selector is unset, so only namespace %q is selected", c.Kind, c.OwnNamespace)
		} else {
			v.Message = fmt.Sprintf("namespace %q does not match the %s namespace selector %q", ns, c.Kind, c.namespaces.String())
		}
	case c.labels == nil:
		v.Reason = NotSelectedByLabels
		v.Message = fmt.Sprintf("the %s selector is unset, which selects nothing", c.Kind)
	case !labelsMatch:
		v.Reason = NotSelectedByLabels
		v.Message = fmt.Sprintf("labels do not match the %s selector %q", c.Kind, c.labels.String())
	default:
		v.Reason = Accepted
	}
	return v
}

// MatchesNamespace reports whether objects of a namespace can be selected at all; the
// controller uses it to map namespace label changes to Prometheus objects.
func (c *Compiled) MatchesNamespace(ns string, nsLabels NamespaceLabels) bool {
	return c.namespaceMatches(ns, nsLabels)
}

// Matches reports whether the object is selected, without building a verdict.
func (c *Compiled) Matches(o Object, scope Scope, nsLabels NamespaceLabels) bool {
	return scope.Contains(o.GetNamespace()) && c.namespaceMatches(o.GetNamespace(), nsLabels) &&
		c.labels != nil && c.labels.Matches(labels.Set(o.GetLabels()))
}

func (c *Compiled) namespaceMatches(ns string, nsLabels NamespaceLabels) bool {
	if c.namespaces == nil {
		return ns == c.OwnNamespace
	}
	if c.namespaces.Empty() {
		return true
	}
	l, ok := nsLabels(ns)
	if !ok {
		return false
	}
	return c.namespaces.Matches(labels.Set(l))
}

// Named is an object with its namespace and name read out (SortByName).
type Named[T Object] struct {
	Namespace, Name string
	Obj             T
}

// SortByName returns the objects sorted by namespace and name, the order of Select, with
// their names read out: sorting on names read into a flat slice spares a cache miss into
// an object per comparison.
func SortByName[T Object](objs []T) []Named[T] {
	sorted := make([]Named[T], len(objs))
	for i, o := range objs {
		sorted[i] = Named[T]{o.GetNamespace(), o.GetName(), o}
	}
	sortNamed(sorted)
	return sorted
}

func sortNamed[T Object](sorted []Named[T]) {
	slices.SortFunc(sorted, func(a, b Named[T]) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// sortByNameAsSeen is SortByName for Select: objects found at the places the memo saw
// them last time, which Select left in sorted order, are sorted already, and the sort's
// comparisons (a cache miss into two names each, 3 ms of a change at 20,000 monitors)
// are not made. Comparing with the memo is mostly by address: the same objects hold the
// same strings. The caller holds m.mu.
func sortByNameAsSeen[T Object](m *labelMemo, objs []T) []Named[T] {
	named := make([]Named[T], len(objs))
	same := len(m.seen) == len(objs)
	for i, o := range objs {
		ns, name := o.GetNamespace(), o.GetName()
		named[i] = Named[T]{ns, name, o}
		same = same && m.seen[i].name == name && m.seen[i].namespace == ns
	}
	if !same {
		sortNamed(named)
	}
	return named
}

// Select splits objects into the selected ones (sorted by namespace and name, so the
// generated configuration is deterministic) and verdicts for all objects (sorted by kind,
// namespace and name).
func Select[T Object](c *Compiled, objs []T, scope Scope, nsLabels NamespaceLabels) ([]T, []Verdict) {
	// The objects are sorted once and judged in that order: the verdicts (all of one
	// kind) come out sorted too, with no second sort by a built key.
	c.memo.mu.Lock()
	defer c.memo.mu.Unlock()
	m := &c.memo
	sorted := sortByNameAsSeen(m, objs)
	if len(m.seen) != len(sorted) {
		// Another number of objects: the positions shift, start afresh.
		m.seen = make([]seenObject, len(sorted))
	}
	var (
		selected        []T
		verdicts        = make([]Verdict, 0, len(objs))
		lastNS          string
		inScope, nsSels bool
	)
	for i, s := range sorted {
		// Sorted by namespace: its tests are made once per namespace.
		if i == 0 || s.Namespace != lastNS {
			lastNS, inScope, nsSels = s.Namespace, scope.Contains(s.Namespace), c.namespaceMatches(s.Namespace, nsLabels)
		}
		var lm bool
		if seen, v := &m.seen[i], s.Obj.GetResourceVersion(); v != "" && seen.version == v && seen.name == s.Name && seen.namespace == s.Namespace {
			lm = seen.match
		} else {
			lm = c.labelsMatch(s.Obj)
			*seen = seenObject{s.Namespace, s.Name, v, lm}
		}
		v := c.verdict(s.Obj, s.Namespace, s.Name, inScope, nsSels, lm)
		verdicts = append(verdicts, v)
		if v.Used() {
			selected = append(selected, s.Obj)
		}
	}
	return selected, verdicts
}
