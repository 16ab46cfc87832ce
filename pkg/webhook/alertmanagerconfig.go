package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	monitoringv1beta1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1beta1"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// The paths prometheus-operator serves the AlertmanagerConfig webhooks on.
const (
	AlertmanagerConfigValidatePath = "/admission-alertmanagerconfigs/validate"
	ConvertPath                    = "/convert"
)

// AlertmanagerConfigValidator is the validating admission handler for AlertmanagerConfigs
// in v1alpha1 and v1beta1. It runs amcfg.Check, the check each Alertmanager controller
// runs again for its own version and Secrets.
type AlertmanagerConfigValidator struct {
	// Assets reads referenced Secrets and ConfigMaps; nil, or answers wrapping
	// amcfg.ErrUnavailable, mean a value cannot be read here: it is not held against
	// the object.
	Assets amcfg.Assets
	// AlertmanagerVersion is the version checked for; empty means versions.DefaultAlertmanager.
	AlertmanagerVersion string
}

var _ admission.Handler = (*AlertmanagerConfigValidator)(nil)

// Handle allows an AlertmanagerConfig that amcfg.Check accepts and denies it otherwise.
// Deletes, and updates that leave the spec as it was, are always allowed. Field paths
// in denials follow the v1alpha1 names (the hub version).
func (v *AlertmanagerConfigValidator) Handle(_ context.Context, req admission.Request) admission.Response {
	if req.Operation != admissionv1.Create && req.Operation != admissionv1.Update {
		return admission.Allowed("")
	}
	if req.Kind.Group != monitoringv1.SchemeGroupVersion.Group || req.Kind.Kind != monitoringv1alpha1.AlertmanagerConfigKind {
		return admission.Errored(http.StatusBadRequest, fmt.Errorf("this webhook handles %s.%s objects, not %s.%s",
			monitoringv1alpha1.AlertmanagerConfigKind, monitoringv1.SchemeGroupVersion.Group, req.Kind.Kind, req.Kind.Group))
	}
	obj, err := decodeAMC(req.Kind.Version, req.Object.Raw)
	if err != nil {
		return deniedKind(req, monitoringv1alpha1.AlertmanagerConfigKind, []cause{{message: "cannot read the AlertmanagerConfig: " + err.Error()}})
	}
	if req.Operation == admissionv1.Update && len(req.OldObject.Raw) > 0 {
		if old, err := decodeAMC(req.Kind.Version, req.OldObject.Raw); err == nil && equality.Semantic.DeepEqual(old.Spec, obj.Spec) {
			return admission.Allowed("spec unchanged")
		}
	}
	if obj.Namespace == "" {
		obj.Namespace = req.Namespace
	}
	am := &monitoringv1.Alertmanager{}
	am.Spec.Version = v.AlertmanagerVersion
	verdict := amcfg.Check(am, obj, v.Assets)
	if verdict.Accepted {
		return admission.Allowed("")
	}
	return deniedKind(req, monitoringv1alpha1.AlertmanagerConfigKind, []cause{{
		field: verdict.Field, message: verdict.Message, text: verdict.Field + ": " + verdict.Message,
	}})
}

// decodeAMC reads an AlertmanagerConfig of either served version as v1alpha1, converting
// v1beta1 with the API module's own conversion.
func decodeAMC(version string, raw []byte) (*monitoringv1alpha1.AlertmanagerConfig, error) {
	switch version {
	case monitoringv1alpha1.Version:
		var obj monitoringv1alpha1.AlertmanagerConfig
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, err
		}
		return &obj, nil
	case monitoringv1beta1.Version:
		var src monitoringv1beta1.AlertmanagerConfig
		if err := json.Unmarshal(raw, &src); err != nil {
			return nil, err
		}
		var dst monitoringv1alpha1.AlertmanagerConfig
		if err := src.ConvertTo(&dst); err != nil {
			return nil, fmt.Errorf("converting to v1alpha1: %w", err)
		}
		return &dst, nil
	}
	return nil, fmt.Errorf("unsupported version %q", version)
}

// ConversionScheme holds the AlertmanagerConfig versions the conversion webhook serves.
func ConversionScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := monitoringv1alpha1.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := monitoringv1beta1.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}

// NewConversionHandler converts AlertmanagerConfigs between v1alpha1 (the hub) and
// v1beta1 with the ConvertTo/ConvertFrom functions of the API module.
func NewConversionHandler() (http.Handler, error) {
	s, err := ConversionScheme()
	if err != nil {
		return nil, err
	}
	return conversion.NewWebhookHandler(s, conversion.NewRegistry()), nil
}

// RegisterAlertmanagerConfig adds the AlertmanagerConfig validating webhook and the
// conversion webhook to srv.
func RegisterAlertmanagerConfig(srv ctrlwebhook.Server, v *AlertmanagerConfigValidator) error {
	h, err := NewConversionHandler()
	if err != nil {
		return fmt.Errorf("setting up the AlertmanagerConfig conversion webhook: %w", err)
	}
	srv.Register(AlertmanagerConfigValidatePath, &admission.Webhook{Handler: v})
	srv.Register(ConvertPath, Limit(h))
	return nil
}
