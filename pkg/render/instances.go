package render

import (
	"context"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amctrl"
	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// AlertmanagerOutput is what the operator would generate for one Alertmanager.
type AlertmanagerOutput struct {
	Alertmanager *monitoringv1.Alertmanager
	// Config is the generated alertmanager.yaml; Extra the config Secret's other keys
	// (nil without a config Secret) and TLSAssets the files the configuration names.
	Config    []byte
	Extra     map[string][]byte
	TLSAssets map[string][]byte
	// Verdicts covers every AlertmanagerConfig the Alertmanager selects.
	Verdicts []selection.Verdict
	// Err means no configuration would be written.
	Err error
}

// ThanosRulerOutput is what the operator would generate for one ThanosRuler.
type ThanosRulerOutput struct {
	ThanosRuler *monitoringv1.ThanosRuler
	// RuleConfigMaps are the data of the packed rule ConfigMaps.
	RuleConfigMaps []map[string]string
	// RemoteWrite is the remote-write configuration the operator writes.
	RemoteWrite *promcfg.RemoteWriteResult
	// Verdicts covers every PrometheusRule considered.
	Verdicts []selection.Verdict
	// Err means nothing would be written.
	Err error
}

// RenderAlertmanagers generates the configuration of each Alertmanager in objs as the
// Alertmanager controller does: the user's config Secret (spec.configSecret or
// alertmanager-<name>) or spec.alertmanagerConfiguration as base, merged with the
// AlertmanagerConfigs it selects by the operator's generator.
func RenderAlertmanagers(objs *Objects, opts Options) ([]AlertmanagerOutput, error) {
	return renderPicked(objs, "Alertmanager", opts.Alertmanager, objs.Alertmanagers, func(a *monitoringv1.Alertmanager, store promcfg.Assets, nsLabels selection.NamespaceLabels) AlertmanagerOutput {
		o := AlertmanagerOutput{Alertmanager: opts.Versions.OfAlertmanager(a)}
		o.Err = o.generate(objs, store, nsLabels)
		return o
	})
}

// renderPicked renders each of items that want picks ("name", "namespace/name" or empty
// for all) with the assets and namespace labels of objs; want naming none of them is the
// error.
func renderPicked[T metav1.Object, O any](objs *Objects, kind, want string, items []T, render func(T, promcfg.Assets, selection.NamespaceLabels) O) ([]O, error) {
	store, nsLabels := assets.NewStatic(objs.Secrets, objs.ConfigMaps), objs.NamespaceLabels()
	var out []O
	for _, it := range items {
		if want == "" || want == it.GetName() || want == it.GetNamespace()+"/"+it.GetName() {
			out = append(out, render(it, store, nsLabels))
		}
	}
	if want != "" && len(out) == 0 {
		return nil, fmt.Errorf("no %s %q in the manifests", kind, want)
	}
	return out, nil
}

func (o *AlertmanagerOutput) generate(objs *Objects, store promcfg.Assets, nsLabels selection.NamespaceLabels) error {
	a := o.Alertmanager
	var base []byte
	if sec := findSecret(objs, a.Namespace, amplan.AlertmanagerConfigSecretName(a)); sec != nil {
		base, o.Extra = amctrl.SplitConfigSecret(sec.Data)
	}
	configs, err := amctrl.SelectConfigs(a, objs.AlertmanagerConfigs, nil, nsLabels)
	if err != nil {
		return err
	}
	var global *monitoringv1alpha1.AlertmanagerConfig
	if ac := a.Spec.AlertmanagerConfiguration; ac != nil && ac.Name != "" {
		for _, c := range objs.AlertmanagerConfigs {
			if c.Namespace == a.Namespace && c.Name == ac.Name {
				global = c
			}
		}
		if global == nil {
			return fmt.Errorf("spec.alertmanagerConfiguration.name: AlertmanagerConfig %s/%s does not exist", a.Namespace, ac.Name)
		}
	}
	budget := write.MaxSecretData - len(layout.AlertmanagerConfigCompressedKey) - plan.DataSize(o.Extra)
	res, err := amctrl.NewGenerated().Generate(context.Background(), amctrl.GenInput{
		Alertmanager: a, Base: base, BaseFound: len(base) > 0, AlertmanagerConfigs: configs, Global: global, Assets: store,
		MaxCompressedBytes: max(budget, 1),
	})
	if err != nil {
		return fmt.Errorf("generating the configuration: %w", err)
	}
	o.Config, o.TLSAssets, o.Verdicts = res.Config, res.TLSAssets, res.Verdicts
	return nil
}

// findSecret returns the Secret namespace/name of objs, or nil.
func findSecret(objs *Objects, namespace, name string) *corev1.Secret {
	for _, s := range objs.Secrets {
		if s.Namespace == namespace && s.Name == name {
			return s
		}
	}
	return nil
}

// AlertmanagerPlan is every object the operator would write for the Alertmanager of o,
// its pods generated with opts (the operator's flags).
func AlertmanagerPlan(o AlertmanagerOutput, opts workload.Options) (*plan.Plan, error) {
	if o.Err != nil {
		return nil, o.Err
	}
	hash, err := write.HashJSON(o.Config)
	if err != nil {
		return nil, err
	}
	var c write.Compressor
	gz, err := c.Compress(hash, o.Config)
	if err != nil {
		return nil, err
	}
	podOpts, _ := amplan.AlertmanagerOptions(o.Alertmanager, opts)
	return amplan.AlertmanagerPlan(amplan.AlertmanagerPlanInput{Alertmanager: o.Alertmanager, ConfigGz: gz, Extra: o.Extra, TLSAssets: o.TLSAssets,
		ManagesRoles: opts.ManagesReloaderRoles()}, podOpts)
}

// RenderThanosRulers generates the rule files and remote-write configuration of each
// ThanosRuler in objs as the ThanosRuler controller does.
func RenderThanosRulers(objs *Objects, opts Options) ([]ThanosRulerOutput, error) {
	return renderPicked(objs, "ThanosRuler", opts.ThanosRuler, objs.ThanosRulers, func(t *monitoringv1.ThanosRuler, store promcfg.Assets, nsLabels selection.NamespaceLabels) ThanosRulerOutput {
		o := ThanosRulerOutput{ThanosRuler: opts.Versions.OfThanosRuler(t)}
		o.Err = o.generate(objs, store, nsLabels)
		return o
	})
}

func (o *ThanosRulerOutput) generate(objs *Objects, store promcfg.Assets, nsLabels selection.NamespaceLabels) error {
	t := o.ThanosRuler
	sel, err := selection.Compile(selection.Selector{Kind: monitoringv1.PrometheusRuleKind, Labels: t.Spec.RuleSelector, Namespaces: t.Spec.RuleNamespaceSelector, OwnNamespace: t.Namespace})
	if err != nil {
		return fmt.Errorf("spec.ruleSelector or spec.ruleNamespaceSelector: %w", err)
	}
	thanosVersion, err := versions.ParseThanos(trplan.ThanosRulerVersion(t))
	if err != nil {
		return fmt.Errorf("spec.version: %w", err)
	}
	// The Secret keys the pod mounts must exist, or the pod cannot start.
	for _, k := range trplan.ThanosRulerSecretKeys(t) {
		if _, err := store.Get(promcfg.AssetRef{Kind: promcfg.SecretAsset, Namespace: t.Namespace, Name: k.Selector.Name, Key: k.Selector.Key}); err != nil {
			return fmt.Errorf("%s: %w", k.Field, err)
		}
	}
	o.RemoteWrite, err = promcfg.RemoteWriteConfig(promcfg.RemoteWriteInput{
		Namespace: t.Namespace, RemoteWrite: t.Spec.RemoteWrite, Version: rules.ThanosEngine(thanosVersion).String(),
		Assets: store, TLSAssetsDir: layout.ThanosRulerTLSAssetsDir,
	})
	if err != nil {
		return err
	}
	verdicts, files, err := prepareRules(rules.ThanosOptionsFor(trplan.ThanosRulerVersion(t)), rules.ThanosEnforcementOf(t), sel, objs.PrometheusRules, nsLabels)
	o.Verdicts = verdicts
	if err != nil {
		return err
	}
	o.RuleConfigMaps, _ = rules.Pack(files, rules.MaxConfigMapDataBytes)
	return nil
}

// ThanosRulerPlan is every object the operator would write for the ThanosRuler of o, its
// pods generated with opts (the operator's flags).
func ThanosRulerPlan(o ThanosRulerOutput, opts workload.Options) (*plan.Plan, error) {
	if o.Err != nil {
		return nil, o.Err
	}
	return trplan.ThanosRulerPlan(trplan.ThanosRulerPlanInput{ThanosRuler: o.ThanosRuler, Rules: o.RuleConfigMaps,
		RemoteWrite: o.RemoteWrite.Config, TLSAssets: o.RemoteWrite.TLSAssets, ManagesRoles: opts.ReloaderReportConfig}, opts)
}
