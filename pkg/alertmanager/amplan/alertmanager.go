package amplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// AlertmanagerContainerName is the name of the Alertmanager container (users patch it by
// name through spec.containers).
const AlertmanagerContainerName = "alertmanager"

// AlertmanagerNameValue is the value of app.kubernetes.io/name on the Alertmanager pods.
const AlertmanagerNameValue = "alertmanager"

const (
	// defaultAlertmanagerRetention is prometheus-operator's spec.retention default.
	defaultAlertmanagerRetention = "120h"
	// alertmanagerGracePeriod is prometheus-operator's termination grace period.
	alertmanagerGracePeriod = 120
	// alertmanagerStorageSubPath is the sub-directory of the data volume.
	alertmanagerStorageSubPath = "alertmanager-db"
	// Volume and port names, as prometheus-operator names them.
	amConfigVolume     = "config-volume"
	amTemplatesVolume  = "notification-templates"
	amClusterTLSVolume = "cluster-tls-config"
	meshTCPPortName    = "mesh-tcp"
	meshUDPPortName    = "mesh-udp"
	// operatedAlertmanagerLabel marks the governing Service, as prometheus-operator does.
	operatedAlertmanagerLabel = "operated-alertmanager"
	// podIPEnv is the pod's IP, for --cluster.listen-address.
	podIPEnv = "POD_IP"
)

// AlertmanagerInput is what the controller hands the Alertmanager builders.
type AlertmanagerInput struct {
	// Alertmanager is the object reconciled; the builders never modify it.
	Alertmanager *monitoringv1.Alertmanager
	// TLSAssetSecrets is how many TLS assets Secrets the controller wrote, named
	// layout.Alertmanager(name).TLSAssetsSecret(0..TLSAssetSecrets-1).
	TLSAssetSecrets int
}

// alertmanagerSelectorLabels are the labels of the StatefulSet selector: exactly
// prometheus-operator's, so either operator takes over the other's StatefulSet in place
// (ADR 0008). The selector is immutable: never change this set.
func alertmanagerSelectorLabels(name string) map[string]string {
	return map[string]string{
		layout.NameLabel:             AlertmanagerNameValue,
		layout.ManagedByLabel:        layout.ManagedByValue,
		layout.InstanceLabel:         name,
		layout.AlertmanagerNameLabel: name,
	}
}

// AlertmanagerSelector is the label selector of a's pods, as reported in status.selector
// for the scale subresource.
func AlertmanagerSelector(a *monitoringv1.Alertmanager) string {
	return labels.SelectorFromSet(alertmanagerSelectorLabels(a.Name)).String()
}

// AlertmanagerServiceName is the governing Service of a's StatefulSet:
// spec.serviceName or alertmanager-operated.
func AlertmanagerServiceName(a *monitoringv1.Alertmanager) string {
	return workload.GoverningServiceName(a.Spec.ServiceName, layout.AlertmanagerGoverningServiceName)
}

// ManagesAlertmanagerService reports whether the controller creates
// alertmanager-operated for a; when spec.serviceName is set the user provides the Service.
func ManagesAlertmanagerService(a *monitoringv1.Alertmanager) bool {
	return workload.ManagesService(a.Spec.ServiceName)
}

// AlertmanagerConfigSecretName is the user's config Secret of a: spec.configSecret, or
// alertmanager-<name>.
func AlertmanagerConfigSecretName(a *monitoringv1.Alertmanager) string {
	if a.Spec.ConfigSecret != "" {
		return a.Spec.ConfigSecret
	}
	return layout.Alertmanager(a.Name).ConfigSecret()
}

// AlertmanagerReplicas is spec.replicas, 1 when unset.
func AlertmanagerReplicas(a *monitoringv1.Alertmanager) (int32, error) {
	r := ptr.Deref(a.Spec.Replicas, 1)
	if r < 0 {
		return 0, fmt.Errorf("spec.replicas must not be negative, got %d", r)
	}
	return r, nil
}

// amPortName is the name of the web port of the container and the Service.
func amPortName(a *monitoringv1.Alertmanager) string {
	if a.Spec.PortName != "" {
		return a.Spec.PortName
	}
	return workload.DefaultPortName
}

// amRoutePrefix is the path Alertmanager serves under: spec.routePrefix or "/".
func amRoutePrefix(a *monitoringv1.Alertmanager) string {
	if a.Spec.RoutePrefix != "" {
		return a.Spec.RoutePrefix
	}
	return "/"
}

// amVersion is the Alertmanager version the flags are generated for: spec.version or
// versions.DefaultAlertmanager.
func amVersion(a *monitoringv1.Alertmanager) (versions.Version, error) {
	v, err := workload.SpecVersion(a.Spec.Version, versions.DefaultAlertmanager, "an Alertmanager")
	if err != nil {
		return versions.Version{}, err
	}
	if v.Less(versions.MinimumAlertmanager) || v.Major > 0 {
		return versions.Version{}, fmt.Errorf("spec.version %q is not supported: Lookout generates flags for Alertmanager v%s to v0.x", workload.Or(a.Spec.Version, versions.DefaultAlertmanager), versions.MinimumAlertmanager)
	}
	return v, nil
}

// amWebTLS reports whether Alertmanager v serves HTTPS.
func amWebTLS(a *monitoringv1.Alertmanager, v versions.Version) bool {
	return a.Spec.Web != nil && a.Spec.Web.TLSConfig != nil && v.Supports(versions.AMWebConfig)
}

// amWebFields is spec.web's web config file part (nil when unset).
func amWebFields(a *monitoringv1.Alertmanager) *monitoringv1.WebConfigFileFields {
	if a.Spec.Web == nil {
		return nil
	}
	return &a.Spec.Web.WebConfigFileFields
}

// AlertmanagerImage resolves a's image as prometheus-operator does (see Image).
func AlertmanagerImage(a *monitoringv1.Alertmanager, opts workload.Options) (string, error) {
	s := &a.Spec
	return workload.ImageFor("Alertmanager", workload.ImageSpec{Image: s.Image, BaseImage: s.BaseImage, SHA: s.SHA, Tag: s.Tag, Version: s.Version}, opts.AlertmanagerBaseImage, versions.DefaultAlertmanager)
}

// AlertmanagerWebConfig is the content of web-config.yaml for a, which the controller
// stores under layout.WebConfigFile in layout.Alertmanager(a.Name).WebConfigSecret();
// checked with the exporter-toolkit parser Alertmanager uses.
func AlertmanagerWebConfig(a *monitoringv1.Alertmanager) ([]byte, error) {
	return workload.WebConfigFor(amWebFields(a), layout.AlertmanagerWebConfigDir, "Alertmanager")
}
