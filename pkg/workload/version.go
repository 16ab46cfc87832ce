package workload

import (
	"fmt"
	"strings"

	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// promVersion is the Prometheus version the flags are generated for: spec.version, or
// versions.DefaultPrometheus.
func promVersion(p *promserver.Server) (versions.Version, error) {
	s := p.Spec.Version
	if s == "" {
		s = versions.DefaultPrometheus
	}
	v, err := versions.ParseGeneric(s)
	if err != nil {
		return versions.Version{}, fmt.Errorf("spec.version %q is not a Prometheus version: %w", s, err)
	}
	if v.Less(versions.MinimumPrometheus) {
		return versions.Version{}, fmt.Errorf("spec.version %q is not supported: Lookout generates flags for Prometheus v%s and later", s, versions.MinimumPrometheus)
	}
	return v, nil
}

// Image returns the Prometheus image of p the way prometheus-operator resolves it:
// spec.image when set; otherwise the base image (spec.baseImage, deprecated, or the
// operator's default) with spec.sha (deprecated) as digest, or spec.tag (deprecated), or
// spec.version (versions.DefaultPrometheus when empty) as tag.
func Image(p *promserver.Server, opts Options) (string, error) {
	s := p.Spec
	return imageFor("Prometheus", imageSpec{s.Image, p.PrometheusOnly().BaseImage, p.PrometheusOnly().SHA, p.PrometheusOnly().Tag, s.Version}, opts.PrometheusBaseImage, versions.DefaultPrometheus)
}

// imageSpec are the image fields every workload kind has.
type imageSpec struct {
	image                        *string
	baseImage, sha, tag, version string
}

// imageFor resolves the image of a kind as prometheus-operator does: spec.image; or the
// base image (spec.baseImage or defBase) as it is when it already has a tag or digest
// (kube-prometheus-stack passes tagged default base images); or the base image with
// spec.sha as digest, or spec.tag, or spec.version (defVersion when empty) as tag.
func imageFor(kind string, s imageSpec, defBase, defVersion string) (string, error) {
	if img := strings.TrimSpace(ptr.Deref(s.image, "")); img != "" {
		return img, nil
	}
	base := s.baseImage
	if base == "" {
		base = defBase
	}
	if base == "" {
		return "", fmt.Errorf("no %s image: spec.image is empty and the operator has no default base image", kind)
	}
	if imageHasTagOrDigest(base) {
		return base, nil
	}
	if s.sha != "" {
		return base + "@sha256:" + strings.TrimPrefix(s.sha, "sha256:"), nil
	}
	if s.tag != "" {
		return base + ":" + s.tag, nil
	}
	v := s.version
	if v == "" {
		v = defVersion
	}
	return base + ":" + v, nil
}
