package webhook

import (
	"fmt"

	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/lookout-operator/lookout/pkg/rules"
)

// The paths prometheus-operator serves its PrometheusRule webhooks on; Lookout uses the
// same so existing webhook configurations keep working.
const (
	ValidatePath = "/admission-prometheusrules/validate"
	MutatePath   = "/admission-prometheusrules/mutate"
)

// Options tune the webhooks.
type Options struct {
	// PrometheusVersion is the version rules are validated for; empty means
	// versions.DefaultPrometheus. The webhook cannot know which Prometheus will select a rule:
	// each Prometheus controller checks again for its own version and reports in status.
	PrometheusVersion string
	// EnableFeatures are the Prometheus feature flags assumed when validating; nil means
	// rules.AllFeatures, so that no rule valid for some Prometheus is refused.
	EnableFeatures []string
}

// Register adds the validating and mutating PrometheusRule webhooks to srv.
func Register(srv ctrlwebhook.Server, opts Options) error {
	v, err := NewValidator(opts)
	if err != nil {
		return err
	}
	srv.Register(ValidatePath, &admission.Webhook{Handler: v})
	srv.Register(MutatePath, &admission.Webhook{Handler: Mutator{}})
	return nil
}

// NewValidator returns the validating admission handler.
func NewValidator(opts Options) (*Validator, error) {
	features := opts.EnableFeatures
	if features == nil {
		features = rules.AllFeatures
	}
	v, err := rules.NewValidator(rules.Options{Version: opts.PrometheusVersion, EnableFeatures: features})
	if err != nil {
		return nil, fmt.Errorf("setting up the PrometheusRule validating webhook: %w", err)
	}
	return &Validator{rules: v}, nil
}
