package amcfg

import (
	"errors"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Paths inside the Alertmanager container, the same as prometheus-operator's.
const (
	// TLSAssetsDir is where Result.TLSAssets are mounted.
	TLSAssetsDir = "/etc/alertmanager/certs"
	// TemplatesDir is where notification templates are mounted.
	TemplatesDir = "/etc/alertmanager/templates"
)

// Reasons used in Verdicts.
const (
	ReasonInvalid  = "InvalidConfiguration"
	ReasonNotFound = "ReferenceNotFound"
)

// Input is everything one Alertmanager's configuration is generated from.
type Input struct {
	Alertmanager *monitoringv1.Alertmanager
	// Base is the user's alertmanager.yaml from the config Secret; nil or empty means none.
	Base []byte
	// Global is the AlertmanagerConfig named by spec.alertmanagerConfiguration, nil when
	// unset. When set it replaces Base.
	Global *monitoringv1alpha1.AlertmanagerConfig
	// Configs are the selected AlertmanagerConfigs in any order.
	Configs []*monitoringv1alpha1.AlertmanagerConfig
	Assets  Assets
	// MaxCompressedBytes is what the gzipped configuration may take (what its Secret
	// holds besides the other keys; 0: no bound). AlertmanagerConfigs that would take it
	// past are left out, in order, with a verdict that says so.
	MaxCompressedBytes int
}

// Assets resolves Secret and ConfigMap keys. Implementations wrap ErrNotFound when the
// object or key does not exist and ErrUnavailable when the value cannot be read now.
type Assets interface {
	Secret(namespace string, sel corev1.SecretKeySelector) (string, error)
	ConfigMap(namespace string, sel corev1.ConfigMapKeySelector) (string, error)
}

var (
	// ErrNotFound is wrapped by Assets when a Secret/ConfigMap or its key does not exist.
	ErrNotFound = errors.New("not found")
	// ErrUnavailable is wrapped by Assets when a value could not be read, for instance
	// because the admission webhook is not allowed to read Secrets.
	ErrUnavailable = errors.New("unavailable")
)

// MapAssets is an Assets backed by a map, for tests and the render command. Keys are
// "secret/<namespace>/<name>/<key>" and "configmap/<namespace>/<name>/<key>".
type MapAssets map[string]string

// Secret implements Assets.
func (m MapAssets) Secret(ns string, sel corev1.SecretKeySelector) (string, error) {
	if v, ok := m["secret/"+ns+"/"+sel.Name+"/"+sel.Key]; ok {
		return v, nil
	}
	return "", fmt.Errorf("secret %s/%s key %q: %w", ns, sel.Name, sel.Key, ErrNotFound)
}

// ConfigMap implements Assets.
func (m MapAssets) ConfigMap(ns string, sel corev1.ConfigMapKeySelector) (string, error) {
	if v, ok := m["configmap/"+ns+"/"+sel.Name+"/"+sel.Key]; ok {
		return v, nil
	}
	return "", fmt.Errorf("configmap %s/%s key %q: %w", ns, sel.Name, sel.Key, ErrNotFound)
}

// Verdict says whether one AlertmanagerConfig was used and, if not, why. Reason, Field
// and Message are meant for status conditions and events verbatim.
type Verdict struct {
	Accepted bool
	Reason   string
	Field    string
	Message  string
}

// Result is the generated configuration.
type Result struct {
	// Config is the generated alertmanager.yaml; it has been loaded by Alertmanager's
	// config package.
	Config []byte
	// Verdicts has one entry per input AlertmanagerConfig.
	Verdicts map[types.NamespacedName]Verdict
	// TLSAssets maps file names to contents, mounted under TLSAssetsDir.
	TLSAssets map[string][]byte
}
