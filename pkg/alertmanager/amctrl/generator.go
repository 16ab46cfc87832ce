package amctrl

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
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
	// Global is the AlertmanagerConfig spec.alertmanagerConfiguration names (in the
	// Alertmanager's namespace), the base of the configuration instead of the Secret's;
	// nil when the field is unset.
	Global *monitoringv1alpha1.AlertmanagerConfig
	// Assets reads the Secrets and ConfigMaps the AlertmanagerConfigs reference.
	Assets promcfg.Assets
	// MaxCompressedBytes is what the gzipped configuration may take in its Secret (0: no
	// bound).
	MaxCompressedBytes int
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
