package plan

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Plan is every object one instance generates.
type Plan struct {
	// Namespace is the instance's, and every object's.
	Namespace string
	// Data are the Secrets and ConfigMaps in write order: assets before the configuration
	// that names them, everything before the pods that mount it.
	Data []Object
	// Service is the Service the pods are reached through (nil: none).
	Service *Service
	// Reloader is the config-reloader's Role and RoleBinding (nil: the operator makes
	// none for this kind of instance, and removes none).
	Reloader *RBAC
	// StatefulSets run the pods; or DaemonSet (a PrometheusAgent in DaemonSet mode).
	StatefulSets []*appsv1.StatefulSet
	DaemonSet    *appsv1.DaemonSet
	// Prune are the numbered objects of which those past Keep are deleted after the pods
	// are updated (a pod of the old template may still mount them until then).
	Prune []Numbered
	// Warnings say what the instance runs without, for its status.
	Warnings []string
}

// Write says how an object of Data is written.
type Write int

const (
	// Ensure writes the object whenever its input hash differs from the live one's.
	Ensure Write = iota
	// CreateOnly creates the object when it is missing and never touches an existing one
	// (its content is the user's).
	CreateOnly
	// UnlessForeign writes the object unless one of its name exists that the instance
	// does not own (the object is written only because prometheus-operator writes it).
	UnlessForeign
)

// Object is one Secret or ConfigMap of Data, with its labels, owner references and
// input-hash annotation set.
type Object struct {
	client.Object
	Write Write
	// Written, when set, is called once the object is written.
	Written func()
}

// Service is how the pods are reached: the governing Service the instances of a kind
// share in a namespace, or the one spec.serviceName names.
type Service struct {
	// Governing is the headless Service to write (nil: Name and Check apply).
	Governing *corev1.Service
	// Uses reports whether an instance of the kind uses Governing (every such instance
	// owns it), and Adjust, when set, adds to it what one of them needs. Both are given an
	// object of the instance's kind.
	Uses   func(client.Object) bool
	Adjust func(client.Object, *corev1.Service)
	// Name is the Service of spec.serviceName, and Check refuses it when it does not
	// select the pods (it is given nil when the Service does not exist).
	Name  string
	Check func(*corev1.Service) error
}

// RBAC is the config-reloader's Role and RoleBinding (API-watch and report modes).
type RBAC struct {
	// Role and Binding are written; both nil: the Role and RoleBinding called Name are
	// removed (the instance's reloader reads the volume instead).
	Role    *rbacv1.Role
	Binding *rbacv1.RoleBinding
	Name    string
}

// ReloaderRBAC is the RBAC of an instance's config-reloader: role (nil when the reloader
// needs no API access) bound by binding; without a role, the removal of the one called
// name left from before when the operator manages reloader Roles (manages), else nil.
func ReloaderRBAC(name string, role *rbacv1.Role, binding *rbacv1.RoleBinding, manages bool) *RBAC {
	switch {
	case role != nil:
		return &RBAC{Role: role, Binding: binding, Name: name}
	case manages:
		return &RBAC{Name: name}
	}
	return nil
}

// Numbered is a family of numbered objects (tls-assets-0, -1, ...): the instance's members
// of it named Name(n) for n >= Keep are deleted.
type Numbered struct {
	// Kind is "Secret" or "ConfigMap".
	Kind string
	Name func(int) string
	Keep int
}
