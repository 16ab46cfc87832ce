package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one reason a PrometheusRule cannot be loaded by Prometheus. Error returns the
// exact text users see in status conditions, events and admission responses.
type Problem struct {
	// Path is the field the problem is about, in Kubernetes field-path form, for example
	// "spec.groups[0].rules[2].expr" or "spec.groups[1].labels[team]". It is "spec" for
	// problems with the object as a whole.
	Path string
	// GroupIndex is the index of the group in spec.groups, or -1 when the problem is about
	// the whole object.
	GroupIndex int
	// Group is the name of that group ("" when GroupIndex is -1 or the name is empty).
	Group string
	// RuleIndex is the index of the rule in the group's rules, or -1 when the problem is
	// about the group (or the whole object).
	RuleIndex int
	// RuleKind is "alert" or "record" ("" when the rule has neither or RuleIndex is -1).
	RuleKind string
	// RuleName is the alert or record name of the rule.
	RuleName string
	// Message says what is wrong, without the location.
	Message string
}

// Error formats the problem as `<path> (<group and rule>): <message>`, for example
//
//	spec.groups[0].rules[1].expr (group "node", alert "NodeDown"): could not parse expression: ...
func (p Problem) Error() string {
	var where []string
	if p.GroupIndex >= 0 {
		where = append(where, fmt.Sprintf("group %q", p.Group))
	}
	if p.RuleIndex >= 0 {
		if p.RuleKind != "" {
			where = append(where, fmt.Sprintf("%s %q", p.RuleKind, p.RuleName))
		} else {
			where = append(where, "rule without alert or record name")
		}
	}
	if len(where) == 0 {
		return p.Path + ": " + p.Message
	}
	return p.Path + " (" + strings.Join(where, ", ") + "): " + p.Message
}

// Problems joins problems into one error (nil when there are none), one problem a line.
func Problems(ps []Problem) error {
	if len(ps) == 0 {
		return nil
	}
	return problemsError(ps)
}

type problemsError []Problem

func (e problemsError) Error() string {
	lines := make([]string, len(e))
	for i, p := range e {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// sortProblems orders problems by position in the object: object-wide first, then by group,
// then group-wide before rule problems, then by field path and message, and drops exact
// duplicates.
func sortProblems(ps []Problem) []Problem {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(a.GroupIndex, b.GroupIndex),
			cmp.Compare(a.RuleIndex, b.RuleIndex),
			strings.Compare(a.Path, b.Path),
			strings.Compare(a.Message, b.Message),
		)
	})
	// rulefmt may report the same problem twice (for example one invalid value under two
	// label names): keep one.
	return slices.CompactFunc(ps, func(a, b Problem) bool { return a == b })
}
