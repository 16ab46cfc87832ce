// Package rulefiles is the rule-file pipeline the controllers that load PrometheusRules
// share (Prometheus and ThanosRuler): select the PrometheusRules of one owner, validate
// and render each (with namespace-label enforcement), keep serving the last accepted
// version of a rule whose new version is invalid (read back from the live rule
// ConfigMaps), and pack the files into ConfigMaps stably. Writing the ConfigMaps stays
// with each controller, which owns their names and metadata; it reports what it wrote
// with State.Written.
package rulefiles
