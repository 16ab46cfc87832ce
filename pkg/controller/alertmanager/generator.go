package alertmanager

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"gopkg.in/yaml.v3"

	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// ConfigGenerator turns an Alertmanager's inputs into its configuration. It is pure but
// for reading referenced Secrets and ConfigMaps through GenInput.Assets. An error means
// no usable configuration: the controller keeps the last generated Secret and reports
// the error (Reconciled=False, InvalidConfiguration).
type ConfigGenerator interface {
	Generate(ctx context.Context, in GenInput) (GenResult, error)
}

// GenInput is what the controller gives the generator for one Alertmanager.
type GenInput struct {
	// Alertmanager is the object reconciled; generators never modify it.
	Alertmanager *monitoringv1.Alertmanager
	// Base is the user's configuration: the alertmanager.yaml key of the config Secret
	// (spec.configSecret, or alertmanager-<name>). BaseFound is false when the Secret or
	// the key is missing or the value is empty; Base is then nil.
	Base      []byte
	BaseFound bool
	// AlertmanagerConfigs are the AlertmanagerConfig objects spec.alertmanagerConfigSelector
	// and spec.alertmanagerConfigNamespaceSelector select, sorted by namespace and name
	// (none when the selector is nil).
	AlertmanagerConfigs []*monitoringv1alpha1.AlertmanagerConfig
	// Assets reads the Secrets and ConfigMaps the AlertmanagerConfigs reference.
	Assets promcfg.Assets
}

// GenResult is the generated configuration.
type GenResult struct {
	// Config is the content of alertmanager.yaml as Alertmanager will load it.
	Config []byte
	// Verdicts say, for every AlertmanagerConfig given, whether it was used or why not.
	Verdicts []selection.Verdict
	// TLSAssets are files the configuration references under /etc/alertmanager/certs,
	// by file name.
	TLSAssets map[string][]byte
}

// DefaultConfig is prometheus-operator's configuration when the user gives none: every
// alert goes to a receiver that does nothing.
const DefaultConfig = `route:
  receiver: 'null'
receivers:
- name: 'null'
`

// PassThrough is the ConfigGenerator that uses the user's configuration as it is
// (DefaultConfig without one) and ignores AlertmanagerConfigs, as prometheus-operator does
// for an Alertmanager without alertmanagerConfigSelector. It only checks that the
// configuration is a YAML mapping.
type PassThrough struct{}

// Generate implements ConfigGenerator.
func (PassThrough) Generate(_ context.Context, in GenInput) (GenResult, error) {
	cfg := in.Base
	if !in.BaseFound || len(cfg) == 0 {
		cfg = []byte(DefaultConfig)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(cfg, &doc); err != nil {
		return GenResult{}, fmt.Errorf("the configuration in key alertmanager.yaml is not a YAML mapping: %w", err)
	}
	var verdicts []selection.Verdict
	for _, c := range in.AlertmanagerConfigs {
		verdicts = append(verdicts, selection.Verdict{
			Kind: monitoringv1alpha1.AlertmanagerConfigKind, Namespace: c.Namespace, Name: c.Name,
			Reason: selection.InvalidConfiguration, Message: "the operator generates no configuration from AlertmanagerConfigs yet",
		})
	}
	return GenResult{Config: cfg, Verdicts: verdicts}, nil
}
