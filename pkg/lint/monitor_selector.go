package lint

import (
	"fmt"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func init() {
	register(&Check{
		Name:     "monitor-selector-no-match",
		Severity: Warning,
		Summary:  "a ServiceMonitor selects no Service, or a PodMonitor no Pod or workload, in the files (checked where the files describe some of the namespace)",
		Run:      monitorSelectorNoMatch,
	}, &Check{
		Name:     "monitor-port-not-found",
		Severity: Error,
		Summary:  "an endpoint's port names no port of the Services (ServiceMonitor) or containers (PodMonitor) its selector takes in",
		Run:      monitorPortNotFound,
	})
}

func monitorSelectorNoMatch(in *Inputs) []Finding {
	var out []Finding
	for _, sm := range in.Objects.Monitors.ServiceMonitors {
		if r, ok := in.servicesOf(sm); ok && r.described && len(r.selected) == 0 {
			out = append(out, at(monitoringv1.ServiceMonitorsKind, sm.Namespace, sm.Name, "the selector %s matches no Service in %s",
				metav1.FormatLabelSelector(&sm.Spec.Selector), namespacesOf(sm.Namespace, sm.Spec.NamespaceSelector)))
		}
	}
	for _, pm := range in.Objects.Monitors.PodMonitors {
		if r, ok := in.podsOf(pm); ok && r.described && len(r.selected) == 0 {
			out = append(out, at(monitoringv1.PodMonitorsKind, pm.Namespace, pm.Name, "the selector %s matches no Pod or pod template in %s",
				metav1.FormatLabelSelector(&pm.Spec.Selector), namespacesOf(pm.Namespace, pm.Spec.NamespaceSelector)))
		}
	}
	return out
}

func namespacesOf(own string, ns monitoringv1.NamespaceSelector) string {
	switch {
	case ns.Any:
		return "any namespace"
	case len(ns.MatchNames) > 0:
		return "namespaces " + strings.Join(ns.MatchNames, ", ")
	}
	return fmt.Sprintf("namespace %s", own)
}

func monitorPortNotFound(in *Inputs) []Finding {
	var out []Finding
	for _, sm := range in.Objects.Monitors.ServiceMonitors {
		r, ok := in.servicesOf(sm)
		if !ok || len(r.selected) == 0 {
			continue
		}
		var names []string
		for _, s := range r.selected {
			for _, p := range s.Spec.Ports {
				if p.Name != "" && !slices.Contains(names, p.Name) {
					names = append(names, p.Name)
				}
			}
		}
		for i, ep := range sm.Spec.Endpoints {
			if ep.Port != "" && !slices.Contains(names, ep.Port) {
				out = append(out, at(monitoringv1.ServiceMonitorsKind, sm.Namespace, sm.Name, "endpoints[%d]: port %q is not a port of the %d selected Services (their ports: %s)",
					i, ep.Port, len(r.selected), listOrNone(names)))
			}
		}
	}
	for _, pm := range in.Objects.Monitors.PodMonitors {
		r, ok := in.podsOf(pm)
		if !ok || len(r.selected) == 0 {
			continue
		}
		var names []string
		for _, p := range r.selected {
			for _, c := range p.Containers {
				for _, cp := range c.Ports {
					if cp.Name != "" && !slices.Contains(names, cp.Name) {
						names = append(names, cp.Name)
					}
				}
			}
		}
		for i, ep := range pm.Spec.PodMetricsEndpoints {
			if ep.Port != nil && *ep.Port != "" && !slices.Contains(names, *ep.Port) {
				out = append(out, at(monitoringv1.PodMonitorsKind, pm.Namespace, pm.Name, "podMetricsEndpoints[%d]: port %q is not a container port of the %d selected pods (their ports: %s)",
					i, *ep.Port, len(r.selected), listOrNone(names)))
			}
		}
	}
	return out
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none named"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
