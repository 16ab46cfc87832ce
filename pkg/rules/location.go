package rules

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// location is the group or rule a check is looking at.
type location struct {
	groupIndex int
	group      string
	ruleIndex  int
	kind, name string
	path       string
}

// rule returns the location of rule ri of the group.
func (l location) rule(ri int, r *monitoringv1.Rule) location {
	l.ruleIndex = ri
	l.kind, l.name = ruleIdentity(r)
	l.path = fmt.Sprintf("%s.rules[%d]", l.path, ri)
	return l
}

// problem builds a Problem about field (relative to the location; "" for the location
// itself).
func (l location) problem(field, msg string) Problem {
	path := l.path
	if field != "" {
		path += "." + field
	}
	return Problem{
		Path:       path,
		GroupIndex: l.groupIndex,
		Group:      l.group,
		RuleIndex:  l.ruleIndex,
		RuleKind:   l.kind,
		RuleName:   l.name,
		Message:    msg,
	}
}

// ruleIdentity names a rule by its alert or record name.
func ruleIdentity(r *monitoringv1.Rule) (kind, name string) {
	switch {
	case r.Alert != "":
		return "alert", r.Alert
	case r.Record != "":
		return "record", r.Record
	}
	return "", ""
}
