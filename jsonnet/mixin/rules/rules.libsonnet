// rules.libsonnet: recording rules the alerts and the operator dashboard use.
local alert = import '../alerts/alert.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    local p = c {
      gController: alert.by(c, ['job', 'controller']),
      gControllerLe: alert.by(c, ['job', 'controller', 'le']),
      gObject: alert.by(c, ['namespace', 'name']),
    },
    groups+: [{
      name: 'lookout-operator.rules',
      rules: [
        {
          record: 'job_controller:controller_runtime_reconcile_errors:ratio_rate5m',
          expr: |||
            sum by (%(gController)s) (rate(controller_runtime_reconcile_errors_total{%(operatorSelector)s}[5m]))
            /
            sum by (%(gController)s) (rate(controller_runtime_reconcile_total{%(operatorSelector)s}[5m]))
          ||| % p,
        },
        {
          record: 'job_controller:controller_runtime_reconcile_time_seconds:p99_rate5m',
          expr: |||
            histogram_quantile(0.99, sum by (%(gControllerLe)s) (rate(controller_runtime_reconcile_time_seconds_bucket{%(operatorSelector)s}[5m])))
          ||| % p,
        },
        {
          record: 'namespace_name:lookout_prometheus_config_bytes:limit_ratio',
          expr: |||
            max by (%(gObject)s) (lookout_prometheus_config_bytes{%(operatorSelector)s, encoding="gzip"}) / %(configSizeLimitBytes)d
          ||| % p,
        },
      ],
    }],
  },
}
