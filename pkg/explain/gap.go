package explain

import (
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// selectorGap says which requirements of sel the labels miss, e.g. "label team is
// missing; the selector wants team=a". what names the labels' owner ("the
// ServiceMonitor", "namespace \"app\"").
func selectorGap(sel *metav1.LabelSelector, lbls map[string]string, what string) string {
	if sel == nil {
		return ""
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return ""
	}
	reqs, _ := s.Requirements()
	var out []string
	set := k8slabels.Set(lbls)
	for _, r := range reqs {
		if r.Matches(set) {
			continue
		}
		key, vals := r.Key(), r.ValuesUnsorted()
		sort.Strings(vals)
		v, has := lbls[key]
		want := strings.Join(vals, " or ")
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
			if !has {
				out = append(out, fmt.Sprintf("%s has no label %s; the selector wants %s=%s", what, key, key, want))
			} else {
				out = append(out, fmt.Sprintf("%s has %s=%s; the selector wants %s=%s", what, key, v, key, want))
			}
		case selection.NotEquals, selection.NotIn:
			out = append(out, fmt.Sprintf("%s has %s=%s, which the selector excludes", what, key, v))
		case selection.Exists:
			out = append(out, fmt.Sprintf("%s has no label %s; the selector wants it present", what, key))
		case selection.DoesNotExist:
			out = append(out, fmt.Sprintf("%s has label %s; the selector wants it absent", what, key))
		default:
			out = append(out, fmt.Sprintf("%s does not meet %s", what, r.String()))
		}
	}
	return strings.Join(out, "; ")
}

// selectorString is a selector as kubectl writes it ("" selects everything).
func selectorString(sel *metav1.LabelSelector) string {
	if sel == nil {
		return "<unset>"
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return "<invalid>"
	}
	if s.Empty() {
		return "<everything>"
	}
	return s.String()
}
