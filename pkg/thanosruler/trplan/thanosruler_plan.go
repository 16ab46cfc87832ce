package trplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/workload"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
)

// ThanosRulerPlanInput is what a ThanosRuler's plan is made of besides the object.
type ThanosRulerPlanInput struct {
	ThanosRuler *monitoringv1.ThanosRuler
	// Rules are the packed rule ConfigMaps' data; RulesWritten, when set, is called once
	// they are written.
	Rules        []map[string]string
	RulesWritten func()
	// RemoteWrite is the remote-write.yaml the pod always mounts, and TLSAssets the TLS
	// files it names.
	RemoteWrite []byte
	TLSAssets   map[string][]byte
	// ManagesRoles: the controller deletes a reloader Role left from before when the
	// reloader needs none (--reloader-report-config, without spec.serviceAccountName).
	ManagesRoles bool
}

// ThanosRulerPlan is every object a ThanosRuler generates: the rule ConfigMaps
// (thanos-ruler-<name>-rulefiles-<n>, at least one, labelled thanos-ruler-name as
// prometheus-operator labels them), the TLS assets Secrets (at least one), the remote-write configuration
// Secret, the web configuration Secret, the governing Service and the StatefulSet.
func ThanosRulerPlan(in ThanosRulerPlanInput, opts workload.Options) (*plan.Plan, error) {
	t := in.ThanosRuler
	opts = ThanosRulerOptions(t, opts)
	names := layout.ThanosRuler(t.Name)
	owner := plan.OwnerRef(monitoringv1.SchemeGroupVersion.String(), monitoringv1.ThanosRulerKind, t.Name, t.UID)
	m := plan.Meta{Namespace: t.Namespace, Owner: owner, Labels: map[string]string{
		layout.ManagedByLabel: layout.ManagedByValue, layout.NameLabel: ThanosRulerNameValue,
		layout.InstanceLabel: t.Name, layout.ThanosRulerNameLabel: t.Name,
	}}
	p := &plan.Plan{Namespace: t.Namespace}

	// thanos-ruler-<name>-rulefiles-0 exists even without rules, as prometheus-operator
	// always writes it.
	rules := in.Rules
	if len(rules) == 0 {
		rules = []map[string]string{{}}
	}
	for i, data := range rules {
		cm := m.ConfigMap(names.RuleConfigMap(i), data)
		cm.GetLabels()[layout.ThanosRulerRuleConfigMapLabel] = t.Name
		p.Data = append(p.Data, cm)
	}
	rulesDone := len(p.Data)
	// The assets first: a configuration is never written ahead of the files it names.
	assets, withFiles, err := m.TLSAssets(names.TLSAssetsSecret, in.TLSAssets)
	if err != nil {
		return nil, err
	}
	p.Data = append(p.Data, assets...)
	p.Data[rulesDone-1].Written = in.RulesWritten
	p.Data = append(p.Data, m.Secret(names.ConfigSecret(), map[string][]byte{layout.ThanosRulerRemoteWriteKey: in.RemoteWrite}))
	web, err := ThanosRulerWebConfig(t)
	if err != nil {
		return nil, err
	}
	p.Data = append(p.Data, m.Secret(names.WebConfigSecret(), map[string][]byte{layout.WebConfigFile: web}))

	if ManagesThanosRulerService(t) {
		p.Service = &plan.Service{Governing: ThanosRulerGoverningService(t),
			Uses: func(o client.Object) bool { return ManagesThanosRulerService(o.(*monitoringv1.ThanosRuler)) }}
	} else {
		p.Service = &plan.Service{Name: ThanosRulerServiceName(t), Check: func(svc *corev1.Service) error { return CheckThanosRulerService(t, svc) }}
	}
	if p.Reloader, err = thanosRulerReloaderRBAC(t, opts, in.ManagesRoles); err != nil {
		return nil, err
	}
	sts, err := ThanosRulerStatefulSet(ThanosRulerInput{ThanosRuler: t, RuleConfigMaps: len(in.Rules), TLSAssetSecrets: withFiles}, opts)
	if err != nil {
		return nil, err
	}
	sts.OwnerReferences = []metav1.OwnerReference{owner}
	p.StatefulSets = []*appsv1.StatefulSet{sts}
	p.Prune = []plan.Numbered{
		{Kind: "ConfigMap", Name: names.RuleConfigMap, Keep: len(rules)},
		{Kind: "Secret", Name: names.TLSAssetsSecret, Keep: max(withFiles, 1)},
	}
	return p, nil
}
