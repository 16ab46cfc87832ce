// reloader.libsonnet: alerts on the config-reloader sidecars of the Prometheus pods.
local alert = import 'alert.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local p = c {
      g: alert.by(c),
      gPod: alert.by(c, ['namespace', 'pod']),
      gHash: alert.by(c, ['hash']),
    },
    groups+: [{
      name: 'lookout-config-reloader',
      rules: [
        alert.new(
          c,
          'LookoutConfigReloadFailing',
          |||
            max by (%(gPod)s) (max_over_time(reloader_last_reload_successful{%(reloaderSelector)s}[5m])) == 0
          ||| % p,
          'warning',
          'Prometheus pod {{ $labels.namespace }}/{{ $labels.pod }} does not take its new configuration.',
          'Every reload the config-reloader of {{ $labels.namespace }}/{{ $labels.pod }} attempted in the last 15 minutes failed: Prometheus keeps running with its previous configuration and rules.',
          '10m',
        ),
        // The operator and the reloader report the SHA-256 of the same uncompressed
        // configuration; a reloader whose hash matches no configuration the operator
        // generated runs an old one. Only evaluated while the operator reports hashes.
        alert.new(
          c,
          'LookoutConfigOutOfDate',
          |||
            max by (%(gPod)s, hash) (reloader_config_info{%(reloaderSelector)s})
            unless on (%(gHash)s)
            lookout_prometheus_config_info{%(operatorSelector)s}
            and on (%(g)s)
            (count by (%(g)s) (lookout_prometheus_config_info{%(operatorSelector)s}) > 0)
          ||| % p,
          'warning',
          'Prometheus pod {{ $labels.namespace }}/{{ $labels.pod }} runs an out-of-date configuration.',
          'The configuration Prometheus pod {{ $labels.namespace }}/{{ $labels.pod }} last loaded (hash {{ $labels.hash }}) has not matched the one the operator generated for %(configOutOfDateFor)s.' % c,
          c.configOutOfDateFor,
        ),
        alert.new(
          c,
          'LookoutConfigReloaderWatchErrors',
          |||
            sum by (%(gPod)s) (increase(reloader_api_errors_total{%(reloaderSelector)s}[10m])) > 0
            or
            sum by (%(gPod)s) (increase(reloader_watch_errors_total{%(reloaderSelector)s}[10m])) > 0
          ||| % p,
          'warning',
          'The config-reloader of {{ $labels.namespace }}/{{ $labels.pod }} fails to watch its inputs.',
          'The config-reloader of {{ $labels.namespace }}/{{ $labels.pod }} has met {{ $value | humanize }} errors watching its files or API objects in 10 minutes: configuration changes may reach Prometheus late or not at all.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutConfigUnsetVariables',
          |||
            sum by (%(gPod)s) (increase(reloader_unset_env_vars_total{%(reloaderSelector)s}[10m])) > 0
          ||| % p,
          'info',
          'The configuration of {{ $labels.namespace }}/{{ $labels.pod }} refers to unset variables.',
          'The config-reloader of {{ $labels.namespace }}/{{ $labels.pod }} left $(VAR) references unexpanded because the variables are not set in its environment.',
        ),
      ],
    }],
  },
}
