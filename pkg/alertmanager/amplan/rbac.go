package amplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// AlertmanagerReloaderRoleName names the Role and RoleBinding of an Alertmanager's
// config-reloader in API-watch mode.
func AlertmanagerReloaderRoleName(a *monitoringv1.Alertmanager) string {
	return fmt.Sprintf("alertmanager-%s-config-reloader", a.Name)
}

// AlertmanagerReloaderRole lets the pod's service account read exactly the generated
// config Secret, which the config-reloader watches in API-watch mode (list and watch by
// name: the reloader uses a metadata.name field selector).
func AlertmanagerReloaderRole(a *monitoringv1.Alertmanager) *rbacv1.Role {
	return workload.NewReloaderRole(AlertmanagerReloaderRoleName(a), a.Namespace, alertmanagerRoleLabels(a),
		workload.ReadRule("secrets", layout.Alertmanager(a.Name).GeneratedSecret()))
}

// AlertmanagerReloaderRoleFor is the Role of a's config-reloader under opts: the read
// rule of API-watch mode (AlertmanagerReloaderRole) with Options.ReloaderWatchAPI, and
// with Options.ReloaderReportConfig patch on the status of a's own pods, by name; nil
// when the reloader needs no API access.
func AlertmanagerReloaderRoleFor(a *monitoringv1.Alertmanager, opts workload.Options) (*rbacv1.Role, error) {
	var read func() ([]rbacv1.PolicyRule, error)
	if opts.ReloaderWatchAPI {
		read = func() ([]rbacv1.PolicyRule, error) { return AlertmanagerReloaderRole(a).Rules, nil }
	}
	return workload.ReloaderRoleFor(AlertmanagerReloaderRoleName(a), a.Namespace, alertmanagerRoleLabels(a), read, opts.ReloaderReportConfig,
		func() ([]string, error) { return AlertmanagerPodNames(a) })
}

// AlertmanagerPodNames are the names of a's pods, every replica's.
func AlertmanagerPodNames(a *monitoringv1.Alertmanager) ([]string, error) {
	replicas, err := AlertmanagerReplicas(a)
	if err != nil {
		return nil, err
	}
	return workload.StatefulSetPods(layout.Alertmanager(a.Name).StatefulSet(), replicas), nil
}

// AlertmanagerReloaderRoleBinding binds AlertmanagerReloaderRole to the pod's service
// account. The controller uses API-watch mode only when spec.serviceAccountName is set.
func AlertmanagerReloaderRoleBinding(a *monitoringv1.Alertmanager) *rbacv1.RoleBinding {
	return workload.NewReloaderRoleBinding(AlertmanagerReloaderRoleName(a), a.Namespace, alertmanagerRoleLabels(a), a.Spec.ServiceAccountName)
}

func alertmanagerRoleLabels(a *monitoringv1.Alertmanager) map[string]string {
	return map[string]string{
		layout.ManagedByLabel:        layout.ManagedByValue,
		layout.NameLabel:             AlertmanagerNameValue,
		layout.InstanceLabel:         a.Name,
		layout.AlertmanagerNameLabel: a.Name,
	}
}
