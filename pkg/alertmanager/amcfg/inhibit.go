package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// inhibitRule converts one inhibit rule; enforceNS adds the namespace matcher to its
// source and target as the matcher strategy requires.
func (c *conv) inhibitRule(field string, in monitoringv1alpha1.InhibitRule, enforceNS bool) (*obj, *problem) {
	src, p := c.matchers(field+".sourceMatch", in.SourceMatch)
	if p != nil {
		return nil, p
	}
	tgt, p := c.matchers(field+".targetMatch", in.TargetMatch)
	if p != nil {
		return nil, p
	}
	if enforceNS {
		if c.version.Less(versions.AMMatchersV2) {
			src.match = setKV(src.match, "namespace", c.namespace)
			tgt.match = setKV(tgt.match, "namespace", c.namespace)
			delete(src.matchRE, "namespace")
			delete(tgt.matchRE, "namespace")
		} else {
			nm := namespaceMatcher(c.namespace)
			if !contains(src.list, nm) {
				src.list = append(src.list, nm)
			}
			if !contains(tgt.list, nm) {
				tgt.list = append(tgt.list, nm)
			}
		}
	}
	out := (&obj{}).
		set("source_match", src.match).set("source_match_re", src.matchRE).set("source_matchers", src.list).
		set("target_match", tgt.match).set("target_match_re", tgt.matchRE).set("target_matchers", tgt.list).
		set("equal", in.Equal)
	return out, nil
}

func (c *conv) inhibitRules(in []monitoringv1alpha1.InhibitRule, enforceNS bool) ([]any, *problem) {
	var out []any
	for i, r := range in {
		o, p := c.inhibitRule(fmt.Sprintf("spec.inhibitRules[%d]", i), r, enforceNS)
		if p != nil {
			return nil, p
		}
		out = append(out, o.ms)
	}
	return out, nil
}
