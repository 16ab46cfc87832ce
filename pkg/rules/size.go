package rules

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// renderedSizeBound returns a number of bytes the rendered rule groups of spec never
// exceed, computed without rendering. YAML writes a string in at most four bytes per input
// byte (the longest escape, "\x01", is four bytes for one; "\U0001F600" is ten for four;
// invalid UTF-8 goes out as base64), plus indentation on every line; the constants cover
// keys, indentation and punctuation with room to spare.
func renderedSizeBound(spec monitoringv1.PrometheusRuleSpec) int {
	n := 64
	for _, g := range spec.Groups {
		n += 160 + yamlStringBound(g.Name) + labelsBound(g.Labels)
		if g.Interval != nil {
			n += 32 + yamlStringBound(string(*g.Interval))
		}
		if g.QueryOffset != nil {
			n += 32 + yamlStringBound(string(*g.QueryOffset))
		}
		if g.PartialResponseStrategy != "" {
			n += 48 + yamlStringBound(g.PartialResponseStrategy)
		}
		for _, r := range g.Rules {
			n += 256 + yamlStringBound(r.Record) + yamlStringBound(r.Alert) + yamlStringBound(r.Expr.String())
			n += labelsBound(r.Labels) + labelsBound(r.Annotations)
			if r.For != nil {
				n += 32 + yamlStringBound(string(*r.For))
			}
			if r.KeepFiringFor != nil {
				n += 32 + yamlStringBound(string(*r.KeepFiringFor))
			}
		}
	}
	return n
}

func labelsBound(m map[string]string) int {
	n := 32
	for k, v := range m {
		n += 32 + yamlStringBound(k) + yamlStringBound(v)
	}
	return n
}

// yamlStringBound bounds the bytes YAML needs for s, quotes and per-line indentation
// (up to 24 columns at the depth of annotations) included.
func yamlStringBound(s string) int {
	return 4*len(s) + 32*(strings.Count(s, "\n")+1) + 16
}
