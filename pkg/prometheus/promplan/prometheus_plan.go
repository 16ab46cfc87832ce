package promplan

import (
	"fmt"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// PlanInput is what the plan of a Prometheus or PrometheusAgent is made of besides the
// object (Prometheus of the embedded Input; its counts are filled in by the plan).
type PlanInput struct {
	Input
	// TLSAssets are the TLS files the configuration names.
	TLSAssets map[string][]byte
	// Config are the gzipped parts of the configuration (part 0 goes to the config
	// Secret, part n to the config part Secret n) and ConfigHashes the input hash of each.
	// ConfigUnmanaged: Config holds one empty part, created only when the config Secret is
	// missing (its content is the user's).
	// ConfigWritten, when set, is called once the config Secret is written.
	Config          [][]byte
	ConfigHashes    []string
	ConfigUnmanaged bool
	ConfigWritten   func()
	// Rules are the packed rule ConfigMaps' data (a Prometheus only); RulesWritten, when
	// set, is called once they are written.
	Rules        []map[string]string
	RulesWritten func()
	// ManagesRoles: the operator makes the reloader's Roles (API-watch or report mode), so
	// the one of an instance whose reloader does without is removed.
	ManagesRoles bool
}

// PrometheusPlan is every object a Prometheus or PrometheusAgent generates: the TLS
// assets Secrets (at least one), the configuration Secrets (the parts before the config
// Secret, so that a reloader seeing a new config Secret finds its parts written), the web
// configuration Secret, for a Prometheus the Thanos sidecar's HTTP client Secret and the
// rule ConfigMaps (rulefiles-0 even when empty, as prometheus-operator writes it), the
// governing Service, the reloader's RBAC, and the StatefulSet of each shard (or the
// DaemonSet of an agent in DaemonSet mode).
func PrometheusPlan(in PlanInput, opts workload.Options) (*plan.Plan, error) {
	p := in.Prometheus
	owner := ownerRef(p)
	m := plan.Meta{Namespace: p.Namespace, Owner: owner, Labels: map[string]string{
		layout.ManagedByLabel: layout.ManagedByValue, layout.LegacyManagedByLabel: layout.ManagedByValue, layout.NameLabel: NameValue(p),
		layout.InstanceLabel: p.Name, layout.OperatorNameLabel: p.Name,
	}}
	names := Instance(p)
	pl := &plan.Plan{Namespace: p.Namespace}

	assets, withFiles, err := m.TLSAssets(names.TLSAssetsSecret, in.TLSAssets)
	if err != nil {
		return nil, err
	}
	// The pods mount only the Secrets that hold files.
	in.TLSAssetSecrets = withFiles
	pl.Data = append(pl.Data, assets...)
	in.ConfigParts = len(in.Config)
	if in.ConfigParts > 1 && workload.UpstreamReloaderImage(opts.ConfigReloaderImage) {
		return nil, fmt.Errorf("the configuration takes %d Secrets (compressed, it is more than one Secret holds), which the config-reloader image %q cannot read: prometheus-operator's reloader has no --config-part-file and would crash-loop; run Lookout's config-reloader (--prometheus-config-reloader=%s) or select fewer monitors", in.ConfigParts, opts.ConfigReloaderImage, workload.DefaultOptions().ConfigReloaderImage)
	}
	for n := len(in.Config) - 1; n >= 0; n-- {
		o := m.SecretHashed(names.ConfigPartSecret(n), in.ConfigHashes[n], map[string][]byte{layout.ConfigCompressedKey: in.Config[n]})
		if in.ConfigUnmanaged {
			o.Write = plan.CreateOnly
		}
		if n == 0 {
			o.Written = in.ConfigWritten
		}
		pl.Data = append(pl.Data, o)
	}
	web, err := WebConfig(p)
	if err != nil {
		return nil, err
	}
	pl.Data = append(pl.Data, m.Secret(names.WebConfigSecret(), map[string][]byte{layout.WebConfigFile: web}))
	if !p.IsAgent() {
		// Written for every Prometheus, as prometheus-operator writes it, whether its pods
		// mount it or not; one of that name someone else owns is a conflict only when they do.
		o := m.Secret(ThanosHTTPClientSecretName(p), map[string][]byte{ThanosHTTPClientFile: ThanosHTTPClientConfig()})
		if !NeedsThanosHTTPClientSecret(p) {
			o.Write = plan.UnlessForeign
		}
		pl.Data = append(pl.Data, o)
		in.RuleConfigMaps = len(in.Rules)
		rules := in.Rules
		if len(rules) == 0 {
			rules = []map[string]string{{}}
		}
		for i, data := range rules {
			pl.Data = append(pl.Data, m.ConfigMap(layout.Prometheus(p.Name).RuleConfigMap(i), data))
		}
		pl.Data[len(pl.Data)-1].Written = in.RulesWritten
	}

	if err := prometheusWorkload(pl, in, opts, owner); err != nil {
		return nil, err
	}
	pl.Prune = []plan.Numbered{
		{Kind: "ConfigMap", Name: names.RuleConfigMap, Keep: max(in.RuleConfigMaps, 1)},
		{Kind: "Secret", Name: names.TLSAssetsSecret, Keep: max(in.TLSAssetSecrets, 1)},
		{Kind: "Secret", Name: func(n int) string { return names.ConfigPartSecret(n + 1) }, Keep: in.ConfigParts - 1},
	}
	return pl, nil
}

// prometheusWorkload adds the governing Service, the reloader's RBAC and the pods.
func prometheusWorkload(pl *plan.Plan, in PlanInput, opts workload.Options, owner metav1.OwnerReference) error {
	p := in.Prometheus
	switch {
	case p.DaemonSetMode():
		// No StatefulSet, so no governing Service: the agents are reached per pod.
		ds, err := DaemonSet(in.Input, opts)
		if err != nil {
			return err
		}
		ds.OwnerReferences = []metav1.OwnerReference{owner}
		pl.DaemonSet = ds
	case ManagesGoverningService(p):
		pl.Service = &plan.Service{Governing: GoverningService(p),
			Uses: func(o client.Object) bool { return ManagesGoverningService(o.(*promserver.Server)) },
			Adjust: func(o client.Object, svc *corev1.Service) {
				if o.(*promserver.Server).PrometheusOnly().Thanos != nil {
					AddThanosGRPCPort(svc)
				}
			}}
	default:
		pl.Service = &plan.Service{Name: ServiceName(p), Check: func(svc *corev1.Service) error { return CheckGoverningService(p, svc) }}
	}
	if !p.DaemonSetMode() {
		sets, skipped, err := StatefulSets(in.Input, opts)
		if err != nil {
			return err
		}
		if len(skipped) > 0 {
			pl.Warnings = append(pl.Warnings, fmt.Sprintf("the StatefulSets %s are not created: their names are longer than %d characters, so their pods would fail on the controller-revision-hash label (prometheus-operator creates them and their pods never start); the other %d shards run. Use a shorter name or fewer shards",
				strings.Join(skipped, ", "), workload.MaxStatefulSetName, len(sets)))
		}
		for _, s := range sets {
			s.OwnerReferences = []metav1.OwnerReference{owner}
		}
		pl.StatefulSets = sets
	}
	role, err := ReloaderRoleFor(in.Input, opts)
	if err != nil {
		return err
	}
	pl.Reloader = plan.ReloaderRBAC(ReloaderRoleName(p), role, ReloaderRoleBinding(p), in.ManagesRoles)
	return nil
}

// ownerRef makes p (a Prometheus or a PrometheusAgent) the controlling
// owner of what it generates.
func ownerRef(p *promserver.Server) metav1.OwnerReference {
	return plan.OwnerRef(p.APIVersion(), p.Kind(), p.Name, p.UID)
}
