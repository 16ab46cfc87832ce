package operator

import "github.com/lookout-operator/lookout/pkg/workload"

// The versions prometheus-operator v0.93 runs when an object gives none
// (pkg/operator/defaults.go there: DefaultPrometheusVersion, the last entry of its
// compatibility matrix, DefaultAlertmanagerVersion, DefaultThanosVersion).
const (
	UpstreamPrometheusVersion   = "v3.13.1"
	UpstreamAlertmanagerVersion = "v0.33.1"
	UpstreamThanosVersion       = "v0.42.2"
)

// The values of --default-versions.
const (
	// DefaultVersionsUpstream runs prometheus-operator v0.93's versions, so that an
	// object without a version keeps its image when Lookout replaces prometheus-operator.
	DefaultVersionsUpstream = "upstream"
	// DefaultVersionsLookout runs the newer versions Lookout is tested with
	// (pkg/workload's defaults).
	DefaultVersionsLookout = "lookout"
)

// DefaultVersionsFor are the versions --default-versions=which selects.
func DefaultVersionsFor(which string) workload.Versions {
	if which == DefaultVersionsLookout {
		return workload.Versions{}
	}
	return workload.Versions{Prometheus: UpstreamPrometheusVersion, Alertmanager: UpstreamAlertmanagerVersion, Thanos: UpstreamThanosVersion}
}
