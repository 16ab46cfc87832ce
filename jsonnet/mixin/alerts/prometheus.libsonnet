// prometheus.libsonnet: a small set of alerts on the Prometheus servers Lookout runs.
local alert = import 'alert.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local p = c {
      gPod: alert.by(c, ['namespace', 'pod']),
      gAM: alert.by(c, ['namespace', 'pod', 'alertmanager']),
    },
    // _config.prometheusServerAlerts: these repeat the upstream Prometheus mixin.
    groups+: if !c.prometheusServerAlerts then [] else [{
      name: 'lookout-prometheus',
      rules: [
        alert.new(
          c,
          'LookoutPrometheusBadConfig',
          |||
            max by (%(gPod)s) (max_over_time(prometheus_config_last_reload_successful{%(prometheusSelector)s}[5m])) == 0
          ||| % p,
          'critical',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} failed to load its configuration.',
          'The last configuration reload of Prometheus {{ $labels.namespace }}/{{ $labels.pod }} failed; it runs its previous configuration and would not start again.',
          '10m',
        ),
        alert.new(
          c,
          'LookoutPrometheusRuleFailures',
          |||
            sum by (%(gPod)s, rule_group) (increase(prometheus_rule_evaluation_failures_total{%(prometheusSelector)s}[5m])) > 0
          ||| % p,
          'critical',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} fails to evaluate rules.',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} failed {{ $value | humanize }} rule evaluations of group {{ $labels.rule_group }} in 5 minutes: alerts may not fire.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutPrometheusNotConnectedToAlertmanagers',
          |||
            max by (%(gPod)s) (max_over_time(prometheus_notifications_alertmanagers_discovered{%(prometheusSelector)s}[5m])) < 1
          ||| % p,
          'warning',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} knows no Alertmanager.',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} has discovered no Alertmanager for 10 minutes: the alerts it fires go nowhere.',
          '10m',
        ),
        alert.new(
          c,
          'LookoutPrometheusErrorSendingAlerts',
          |||
            sum by (%(gAM)s) (rate(prometheus_notifications_errors_total{%(prometheusSelector)s}[5m]))
            /
            sum by (%(gAM)s) (rate(prometheus_notifications_sent_total{%(prometheusSelector)s}[5m]))
            > %(notificationErrorRatio)g
          ||| % p,
          'warning',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} fails to send alerts to {{ $labels.alertmanager }}.',
          '{{ $value | humanizePercentage }} of the alerts Prometheus {{ $labels.namespace }}/{{ $labels.pod }} sent to {{ $labels.alertmanager }} over the last 5 minutes met errors.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutPrometheusTSDBCompactionsFailing',
          |||
            sum by (%(gPod)s) (increase(prometheus_tsdb_compactions_failed_total{%(prometheusSelector)s}[3h])) > 0
          ||| % p,
          'warning',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} fails to compact its storage.',
          'Prometheus {{ $labels.namespace }}/{{ $labels.pod }} has had {{ $value | humanize }} failed compactions in 3 hours: its disk use and memory grow.',
          '4h',
        ),
      ],
    }],
  },
}
