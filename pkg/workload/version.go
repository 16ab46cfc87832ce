package workload

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/utils/ptr"
)

// minimumVersion is the oldest Prometheus whose flags the builders know.
var minimumVersion = version.MustParseGeneric("2.45.0")

// promVersion is the Prometheus version the flags are generated for: spec.version, or
// DefaultPrometheusVersion.
func promVersion(p *monitoringv1.Prometheus) (*version.Version, error) {
	s := p.Spec.Version
	if s == "" {
		s = DefaultPrometheusVersion
	}
	v, err := version.ParseGeneric(s)
	if err != nil {
		return nil, fmt.Errorf("spec.version %q is not a Prometheus version: %w", s, err)
	}
	if v.LessThan(minimumVersion) {
		return nil, fmt.Errorf("spec.version %q is not supported: Lookout generates flags for Prometheus v%s and later", s, minimumVersion)
	}
	return v, nil
}

// atLeast reports whether v is at least the version written in min ("2.47.0").
func atLeast(v *version.Version, min string) bool {
	return v.AtLeast(version.MustParseGeneric(min))
}

// Image returns the Prometheus image of p the way prometheus-operator resolves it:
// spec.image when set; otherwise the base image (spec.baseImage, deprecated, or the
// operator's default) with spec.sha (deprecated) as digest, or spec.tag (deprecated), or
// spec.version (DefaultPrometheusVersion when empty) as tag.
func Image(p *monitoringv1.Prometheus, opts Options) (string, error) {
	if img := strings.TrimSpace(ptr.Deref(p.Spec.Image, "")); img != "" {
		return img, nil
	}
	base := p.Spec.BaseImage
	if base == "" {
		base = opts.PrometheusBaseImage
	}
	if base == "" {
		return "", fmt.Errorf("no Prometheus image: spec.image is empty and the operator has no default base image")
	}
	if p.Spec.SHA != "" {
		return base + "@sha256:" + strings.TrimPrefix(p.Spec.SHA, "sha256:"), nil
	}
	if p.Spec.Tag != "" {
		return base + ":" + p.Spec.Tag, nil
	}
	v := p.Spec.Version
	if v == "" {
		v = DefaultPrometheusVersion
	}
	return base + ":" + v, nil
}
