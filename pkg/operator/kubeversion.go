package operator

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// podZoneLabelsSince is the first Kubernetes release whose API server labels a pod, when
// it is bound, with its node's topology.kubernetes.io/zone (PodTopologyLabelsAdmission,
// on by default): topology sharding then reads the zone from the pod, as
// prometheus-operator decides.
var podZoneLabelsSince = version.MustParseSemantic("1.35.0")

// podZoneLabels reports whether the API server at cfg labels bound pods with their zone.
func podZoneLabels(cfg *rest.Config) (bool, string, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return false, "", fmt.Errorf("creating the discovery client: %w", err)
	}
	info, err := dc.ServerVersion()
	if err != nil {
		return false, "", fmt.Errorf("reading the Kubernetes version: %w", err)
	}
	ok, err := LabelsPodZones(info.GitVersion)
	return ok, info.GitVersion, err
}

// LabelsPodZones reports whether Kubernetes release gitVersion (v1.35.0, v1.36.1+k3s1)
// labels bound pods with their zone.
func LabelsPodZones(gitVersion string) (bool, error) {
	v, err := version.ParseSemantic(gitVersion)
	if err != nil {
		if v, err = version.ParseGeneric(gitVersion); err != nil {
			return false, fmt.Errorf("the Kubernetes version %q: %w", gitVersion, err)
		}
	}
	return v.AtLeast(podZoneLabelsSince), nil
}
