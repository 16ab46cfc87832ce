// monitoring.libsonnet: the Lookout mixin as a PrometheusRule the stack's Prometheus
// selects, and its dashboards as ConfigMaps for Grafana's dashboard sidecar.
local json = import '../mixin/lib/json.libsonnet';
local mixinBase = import '../mixin/mixin.libsonnet';
local k = import 'k.libsonnet';

{
  local mixin = mixinBase + { _config+:: $.values.mixin },
  local labels = $.values.common.labels + { 'app.kubernetes.io/name': 'lookout-mixin' },

  mixin: {
    prometheusRule: k.object('monitoring.coreos.com/v1', 'PrometheusRule', 'lookout-rules', $.values.prometheus.namespace,
                             labels + $.values.prometheus.ruleLabels) {
      spec: { groups: mixin.prometheusAlerts.groups + mixin.prometheusRules.groups },
    },
  },

  dashboards: {
    local g = $.values.grafana,
    [std.strReplace(file, '.json', '')]:
      k.object('v1', 'ConfigMap', 'grafana-dashboard-' + std.strReplace(file, '.json', ''), g.namespace,
               labels + { [g.dashboardLabel]: g.dashboardLabelValue }) {
        metadata+: { annotations: { [g.folderAnnotation]: g.folder } },
        data: { [file]: json.manifest(mixin.grafanaDashboards[file]) },
      }
    for file in std.objectFields(mixin.grafanaDashboards)
  },
}
