// The Lookout monitoring mixin: alerts, recording rules and Grafana dashboards for the
// operator, its config-reloader sidecars, and the Prometheus servers and Alertmanagers it
// runs.
//
//   local mixin = (import 'mixin/mixin.libsonnet') + { _config+:: { showMultiCluster: true } };
//   mixin.prometheusAlerts   // {groups: [...]}, a Prometheus rule file
//   mixin.prometheusRules    // {groups: [...]}
//   mixin.grafanaDashboards  // {'<file>.json': dashboard}
(import 'config.libsonnet') +
(import 'alerts/alerts.libsonnet') +
(import 'rules/rules.libsonnet') +
(import 'dashboards/dashboards.libsonnet')
