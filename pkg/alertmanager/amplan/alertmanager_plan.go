package amplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
)

// AlertmanagerPlanInput is what an Alertmanager's plan is made of besides the object.
type AlertmanagerPlanInput struct {
	Alertmanager *monitoringv1.Alertmanager
	// ConfigGz is the generated configuration, gzipped; Extra are the user's config
	// Secret's other keys (templates and the files the configuration names), copied into
	// the generated Secret as prometheus-operator copies them.
	ConfigGz []byte
	Extra    map[string][]byte
	// TLSAssets are the TLS files the configuration names.
	TLSAssets map[string][]byte
	// ManagesRoles: the operator makes the reloader's Roles (API-watch mode, reports of
	// the loaded configuration), so the one of an Alertmanager whose reloader needs none
	// is removed.
	ManagesRoles bool
	// ConfigWritten, when set, is called once the generated configuration Secret is
	// written.
	ConfigWritten func()
}

// AlertmanagerPlan is every object an Alertmanager generates: the TLS assets Secrets
// (alertmanager-<name>-tls-assets-<n>, at least one), the generated configuration Secret,
// the web and cluster TLS configuration Secrets, the governing Service, the reloader's
// RBAC (API-watch mode, reports of the loaded configuration) and the StatefulSet.
func AlertmanagerPlan(in AlertmanagerPlanInput, opts workload.Options) (*plan.Plan, error) {
	a := in.Alertmanager
	owner := plan.OwnerRef(monitoringv1.SchemeGroupVersion.String(), monitoringv1.AlertmanagersKind, a.Name, a.UID)
	m := plan.Meta{Namespace: a.Namespace, Owner: owner, Labels: map[string]string{
		layout.ManagedByLabel: layout.ManagedByValue, layout.NameLabel: AlertmanagerNameValue,
		layout.InstanceLabel: a.Name, layout.AlertmanagerNameLabel: a.Name,
	}}
	p := &plan.Plan{Namespace: a.Namespace}

	tlsName := func(i int) string { return layout.Alertmanager(a.Name).TLSAssetsSecret(i) }
	assets, withFiles, err := m.TLSAssets(tlsName, in.TLSAssets)
	if err != nil {
		return nil, err
	}
	// The pod mounts tls-assets-0 even when it is empty.
	tlsSecrets := max(withFiles, 1)
	p.Data = append(p.Data, assets...)

	data := make(map[string][]byte, len(in.Extra)+1)
	for k, v := range in.Extra {
		data[k] = v
	}
	data[layout.AlertmanagerConfigCompressedKey] = in.ConfigGz
	if size := plan.DataSize(data); size > plan.MaxSecretData {
		return nil, fmt.Errorf("the generated configuration Secret would hold %d bytes, more than the %d bytes a Secret can hold", size, plan.MaxSecretData)
	}
	config := m.Secret(layout.Alertmanager(a.Name).GeneratedSecret(), data)
	config.Written = in.ConfigWritten
	p.Data = append(p.Data, config)

	web, err := AlertmanagerWebConfig(a)
	if err != nil {
		return nil, err
	}
	p.Data = append(p.Data, m.Secret(layout.Alertmanager(a.Name).WebConfigSecret(), map[string][]byte{layout.WebConfigFile: web}))
	// Written empty without spec.clusterTLS, as prometheus-operator always writes it;
	// only a pod with spec.clusterTLS mounts it.
	cluster, err := AlertmanagerClusterTLSConfig(a)
	if err != nil {
		return nil, err
	}
	p.Data = append(p.Data, m.Secret(layout.Alertmanager(a.Name).ClusterTLSSecret(), map[string][]byte{layout.AlertmanagerClusterTLSFile: cluster}))

	if ManagesAlertmanagerService(a) {
		p.Service = &plan.Service{Governing: AlertmanagerGoverningService(a),
			Uses: func(o client.Object) bool { return ManagesAlertmanagerService(o.(*monitoringv1.Alertmanager)) }}
	} else {
		p.Service = &plan.Service{Name: AlertmanagerServiceName(a), Check: func(svc *corev1.Service) error { return CheckAlertmanagerService(a, svc) }}
	}
	role, err := AlertmanagerReloaderRoleFor(a, opts)
	if err != nil {
		return nil, err
	}
	p.Reloader = plan.ReloaderRBAC(AlertmanagerReloaderRoleName(a), role, AlertmanagerReloaderRoleBinding(a), in.ManagesRoles)

	sts, err := AlertmanagerStatefulSet(AlertmanagerInput{Alertmanager: a, TLSAssetSecrets: tlsSecrets}, opts)
	if err != nil {
		return nil, err
	}
	sts.OwnerReferences = []metav1.OwnerReference{owner}
	p.StatefulSets = []*appsv1.StatefulSet{sts}
	p.Prune = []plan.Numbered{{Kind: "Secret", Name: tlsName, Keep: tlsSecrets}}
	return p, nil
}
