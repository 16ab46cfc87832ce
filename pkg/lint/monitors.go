package lint

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
)

// inNamespaces reports whether a monitor of namespace own with namespace selector ns
// looks at namespace target.
func inNamespaces(own string, ns monitoringv1.NamespaceSelector, target string) bool {
	switch {
	case ns.Any:
		return true
	case len(ns.MatchNames) > 0:
		for _, n := range ns.MatchNames {
			if n == target {
				return true
			}
		}
		return false
	}
	return own == target
}

// reach is what a monitor's selectors reach in the files: whether the files describe
// any object of the kind in the monitor's namespaces (described), and those selected.
type reach[T any] struct {
	described bool
	selected  []T
}

// servicesOf returns the Services a ServiceMonitor's namespace and label selectors take
// in; ok is false for a selector that does not parse (the invalid check's business).
func (in *Inputs) servicesOf(sm *monitoringv1.ServiceMonitor) (r reach[corev1.Service], ok bool) {
	sel, err := metav1.LabelSelectorAsSelector(&sm.Spec.Selector)
	if err != nil {
		return r, false
	}
	for i, s := range append(append([]corev1.Service(nil), in.Services...), in.operatorServices...) {
		if !inNamespaces(sm.Namespace, sm.Spec.NamespaceSelector, s.Namespace) {
			continue
		}
		r.described = r.described || i < len(in.Services)
		if sel.Matches(k8slabels.Set(s.Labels)) {
			r.selected = append(r.selected, s)
		}
	}
	return r, true
}

// podsOf returns the pods (Pods and pod templates) a PodMonitor's selectors take in.
func (in *Inputs) podsOf(pm *monitoringv1.PodMonitor) (r reach[Pod], ok bool) {
	sel, err := metav1.LabelSelectorAsSelector(&pm.Spec.Selector)
	if err != nil {
		return r, false
	}
	for _, p := range in.Pods {
		if !inNamespaces(pm.Namespace, pm.Spec.NamespaceSelector, p.Namespace) {
			continue
		}
		r.described = true
		if sel.Matches(k8slabels.Set(p.Labels)) {
			r.selected = append(r.selected, p)
		}
	}
	return r, true
}

// field returns "name[i]".
func field(name string, i int) string { return fmt.Sprintf("%s[%d]", name, i) }
