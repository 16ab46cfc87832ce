package lint

import (
	"fmt"
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
)

// reach is what a monitor's selectors reach in the files: whether the files describe
// any object of the kind in the monitor's namespaces (described), and those selected.
type reach[T any] struct {
	described bool
	selected  []T
}

// servicesOf returns the Services a ServiceMonitor's namespace and label selectors take
// in; ok is false for a selector that does not parse (the invalid check's business).
func (in *Inputs) servicesOf(sm *monitoringv1.ServiceMonitor) (r reach[*corev1.Service], ok bool) {
	sel, err := metav1.LabelSelectorAsSelector(&sm.Spec.Selector)
	if err != nil {
		return r, false
	}
	for _, ns := range in.namespaces(sm.Namespace, sm.Spec.NamespaceSelector) {
		for _, s := range in.servicesByNS[ns] {
			r.described = r.described || !s.operator
			if sel.Matches(k8slabels.Set(s.Labels)) {
				r.selected = append(r.selected, s.Service)
			}
		}
	}
	return r, true
}

// podsOf returns the pods (Pods and pod templates) a PodMonitor's selectors take in.
func (in *Inputs) podsOf(pm *monitoringv1.PodMonitor) (r reach[*Pod], ok bool) {
	sel, err := metav1.LabelSelectorAsSelector(&pm.Spec.Selector)
	if err != nil {
		return r, false
	}
	for _, ns := range in.namespaces(pm.Namespace, pm.Spec.NamespaceSelector) {
		for _, p := range in.podsByNS[ns] {
			r.described = true
			if sel.Matches(k8slabels.Set(p.Labels)) {
				r.selected = append(r.selected, p)
			}
		}
	}
	return r, true
}

// namespaces returns the namespaces a monitor of namespace own with namespace selector
// sel looks at, of those holding Services or pods.
func (in *Inputs) namespaces(own string, sel monitoringv1.NamespaceSelector) []string {
	switch {
	case sel.Any:
		return in.allNamespaces
	case len(sel.MatchNames) > 0:
		return sel.MatchNames
	}
	return []string{own}
}

// service is a Service of the files or one the operator keeps.
type service struct {
	*corev1.Service
	operator bool
}

// indexWorkloads indexes Services and pods by namespace.
func (in *Inputs) indexWorkloads() {
	in.servicesByNS, in.podsByNS = map[string][]service{}, map[string][]*Pod{}
	seen := map[string]bool{}
	note := func(ns string) {
		if !seen[ns] {
			seen[ns] = true
			in.allNamespaces = append(in.allNamespaces, ns)
		}
	}
	for i := range in.Services {
		s := &in.Services[i]
		in.servicesByNS[s.Namespace] = append(in.servicesByNS[s.Namespace], service{Service: s})
		note(s.Namespace)
	}
	for i := range in.operatorServices {
		s := &in.operatorServices[i]
		in.servicesByNS[s.Namespace] = append(in.servicesByNS[s.Namespace], service{Service: s, operator: true})
		note(s.Namespace)
	}
	for i := range in.Pods {
		p := &in.Pods[i]
		in.podsByNS[p.Namespace] = append(in.podsByNS[p.Namespace], p)
		note(p.Namespace)
	}
	sort.Strings(in.allNamespaces)
}

// field returns "name[i]".
func field(name string, i int) string { return fmt.Sprintf("%s[%d]", name, i) }
