package promplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	rbacv1 "k8s.io/api/rbac/v1"

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
	return workload.NewReloaderRole(ReloaderRoleName(p), p.Namespace, roleLabels(p),
		workload.ReadRule("secrets", secrets...),
		workload.ReadRule("configmaps", configMaps...)), nil
}

// ReloaderRoleFor is the Role of p's config-reloader under opts: the read rules of
// API-watch mode (ReloaderRole) with Options.ReloaderWatchAPI, and with
// Options.ReloaderReportConfig patch on the status of p's own pods, by name; nil when
// the reloader needs no API access.
func ReloaderRoleFor(in Input, opts workload.Options) (*rbacv1.Role, error) {
	p := in.Prometheus
	if p == nil {
		return nil, fmt.Errorf("no Prometheus given")
	}
	var read func() ([]rbacv1.PolicyRule, error)
	if opts.ReloaderWatchAPI {
		read = func() ([]rbacv1.PolicyRule, error) {
			role, err := ReloaderRole(in)
			if err != nil {
				return nil, err
			}
			return role.Rules, nil
		}
	}
	return workload.ReloaderRoleFor(ReloaderRoleName(p), p.Namespace, roleLabels(p), read, ReportsConfig(p, opts), func() ([]string, error) { return ReportingPods(in) })
}

// ReportingPods are the pods whose reloaders may report the configuration they loaded:
// every replica of every shard (PodNames), or, in DaemonSet mode, the DaemonSet's pods
// that exist (Input.DaemonSetPods; their names are random, so the Role follows them and
// names none before the first exists).
func ReportingPods(in Input) ([]string, error) {
	if in.Prometheus.DaemonSetMode() {
		return in.DaemonSetPods, nil
	}
	return PodNames(in.Prometheus)
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
		out = append(out, workload.StatefulSetPods(s, replicas)...)
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
	return workload.NewReloaderRoleBinding(ReloaderRoleName(p), p.Namespace, roleLabels(p), sa)
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
