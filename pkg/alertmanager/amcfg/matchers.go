package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/versions"
)

var matchTypes = map[monitoringv1alpha1.MatchType]labels.MatchType{
	monitoringv1alpha1.MatchEqual:     labels.MatchEqual,
	monitoringv1alpha1.MatchNotEqual:  labels.MatchNotEqual,
	monitoringv1alpha1.MatchRegexp:    labels.MatchRegexp,
	monitoringv1alpha1.MatchNotRegexp: labels.MatchNotRegexp,
}

// matcherSet is the converted form of a list of matchers: `matchers` strings for
// Alertmanager >= 0.22, match/match_re maps for older ones.
type matcherSet struct {
	list    []string
	match   map[string]string
	matchRE map[string]string
}

func (c *conv) matchers(field string, in []monitoringv1alpha1.Matcher) (matcherSet, *problem) {
	var out matcherSet
	for i, m := range in {
		f := fmt.Sprintf("%s[%d]", field, i)
		mt := m.MatchType
		if mt == "" {
			mt = monitoringv1alpha1.MatchEqual
			if m.Regex {
				mt = monitoringv1alpha1.MatchRegexp
			}
		}
		t, ok := matchTypes[mt]
		if !ok {
			return out, invalid(f+".matchType", "unknown match type %q, want one of =, !=, =~, !~", mt)
		}
		if m.Name == "" {
			return out, invalid(f+".name", "the label name must not be empty")
		}
		lm, err := labels.NewMatcher(t, m.Name, m.Value)
		if err != nil {
			return out, invalid(f, "invalid matcher: %v", err)
		}
		if !c.version.Less(versions.AMMatchersV2) {
			out.list = append(out.list, lm.String())
			continue
		}
		switch t {
		case labels.MatchEqual:
			out.match = setKV(out.match, m.Name, m.Value)
		case labels.MatchRegexp:
			out.matchRE = setKV(out.matchRE, m.Name, m.Value)
		default:
			return out, invalid(f+".matchType", "match type %q requires Alertmanager >= %s, this Alertmanager runs %s", mt, versions.AMMatchersV2, c.version)
		}
	}
	return out, nil
}

func setKV(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// namespaceMatcher is the matcher the namespace enforcement adds.
func namespaceMatcher(ns string) string {
	m, _ := labels.NewMatcher(labels.MatchEqual, "namespace", ns)
	return m.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
