package promplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// promVersion is the Prometheus version the flags are generated for: spec.version, or
// versions.DefaultPrometheus.
func promVersion(p *promserver.Server) (versions.Version, error) {
	v, err := workload.SpecVersion(p.Spec.Version, versions.DefaultPrometheus, "a Prometheus")
	if err != nil {
		return versions.Version{}, err
	}
	if v.Less(versions.MinimumPrometheus) {
		return versions.Version{}, fmt.Errorf("spec.version %q is not supported: Lookout generates flags for Prometheus v%s and later", workload.Or(p.Spec.Version, versions.DefaultPrometheus), versions.MinimumPrometheus)
	}
	return v, nil
}

// Image returns the Prometheus image of p the way prometheus-operator resolves it:
// spec.image when set; otherwise the base image (spec.baseImage, deprecated, or the
// operator's default) with spec.sha (deprecated) as digest, or spec.tag (deprecated), or
// spec.version (versions.DefaultPrometheus when empty) as tag.
func Image(p *promserver.Server, opts workload.Options) (string, error) {
	s := p.Spec
	return workload.ImageFor("Prometheus", workload.ImageSpec{Image: s.Image, BaseImage: p.PrometheusOnly().BaseImage, SHA: p.PrometheusOnly().SHA, Tag: p.PrometheusOnly().Tag, Version: s.Version}, opts.PrometheusBaseImage, versions.DefaultPrometheus)
}
