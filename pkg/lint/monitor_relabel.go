package lint

import (
	"context"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/explain"
)

func init() {
	register(&Check{
		Name:     "monitor-relabel-drops-all",
		Severity: Error,
		Summary:  "an endpoint's relabelings drop every target the files describe for it (Prometheus's own discovery and relabeling, as `explain` runs them)",
		Run:      monitorRelabelDropsAll,
	})
}

// monitorRelabelDropsAll follows, with pkg/explain offline, every selected ServiceMonitor
// and PodMonitor with relabelings to its targets, and reports an endpoint none of whose
// targets is kept while some are dropped by one of the endpoint's own relabelings.
// Targets the generated rules drop (another Service, another port, not ready) are not
// the relabelings' doing and do not count.
func monitorRelabelDropsAll(in *Inputs) []Finding {
	type candidate struct {
		kind, ns, name string
		relabelings    [][]monitoringv1.RelabelConfig
	}
	var cands []candidate
	for _, sm := range in.Objects.Monitors.ServiceMonitors {
		c := candidate{kind: explain.KindServiceMonitor, ns: sm.Namespace, name: sm.Name}
		for _, ep := range sm.Spec.Endpoints {
			c.relabelings = append(c.relabelings, ep.RelabelConfigs)
		}
		cands = append(cands, c)
	}
	for _, pm := range in.Objects.Monitors.PodMonitors {
		c := candidate{kind: explain.KindPodMonitor, ns: pm.Namespace, name: pm.Name}
		for _, ep := range pm.Spec.PodMetricsEndpoints {
			c.relabelings = append(c.relabelings, ep.RelabelConfigs)
		}
		cands = append(cands, c)
	}
	var out []Finding
	var ein *explain.Input
	for _, c := range cands {
		if !slices.ContainsFunc(c.relabelings, func(r []monitoringv1.RelabelConfig) bool { return len(r) > 0 }) ||
			len(in.SelectedBy(c.kind, c.ns, c.name)) == 0 {
			continue
		}
		subject := explain.Subject{Kind: c.kind, Namespace: c.ns, Name: c.name}
		if ein == nil {
			e, err := explain.Offline(in.Objects, subject)
			if err != nil {
				return []Finding{at(c.kind, c.ns, c.name, "cannot follow it to its targets: %v", err)}
			}
			ein = &e
		}
		rep, err := explain.Explain(context.Background(), *ein, subject, explain.Options{})
		if err != nil {
			continue
		}
		reported := map[int]bool{}
		for _, inst := range rep.Instances {
			for _, m := range inst.Monitors {
				for _, ep := range m.Endpoints {
					if reported[ep.Index] || ep.Kept > 0 || ep.Error != "" || ep.Index >= len(c.relabelings) {
						continue
					}
					dropped, cause := 0, ""
					for _, t := range ep.Targets {
						if t.Drop != nil && ownRule(t.Drop, c.relabelings[ep.Index]) {
							dropped++
							if cause == "" {
								cause = t.Drop.Cause
							}
						}
					}
					if dropped > 0 {
						reported[ep.Index] = true
						out = append(out, at(c.kind, c.ns, c.name, "%s: the relabelings drop all %d targets the files describe (%s %s/%s; first: %s)",
							endpointField(c.kind, ep.Index), dropped, inst.Kind, inst.Namespace, inst.Name, cause))
					}
				}
			}
		}
	}
	return out
}

func endpointField(kind string, i int) string {
	if kind == explain.KindPodMonitor {
		return field("podMetricsEndpoints", i)
	}
	return field("endpoints", i)
}

// ownRule reports whether the rule that dropped a target is one of rcs, the endpoint's
// own relabelings: same action, source labels and regex.
func ownRule(d *explain.Drop, rcs []monitoringv1.RelabelConfig) bool {
	for _, rc := range rcs {
		action := strings.ToLower(rc.Action)
		if action == "" {
			action = "replace"
		}
		regex := "(.*)"
		if rc.Regex != "" {
			regex = rc.Regex
		}
		src := make([]string, len(rc.SourceLabels))
		for i, l := range rc.SourceLabels {
			src[i] = string(l)
		}
		if action == strings.ToLower(d.Action) && slices.Equal(src, d.SourceLabels) && regex == d.Regex {
			return true
		}
	}
	return false
}
