// operator.libsonnet: alerts on the Lookout operator itself.
local alert = import 'alert.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local p = c {
      g: alert.by(c),
      gController: alert.by(c, ['job', 'controller']),
      gObject: alert.by(c, ['namespace', 'name']),
      gInstance: alert.by(c, ['job', 'instance']),
      gDeployment: alert.by(c, ['namespace', 'deployment']),
    },
    groups+: [{
      name: 'lookout-operator',
      rules: [
        alert.new(
          c,
          'LookoutOperatorDown',
          |||
            sum by (%(g)s) (up{%(operatorSelector)s}) == 0
            or
            absent(up{%(operatorSelector)s})
          ||| % p,
          'critical',
          'The Lookout operator is down.',
          'No replica of the Lookout operator has been scraped successfully for 10 minutes: Prometheus, ServiceMonitor and rule changes are not being applied.',
          '10m',
        ),
      ] + (if !c.kubeStateMetrics then [] else [
        // _config.kubeStateMetrics: needs kube_deployment_* from kube-state-metrics.
        alert.new(
          c,
          'LookoutOperatorNotReady',
          |||
            kube_deployment_status_replicas_available{%(kubeStateMetricsSelector)s, %(operatorDeploymentSelector)s}
            <
            on (%(gDeployment)s)
            kube_deployment_spec_replicas{%(kubeStateMetricsSelector)s, %(operatorDeploymentSelector)s}
          ||| % p,
          'warning',
          'Lookout operator replicas are not ready.',
          'Only {{ $value }} replicas of Deployment {{ $labels.namespace }}/{{ $labels.deployment }} have been available for 15 minutes, fewer than it asks for.',
          '15m',
        ),
      ]) + [
        alert.new(
          c,
          'LookoutOperatorNoLeader',
          |||
            count by (%(g)s) (up{%(operatorSelector)s} == 1)
            unless on (%(g)s)
            (max by (%(g)s) (leader_election_master_status{%(operatorSelector)s}) >= 1)
          ||| % p,
          'critical',
          'No Lookout operator replica holds the leader lease.',
          '{{ $value }} Lookout operator replicas are up but none has been the leader for 10 minutes: nothing is being reconciled.',
          '10m',
        ),
        alert.new(
          c,
          'LookoutReconcileErrors',
          |||
            job_controller:controller_runtime_reconcile_errors:ratio_rate5m > %(reconcileErrorRatio)g
          ||| % p,
          'warning',
          'The Lookout {{ $labels.controller }} controller fails to reconcile.',
          '{{ $value | humanizePercentage }} of the reconciles of the {{ $labels.controller }} controller failed over the last 5 minutes.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutPrometheusReconcileFailing',
          |||
            sum by (%(gObject)s, reason) (increase(lookout_reconcile_failures_total{%(operatorSelector)s}[30m])) > 0
          ||| % p,
          'warning',
          'Lookout cannot reconcile Prometheus {{ $labels.namespace }}/{{ $labels.name }}.',
          'Reconciling Prometheus {{ $labels.namespace }}/{{ $labels.name }} has kept failing with reason {{ $labels.reason }} ({{ $value | humanize }} failures in 30 minutes). Its Reconciled condition and events hold the error.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutResourcesRejected',
          |||
            max by (%(gObject)s, kind) (lookout_managed_resources{%(operatorSelector)s, state="rejected"}) > 0
          ||| % p,
          'warning',
          'Prometheus {{ $labels.namespace }}/{{ $labels.name }} rejects {{ $labels.kind }} objects.',
          '{{ $value }} {{ $labels.kind }} objects selected by Prometheus {{ $labels.namespace }}/{{ $labels.name }} are invalid and left out of its configuration. Their status.bindings say why.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutOperatorListWatchErrors',
          |||
            sum by (%(gInstance)s) (rate(rest_client_requests_total{%(operatorSelector)s, method="GET", code=~"<error>|401|403|5.."}[5m]))
            /
            sum by (%(gInstance)s) (rate(rest_client_requests_total{%(operatorSelector)s, method="GET"}[5m]))
            > %(apiReadErrorRatio)g
          ||| % p,
          'warning',
          'The Lookout operator fails to read from the Kubernetes API.',
          '{{ $value | humanizePercentage }} of the list, watch and get requests of {{ $labels.instance }} have failed over the last 5 minutes: its caches may be stale.',
          '15m',
        ),
        alert.new(
          c,
          'LookoutConfigSizeNearLimit',
          |||
            namespace_name:lookout_prometheus_config_bytes:limit_ratio > %(configSizeWarningRatio)g
          ||| % p,
          'warning',
          'The configuration of Prometheus {{ $labels.namespace }}/{{ $labels.name }} approaches the Secret size limit.',
          'The compressed configuration of Prometheus {{ $labels.namespace }}/{{ $labels.name }} uses {{ $value | humanizePercentage }} of the size the operator can store in its Secret; beyond it the operator stops updating the configuration.',
          '15m',
        ),
      ],
    }],
  },
}
