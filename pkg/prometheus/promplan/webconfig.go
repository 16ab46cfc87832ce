package promplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// WebConfig returns the content of web-config.yaml for p, which the controller stores
// under layout.WebConfigFile in the Secret Instance(p).WebConfigSecret(). The pod
// always mounts that Secret, so the controller writes it even when spec.web is empty (the
// content is then "{}"). The result is checked with Prometheus's own web config parser.
func WebConfig(p *promserver.Server) ([]byte, error) {
	var w *monitoringv1.WebConfigFileFields
	if p.Spec.Web != nil {
		w = &p.Spec.Web.WebConfigFileFields
	}
	return workload.WebConfigFor(w, layout.WebConfigDir, "Prometheus")
}

// webConfigSources are the projections of the web-config volume: the generated file, and
// the TLS certificate, key and client CA spec.web.tlsConfig takes from Secrets or
// ConfigMaps.
func webConfigSources(p *promserver.Server) ([]corev1.VolumeProjection, error) {
	var w *monitoringv1.WebConfigFileFields
	if p.Spec.Web != nil {
		w = &p.Spec.Web.WebConfigFileFields
	}
	return workload.WebConfigSourcesFor(w, Instance(p).WebConfigSecret())
}
