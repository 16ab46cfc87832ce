package workload

import (
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ReportRules let a reloader with --report-pod patch the status of the named pods, its
// own (none without pods).
func ReportRules(pods []string) []rbacv1.PolicyRule {
	if len(pods) == 0 {
		return nil
	}
	return []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods/status"}, ResourceNames: pods, Verbs: []string{"patch"}}}
}

// StatefulSetPods are the names of the pods of the StatefulSet sts of replicas replicas.
func StatefulSetPods(sts string, replicas int32) []string {
	out := make([]string, 0, replicas)
	for i := range replicas {
		out = append(out, fmt.Sprintf("%s-%d", sts, i))
	}
	return out
}

// ReadRule lets its subject get, list and watch the named objects of a core resource.
func ReadRule(resource string, names ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{resource}, ResourceNames: names, Verbs: []string{"get", "list", "watch"}}
}

// NewReloaderRole is a config-reloader's Role in API-watch mode.
func NewReloaderRole(name, namespace string, labels map[string]string, rules ...rbacv1.PolicyRule) *rbacv1.Role {
	return &rbacv1.Role{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels},
		Rules:      rules,
	}
}

// NewReloaderRoleBinding binds the Role name to the service account sa of namespace.
func NewReloaderRoleBinding(name, namespace string, labels map[string]string, sa string) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: namespace}},
	}
}

// ReloaderRoleFor is the Role of a config-reloader: the read rules of API-watch mode
// (read; nil when the reloader does not watch the API) and, when report, patch on the
// status of its pods (pods, by name). It is nil when the reloader needs no API access.
func ReloaderRoleFor(name, namespace string, labels map[string]string, read func() ([]rbacv1.PolicyRule, error), report bool, pods func() ([]string, error)) (*rbacv1.Role, error) {
	if read == nil && !report {
		return nil, nil
	}
	var rules []rbacv1.PolicyRule
	if read != nil {
		r, err := read()
		if err != nil {
			return nil, err
		}
		rules = r
	}
	if report {
		names, err := pods()
		if err != nil {
			return nil, err
		}
		rules = append(rules, ReportRules(names)...)
	}
	return NewReloaderRole(name, namespace, labels, rules...), nil
}
