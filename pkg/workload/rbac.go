package workload

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// ReloaderRoleName names the Role and RoleBinding of the config-reloader in API-watch mode.
func ReloaderRoleName(p *promserver.Server) string {
	return Instance(p).Base() + "-config-reloader"
}

// ReloaderRole lets the pod's service account read exactly what the config-reloader
// watches in API-watch mode: the config Secret and every pre-mounted rule ConfigMap slot.
// list and watch are granted per name, so the reloader must list and watch with a
// metadata.name field selector. The controller creates it only with Options.ReloaderWatchAPI.
func ReloaderRole(in Input) (*rbacv1.Role, error) {
	p := in.Prometheus
	if p == nil {
		return nil, fmt.Errorf("no Prometheus given")
	}
	if in.RuleConfigMaps < 0 {
		return nil, fmt.Errorf("negative number of rule ConfigMaps (%d)", in.RuleConfigMaps)
	}
	slots := ruleSlots(p, in.RuleConfigMaps)
	configMaps := make([]string, 0, slots)
	for n := range slots {
		configMaps = append(configMaps, Instance(p).RuleConfigMap(n))
	}
	secrets := []string{Instance(p).ConfigSecret()}
	for n := 1; n < in.ConfigParts; n++ {
		secrets = append(secrets, Instance(p).ConfigPartSecret(n))
	}
	return reloaderRole(ReloaderRoleName(p), p.Namespace, roleLabels(p),
		readRule("secrets", secrets...),
		readRule("configmaps", configMaps...)), nil
}

// ReloaderRoleFor is the Role of p's config-reloader under opts: the read rules of
// API-watch mode (ReloaderRole) with Options.ReloaderWatchAPI, and with
// Options.ReloaderReportConfig patch on the status of p's own pods, by name; nil when
// the reloader needs no API access.
func ReloaderRoleFor(in Input, opts Options) (*rbacv1.Role, error) {
	p := in.Prometheus
	if p == nil {
		return nil, fmt.Errorf("no Prometheus given")
	}
	var role *rbacv1.Role
	if opts.ReloaderWatchAPI {
		var err error
		if role, err = ReloaderRole(in); err != nil {
			return nil, err
		}
	}
	if !ReportsConfig(p, opts) {
		return role, nil
	}
	pods, err := PodNames(p)
	if err != nil {
		return nil, err
	}
	if role == nil {
		role = reloaderRole(ReloaderRoleName(p), p.Namespace, roleLabels(p))
	}
	role.Rules = append(role.Rules, reportRules(pods)...)
	return role, nil
}

// reportRules let a reloader with --report-pod patch the status of the named pods, its
// own (none without pods).
func reportRules(pods []string) []rbacv1.PolicyRule {
	if len(pods) == 0 {
		return nil
	}
	return []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods/status"}, ResourceNames: pods, Verbs: []string{"patch"}}}
}

// statefulSetPods are the names of the pods of the StatefulSet sts of replicas replicas.
func statefulSetPods(sts string, replicas int32) []string {
	out := make([]string, 0, replicas)
	for i := range replicas {
		out = append(out, fmt.Sprintf("%s-%d", sts, i))
	}
	return out
}

// PodNames are the names of p's StatefulSet pods: every replica of every shard.
func PodNames(p *promserver.Server) ([]string, error) {
	sets, err := StatefulSetNames(p)
	if err != nil {
		return nil, err
	}
	replicas, err := Replicas(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range sets {
		out = append(out, statefulSetPods(s, replicas)...)
	}
	return out, nil
}

// ReloaderRoleBinding binds ReloaderRole to the pod's service account (spec.serviceAccountName,
// or default).
func ReloaderRoleBinding(p *promserver.Server) *rbacv1.RoleBinding {
	sa := p.Spec.ServiceAccountName
	if sa == "" {
		sa = "default"
	}
	return reloaderRoleBinding(ReloaderRoleName(p), p.Namespace, roleLabels(p), sa)
}

func roleLabels(p *promserver.Server) map[string]string {
	return map[string]string{
		layout.ManagedByLabel:       layout.ManagedByValue,
		layout.LegacyManagedByLabel: layout.ManagedByValue,
		layout.NameLabel:            NameValue(p),
		layout.InstanceLabel:        p.Name,
		layout.OperatorNameLabel:    p.Name,
	}
}

// AlertmanagerReloaderRoleName names the Role and RoleBinding of an Alertmanager's
// config-reloader in API-watch mode.
func AlertmanagerReloaderRoleName(a *monitoringv1.Alertmanager) string {
	return fmt.Sprintf("alertmanager-%s-config-reloader", a.Name)
}

// AlertmanagerReloaderRole lets the pod's service account read exactly the generated
// config Secret, which the config-reloader watches in API-watch mode (list and watch by
// name: the reloader uses a metadata.name field selector).
func AlertmanagerReloaderRole(a *monitoringv1.Alertmanager) *rbacv1.Role {
	return reloaderRole(AlertmanagerReloaderRoleName(a), a.Namespace, alertmanagerRoleLabels(a),
		readRule("secrets", layout.Alertmanager(a.Name).GeneratedSecret()))
}

// AlertmanagerReloaderRoleFor is the Role of a's config-reloader under opts: the read
// rule of API-watch mode (AlertmanagerReloaderRole) with Options.ReloaderWatchAPI, and
// with Options.ReloaderReportConfig patch on the status of a's own pods, by name; nil
// when the reloader needs no API access.
func AlertmanagerReloaderRoleFor(a *monitoringv1.Alertmanager, opts Options) (*rbacv1.Role, error) {
	var role *rbacv1.Role
	if opts.ReloaderWatchAPI {
		role = AlertmanagerReloaderRole(a)
	}
	if !opts.ReloaderReportConfig {
		return role, nil
	}
	pods, err := AlertmanagerPodNames(a)
	if err != nil {
		return nil, err
	}
	if role == nil {
		role = reloaderRole(AlertmanagerReloaderRoleName(a), a.Namespace, alertmanagerRoleLabels(a))
	}
	role.Rules = append(role.Rules, reportRules(pods)...)
	return role, nil
}

// AlertmanagerPodNames are the names of a's pods, every replica's.
func AlertmanagerPodNames(a *monitoringv1.Alertmanager) ([]string, error) {
	replicas, err := AlertmanagerReplicas(a)
	if err != nil {
		return nil, err
	}
	return statefulSetPods(layout.Alertmanager(a.Name).StatefulSet(), replicas), nil
}

// AlertmanagerReloaderRoleBinding binds AlertmanagerReloaderRole to the pod's service
// account. The controller uses API-watch mode only when spec.serviceAccountName is set.
func AlertmanagerReloaderRoleBinding(a *monitoringv1.Alertmanager) *rbacv1.RoleBinding {
	return reloaderRoleBinding(AlertmanagerReloaderRoleName(a), a.Namespace, alertmanagerRoleLabels(a), a.Spec.ServiceAccountName)
}

func alertmanagerRoleLabels(a *monitoringv1.Alertmanager) map[string]string {
	return map[string]string{
		layout.ManagedByLabel:        layout.ManagedByValue,
		layout.NameLabel:             AlertmanagerNameValue,
		layout.InstanceLabel:         a.Name,
		layout.AlertmanagerNameLabel: a.Name,
	}
}

// readRule lets its subject get, list and watch the named objects of a core resource.
func readRule(resource string, names ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{resource}, ResourceNames: names, Verbs: []string{"get", "list", "watch"}}
}

// reloaderRole is a config-reloader's Role in API-watch mode.
func reloaderRole(name, namespace string, labels map[string]string, rules ...rbacv1.PolicyRule) *rbacv1.Role {
	return &rbacv1.Role{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels},
		Rules:      rules,
	}
}

// reloaderRoleBinding binds the Role name to the service account sa of namespace.
func reloaderRoleBinding(name, namespace string, labels map[string]string, sa string) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: namespace}},
	}
}
