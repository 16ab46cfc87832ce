package workload

import (
	"fmt"
	"strings"

	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// ImageSpec are the image fields every workload kind has.
type ImageSpec struct {
	Image                        *string
	BaseImage, SHA, Tag, Version string
}

// ImageFor resolves the image of a kind as prometheus-operator does: spec.image; or the
// base image (spec.baseImage or defBase) as it is when it already has a tag or digest
// (kube-prometheus-stack passes tagged default base images); or the base image with
// spec.sha as digest, or spec.tag, or spec.version (defVersion when empty) as tag.
func ImageFor(kind string, s ImageSpec, defBase, defVersion string) (string, error) {
	if img := strings.TrimSpace(ptr.Deref(s.Image, "")); img != "" {
		return img, nil
	}
	base := s.BaseImage
	if base == "" {
		base = defBase
	}
	if base == "" {
		return "", fmt.Errorf("no %s image: spec.image is empty and the operator has no default base image", kind)
	}
	if imageHasTagOrDigest(base) {
		return base, nil
	}
	if s.SHA != "" {
		return base + "@sha256:" + strings.TrimPrefix(s.SHA, "sha256:"), nil
	}
	if s.Tag != "" {
		return base + ":" + s.Tag, nil
	}
	v := s.Version
	if v == "" {
		v = defVersion
	}
	return base + ":" + v, nil
}

// SpecVersion parses spec.version s of a kind (def when empty); what names the kind's
// versions in the error ("a Prometheus", "an Alertmanager").
func SpecVersion(s, def, what string) (versions.Version, error) {
	if s == "" {
		s = def
	}
	v, err := versions.ParseGeneric(s)
	if err != nil {
		return versions.Version{}, fmt.Errorf("spec.version %q is not %s version: %w", s, what, err)
	}
	return v, nil
}

// Or is s, or def when s is empty.
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
