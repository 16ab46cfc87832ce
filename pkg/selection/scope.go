package selection

import (
	"sort"
	"strings"
)

// Scope is the set of namespaces the operator watches, with prometheus-operator's
// semantics: an allow list (--namespaces), or else every namespace but a deny list
// (--deny-namespaces).
//
// A namespace mapped to true is allowed, one mapped to false is denied. When any namespace
// is allowed the scope is exactly the allowed ones; otherwise it is every namespace but the
// denied ones. So a nil or empty Scope is every namespace, and Scope{"a": true} is "a" only.
type Scope map[string]bool

// NewScope builds a scope from an allow list; an empty list is every namespace.
func NewScope(namespaces []string) Scope {
	return NewScopeExcept(namespaces, nil)
}

// NewScopeExcept builds a scope from an allow list and a deny list. As in
// prometheus-operator, the deny list only applies when the allow list is empty (the
// operator's flags refuse both at once).
func NewScopeExcept(allow, deny []string) Scope {
	s := Scope{}
	if len(allow) > 0 {
		for _, ns := range allow {
			s[ns] = true
		}
		return s
	}
	for _, ns := range deny {
		s[ns] = false
	}
	return s
}

// Contains reports whether the namespace is watched.
func (s Scope) Contains(ns string) bool {
	if v, ok := s[ns]; ok {
		return v
	}
	return !s.hasAllowList()
}

func (s Scope) hasAllowList() bool {
	for _, v := range s {
		if v {
			return true
		}
	}
	return false
}

// All reports whether every namespace is watched.
func (s Scope) All() bool { return len(s) == 0 }

// Namespaces returns the allow list, sorted; nil when the scope is every namespace but
// the Denied ones.
func (s Scope) Namespaces() []string { return s.keys(true) }

// Denied returns the deny list, sorted; nil for an allow-list scope.
func (s Scope) Denied() []string {
	if s.hasAllowList() {
		return nil
	}
	return s.keys(false)
}

// Union returns the namespaces watched by s or by o.
func (s Scope) Union(o Scope) Scope {
	switch {
	case s.hasAllowList() && o.hasAllowList():
		return NewScope(append(s.Namespaces(), o.Namespaces()...))
	case s.hasAllowList():
		return o.Union(s)
	}
	// s is every namespace but s.Denied(): what o watches is no longer denied.
	var deny []string
	for _, ns := range s.Denied() {
		if !o.Contains(ns) {
			deny = append(deny, ns)
		}
	}
	return NewScopeExcept(nil, deny)
}

// Equal reports whether both scopes watch the same namespaces.
func (s Scope) Equal(o Scope) bool {
	return s.hasAllowList() == o.hasAllowList() &&
		strings.Join(s.Namespaces(), ",") == strings.Join(o.Namespaces(), ",") &&
		strings.Join(s.Denied(), ",") == strings.Join(o.Denied(), ",")
}

// String describes the scope for logs: "all", "all except a,b" or "a,b".
func (s Scope) String() string {
	switch {
	case s.hasAllowList():
		return strings.Join(s.Namespaces(), ",")
	case len(s) > 0:
		return "all except " + strings.Join(s.Denied(), ",")
	}
	return "all"
}

func (s Scope) keys(allowed bool) []string {
	var out []string
	for k, v := range s {
		if v == allowed {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
