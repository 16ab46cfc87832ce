package plan

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Objects lists every object p writes, in the order it writes them, with apiVersion and
// kind set (for printing): Data, the governing Service, the reloader's Role and
// RoleBinding, the StatefulSets or the DaemonSet.
func (p *Plan) Objects() []client.Object {
	var out []client.Object
	add := func(o client.Object, apiVersion, kind string) {
		o.GetObjectKind().SetGroupVersionKind(schema.FromAPIVersionAndKind(apiVersion, kind))
		out = append(out, o)
	}
	for _, d := range p.Data {
		switch d.Object.(type) {
		case *corev1.ConfigMap:
			add(d.Object, "v1", "ConfigMap")
		default:
			add(d.Object, "v1", "Secret")
		}
	}
	if p.Service != nil && p.Service.Governing != nil {
		add(p.Service.Governing, "v1", "Service")
	}
	if p.Reloader != nil && p.Reloader.Role != nil {
		add(p.Reloader.Role, rbacv1.SchemeGroupVersion.String(), "Role")
		add(p.Reloader.Binding, rbacv1.SchemeGroupVersion.String(), "RoleBinding")
	}
	for _, s := range p.StatefulSets {
		add(s, appsv1.SchemeGroupVersion.String(), "StatefulSet")
	}
	if p.DaemonSet != nil {
		add(p.DaemonSet, appsv1.SchemeGroupVersion.String(), "DaemonSet")
	}
	return out
}
