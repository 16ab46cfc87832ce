// Package versions holds the release numbers of the programs Lookout runs (Prometheus,
// Alertmanager, Thanos): how a spec.version is parsed and compared, the versions an
// object without one runs (Lookout's defaults and prometheus-operator's, selected with
// --default-versions), and the version gates, named features with the first (and, for a
// removed one, the last) release that has them.
//
// Lookout's own build information lives in pkg/buildinfo.
//
// Layout: version.go (Version, Feature), parse.go (the spellings each consumer accepts),
// defaults.go (default versions), prometheus.go, alertmanager.go and thanos.go (the gates
// of each program).
package versions
