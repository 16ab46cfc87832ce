package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

// routeRefs are the names a route tree uses, checked against what the object defines.
type routeRefs struct {
	receivers     map[string]bool
	timeIntervals map[string]bool
}

// route converts a route and its children. Receiver and time interval names are
// prefixed; references to names the object does not define are problems.
func (c *conv) route(field string, in *monitoringv1alpha1.Route, refs routeRefs, depth int) (*obj, matcherSet, *problem) {
	var ms matcherSet
	if depth > 100 {
		return nil, ms, invalid(field, "routes are nested more than 100 levels deep")
	}
	if in.Receiver != "" && !refs.receivers[in.Receiver] {
		return nil, ms, invalid(field+".receiver", "receiver %q not found in spec.receivers", in.Receiver)
	}
	ms, p := c.matchers(field+".matchers", in.Matchers)
	if p != nil {
		return nil, ms, p
	}
	out := (&obj{}).set("receiver", c.named(in.Receiver)).set("group_by", in.GroupBy)
	// Filled in by the caller for the top-level route (namespace matcher, continue).
	out.set("match", ms.match).set("match_re", ms.matchRE).set("matchers", ms.list)
	for _, d := range []struct {
		key string
		v   *string
	}{
		{"group_wait", (*string)(in.GroupWait)},
		{"group_interval", (*string)(in.GroupInterval)},
		{"repeat_interval", (*string)(in.RepeatInterval)},
	} {
		out.set(d.key, d.v)
	}
	r := c.resolver(field)
	intervals := func(f string, names []string) []string {
		return resolved(r, func() ([]string, *problem) { return c.intervalRefs(f, names, refs) })
	}
	out.set("mute_time_intervals", intervals(field+".muteTimeIntervals", in.MuteTimeIntervals))
	if len(in.ActiveTimeIntervals) > 0 {
		r.gate(field+".activeTimeIntervals", "activeTimeIntervals", "0.24.0")
	}
	out.set("active_time_intervals", intervals(field+".activeTimeIntervals", in.ActiveTimeIntervals))
	if len(in.Labels) > 0 {
		r.gate(field+".labels", "route labels", "0.34.0")
		out.set("labels", kvMap(in.Labels))
	}
	if !r.ok() {
		return nil, ms, r.p
	}
	out.set("continue", in.Continue)
	children, err := in.ChildRoutes()
	if err != nil {
		return nil, ms, invalid(field+".routes", "%v", err)
	}
	var routes []any
	for i := range children {
		r, _, p := c.route(fmt.Sprintf("%s.routes[%d]", field, i), &children[i], refs, depth+1)
		if p != nil {
			return nil, ms, p
		}
		routes = append(routes, r.ms)
	}
	out.set("routes", routes)
	return out, ms, nil
}

func (c *conv) intervalRefs(field string, names []string, refs routeRefs) ([]string, *problem) {
	var out []string
	for i, n := range names {
		if !refs.timeIntervals[n] {
			return nil, invalid(fmt.Sprintf("%s[%d]", field, i), "time interval %q not found in spec.muteTimeIntervals", n)
		}
		out = append(out, c.named(n))
	}
	return out, nil
}

func kvMap(kvs []monitoringv1alpha1.KeyValue) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}
