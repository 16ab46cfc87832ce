package amcfg

import (
	"errors"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// Check is the per-object check Generate runs, for one AlertmanagerConfig on its own with
// the default configuration as base. am may be nil (version versions.DefaultAlertmanager, namespace
// matcher enforced). Values the Assets report as ErrUnavailable are not held against the
// object: a placeholder stands in for them, so an admission webhook that may not read
// Secrets still checks everything else.
func Check(am *monitoringv1.Alertmanager, amc *monitoringv1alpha1.AlertmanagerConfig, assets Assets) Verdict {
	o, err := optionsFor(am)
	if err != nil {
		return Verdict{Reason: ReasonInvalid, Field: "spec.version", Message: err.Error()}
	}
	b, err := loadBase(nil)
	if err != nil {
		return Verdict{Reason: ReasonInvalid, Message: err.Error()}
	}
	if _, p := checkPart(amc, o, lenient{assets}, b, loadConfig); p != nil {
		return p.verdict()
	}
	return Verdict{Accepted: true}
}

// placeholder stands in for unreadable values; it is a valid URL and a valid token.
const placeholder = "https://unavailable.invalid/"

// lenient replaces ErrUnavailable answers (and a nil Assets) with placeholder.
type lenient struct{ a Assets }

func (l lenient) Secret(ns string, sel corev1.SecretKeySelector) (string, error) {
	return l.read(func(a Assets) (string, error) { return a.Secret(ns, sel) })
}

func (l lenient) ConfigMap(ns string, sel corev1.ConfigMapKeySelector) (string, error) {
	return l.read(func(a Assets) (string, error) { return a.ConfigMap(ns, sel) })
}

func (l lenient) read(get func(Assets) (string, error)) (string, error) {
	if l.a == nil {
		return placeholder, nil
	}
	v, err := get(l.a)
	if errors.Is(err, ErrUnavailable) {
		return placeholder, nil
	}
	return v, err
}
