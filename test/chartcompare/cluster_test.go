package chartcompare

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// objectKey names an object as Kind/namespace/name.
func objectKey(kind, ns, name string) string { return kind + "/" + ns + "/" + name }

// applyInputs creates the objects (in ns when they name none) and returns their keys,
// which tell the operators' objects from the chart's.
func applyInputs(ns string, objs []*unstructured.Unstructured) (map[string]bool, error) {
	if err := ensureNamespace(ns); err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for _, o := range objs {
		o = o.DeepCopy()
		if o.GetNamespace() == "" {
			o.SetNamespace(ns)
		}
		if err := ensureNamespace(o.GetNamespace()); err != nil {
			return nil, err
		}
		if err := k8s.Create(ctx, o); err != nil {
			return nil, fmt.Errorf("creating %s %s/%s: %w", o.GetKind(), o.GetNamespace(), o.GetName(), err)
		}
		keys[objectKey(o.GetKind(), o.GetNamespace(), o.GetName())] = true
	}
	return keys, nil
}

func ensureNamespace(ns string) error {
	err := k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// generated lists what the operators write, by kind: every object of these kinds in the
// case's namespaces that is not an input, and the kubelet Service, Endpoints and
// EndpointSlices (--kubelet-service).
type generated struct {
	StatefulSets []appsv1.StatefulSet
	Services     []corev1.Service
	Secrets      []corev1.Secret
	ConfigMaps   []corev1.ConfigMap
	Roles        []rbacv1.Role
	RoleBindings []rbacv1.RoleBinding
	//lint:ignore SA1019 the kubelet controllers write Endpoints, as prometheus-operator does
	Endpoints      []corev1.Endpoints
	EndpointSlices []discoveryv1.EndpointSlice
}

// scope says where a case's generated objects are: its namespaces and the kubelet
// Service (namespace/name, from --kubelet-service).
type scope struct {
	namespaces []string
	inputs     map[string]bool
	kubelet    string
}

func (s scope) isKubelet(ns, name string) bool { return s.kubelet == ns+"/"+name }

// list reads the generated objects of a case.
func list(s scope) (*generated, error) {
	g := &generated{}
	namespaces := slices.Clone(s.namespaces)
	kubeletNS, _, _ := strings.Cut(s.kubelet, "/")
	if s.kubelet != "" && !slices.Contains(namespaces, kubeletNS) {
		namespaces = append(namespaces, kubeletNS)
	}
	for _, ns := range namespaces {
		inCase := slices.Contains(s.namespaces, ns)
		keep := func(kind string, o metav1.Object) bool {
			if s.inputs[objectKey(kind, o.GetNamespace(), o.GetName())] {
				return false
			}
			if kind == "EndpointSlice" {
				return s.isKubelet(ns, o.GetLabels()[discoveryv1.LabelServiceName])
			}
			return inCase || s.isKubelet(ns, o.GetName())
		}
		sts := &appsv1.StatefulSetList{}
		svcs := &corev1.ServiceList{}
		secs := &corev1.SecretList{}
		cms := &corev1.ConfigMapList{}
		roles := &rbacv1.RoleList{}
		rbs := &rbacv1.RoleBindingList{}
		eps := &corev1.EndpointsList{}
		epSlices := &discoveryv1.EndpointSliceList{}
		for _, l := range []client.ObjectList{sts, svcs, secs, cms, roles, rbs, eps, epSlices} {
			if err := k8s.List(ctx, l, client.InNamespace(ns)); err != nil {
				return nil, err
			}
		}
		for _, o := range sts.Items {
			if keep("StatefulSet", &o) {
				g.StatefulSets = append(g.StatefulSets, o)
			}
		}
		for _, o := range svcs.Items {
			if keep("Service", &o) {
				g.Services = append(g.Services, o)
			}
		}
		for _, o := range secs.Items {
			if keep("Secret", &o) {
				g.Secrets = append(g.Secrets, o)
			}
		}
		for _, o := range cms.Items {
			if o.Name != "kube-root-ca.crt" && keep("ConfigMap", &o) {
				g.ConfigMaps = append(g.ConfigMaps, o)
			}
		}
		for _, o := range roles.Items {
			if keep("Role", &o) {
				g.Roles = append(g.Roles, o)
			}
		}
		for _, o := range rbs.Items {
			if keep("RoleBinding", &o) {
				g.RoleBindings = append(g.RoleBindings, o)
			}
		}
		for _, o := range eps.Items {
			if keep("Endpoints", &o) {
				g.Endpoints = append(g.Endpoints, o)
			}
		}
		for _, o := range epSlices.Items {
			if keep("EndpointSlice", &o) {
				g.EndpointSlices = append(g.EndpointSlices, o)
			}
		}
	}
	return g, nil
}

// objects returns every generated object, for deletion.
func (g *generated) objects() []client.Object {
	var out []client.Object
	for i := range g.StatefulSets {
		out = append(out, &g.StatefulSets[i])
	}
	for i := range g.Services {
		out = append(out, &g.Services[i])
	}
	for i := range g.Secrets {
		out = append(out, &g.Secrets[i])
	}
	for i := range g.ConfigMaps {
		out = append(out, &g.ConfigMaps[i])
	}
	for i := range g.Roles {
		out = append(out, &g.Roles[i])
	}
	for i := range g.RoleBindings {
		out = append(out, &g.RoleBindings[i])
	}
	for i := range g.Endpoints {
		out = append(out, &g.Endpoints[i])
	}
	for i := range g.EndpointSlices {
		out = append(out, &g.EndpointSlices[i])
	}
	return out
}

// deleteGenerated removes what an operator wrote, so that the next one starts from the
// inputs alone (the test control plane runs no garbage collector).
func deleteGenerated(s scope) error {
	g, err := list(s)
	if err != nil {
		return err
	}
	for _, o := range g.objects() {
		if err := k8s.Delete(ctx, o); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// deleteInputs removes a case's monitoring.coreos.com objects (releasing the finalizers
// prometheus-operator may have added) so that the next case's operators, which watch
// every namespace, do not reconcile them again.
func deleteInputs(objs []*unstructured.Unstructured, ns string) error {
	for _, o := range objs {
		o = o.DeepCopy()
		if o.GetNamespace() == "" {
			o.SetNamespace(ns)
		}
		cur := &unstructured.Unstructured{}
		cur.SetGroupVersionKind(o.GroupVersionKind())
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(o), cur); err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return err
		}
		if len(cur.GetFinalizers()) > 0 {
			cur.SetFinalizers(nil)
			if err := k8s.Update(ctx, cur); err != nil {
				return err
			}
		}
		if err := k8s.Delete(ctx, cur); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}
