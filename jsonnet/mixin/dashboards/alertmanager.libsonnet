// alertmanager.libsonnet: the Alertmanagers the operator runs and their config-reloaders.
local d = import '../lib/dashboard.libsonnet';
local common = import 'common.libsonnet';

{
  grafanaDashboards+:: {
    local c = $._config,
    local base = '%s, %s' % [c.alertmanagerSelector, common.clusterMatcher(c)],
    local pods = ', namespace=~"$namespace", job=~"$job", pod=~"$pod"',
    local sel = base + pods,
    local reloader = '%s, %s' % [c.alertmanagerReloaderSelector, common.clusterMatcher(c)] + pods,
    local q(s) = std.strReplace(std.strReplace(s, '{S', '{' + sel), '{R', '{' + reloader),
    local ts = d.panel.timeseries,
    local t(expr, legend='') = d.target(q(expr), legend),
    local byPod = '{{namespace}}/{{pod}}',
    local cluster = std.join(', ', c.alertmanagerClusterLabels),

    'lookout-alertmanager.json': common.dashboard(
      c,
      'alertmanager',
      'Alertmanager',
      'The Alertmanagers Lookout runs: alerts received, notifications by integration, their failures and latency, cluster membership, configuration reloads and the config-reloader sidecars.',
      common.variables(c, 'alertmanager_build_info{%s}' % c.alertmanagerSelector) + [
        d.variable.query('namespace', 'Namespace', 'alertmanager_build_info{%s}' % base, 'namespace', includeAll=true, multi=true),
        d.variable.query('job', 'Job', 'alertmanager_build_info{%s, namespace=~"$namespace"}' % base, 'job', includeAll=true, multi=true),
        d.variable.query('pod', 'Pod', 'alertmanager_build_info{%s, namespace=~"$namespace", job=~"$job"}' % base, 'pod', includeAll=true, multi=true),
      ],
      [
        d.row('Overview', [
          d.panel.stat('Replicas up', 'short', [t('sum(up{S})')], 'Alertmanager replicas scraped successfully.',
                       thresholds=d.thresholds('red', [[1, 'green']])),
          d.panel.stat('Configuration loaded', 'none', [t('min(alertmanager_config_last_reload_successful{S})')],
                       'Whether every replica loaded its last configuration.',
                       thresholds=d.thresholds('red', [[1, 'green']]), mappings=[[0, 'failed', 'red'], [1, 'ok', 'green']]),
          d.panel.stat('Configurations per Alertmanager', 'short', [t('max(count by (%s) (count_values by (%s) ("config_hash", alertmanager_config_hash{S})))' % [cluster, cluster])],
                       'Distinct configurations the replicas of one Alertmanager run, at most; more than one only while a change rolls out.',
                       thresholds=d.thresholds('green', [[2, 'orange']])),
          d.panel.stat('Fewest cluster members', 'short', [t('min(alertmanager_cluster_members{S})')],
                       'Cluster members seen by the replica that sees the fewest; every replica should see all of its Alertmanager.'),
          d.panel.stat('Alerts received', 'ops', [t('sum(rate(alertmanager_alerts_received_total{S}[$__rate_interval]))')],
                       'Alerts received from Prometheus servers per second, all replicas together.'),
          d.panel.stat('Failed notifications', 'percentunit', [t('sum(rate(alertmanager_notifications_failed_total{S}[$__rate_interval])) / sum(rate(alertmanager_notifications_total{S}[$__rate_interval]))')],
                       'Share of notification attempts that failed, all integrations together.',
                       thresholds=d.thresholds('green', [[c.alertmanagerNotificationFailureRatio, 'orange'], [0.1, 'red']])),
        ]),
        d.row('Alerts', [
          ts('Alerts received', 'ops', [t('sum by (namespace, pod, status) (rate(alertmanager_alerts_received_total{S}[$__rate_interval]))', '{{pod}} {{status}}')],
             'Alerts received per second by replica and status (firing, resolved); Prometheus sends each alert to every replica.', span=8),
          ts('Invalid alerts', 'ops', [t('sum by (namespace, pod) (rate(alertmanager_alerts_invalid_total{S}[$__rate_interval]))', byPod)],
             'Alerts rejected as invalid per second: bad labels or annotations from a client.', span=8),
          ts('Alerts held', 'short', [t('max by (namespace, pod, state) (alertmanager_alerts{S})', '{{pod}} {{state}}')],
             'Alerts each replica holds, by state: active, suppressed (silenced or inhibited), unprocessed.', span=8),
        ]),
        d.row('Notifications', [
          ts('Notifications sent', 'ops', [t('sum by (integration) (rate(alertmanager_notifications_total{S}[$__rate_interval]))', '{{integration}}')],
             'Notification attempts per second by integration (webhook, email, slack, ...).', span=8),
          ts('Notifications failed', 'ops', [t('sum by (integration) (rate(alertmanager_notifications_failed_total{S}[$__rate_interval]))', '{{integration}}')],
             'Failed notification attempts per second by integration; failed attempts are retried.', span=8),
          ts('Notification latency', 's', [
            t('histogram_quantile(0.99, sum by (integration, le) (rate(alertmanager_notification_latency_seconds_bucket{S}[$__rate_interval])))', 'p99 {{integration}}'),
            t('histogram_quantile(0.5, sum by (integration, le) (rate(alertmanager_notification_latency_seconds_bucket{S}[$__rate_interval])))', 'p50 {{integration}}'),
          ], 'Time one notification attempt takes, by integration.', span=8),
        ]),
        d.row('Cluster and configuration', [
          ts('Cluster members', 'short', [t('max by (namespace, pod) (alertmanager_cluster_members{S})', byPod)],
             'Members of its cluster each replica sees, itself included.', span=8),
          ts('Configuration loaded', 'bool', [t('max by (namespace, pod) (alertmanager_config_last_reload_successful{S})', byPod)],
             '1 when the last configuration reload of the replica succeeded.', span=8, min=0, max=1),
          d.panel.table('Configuration hashes', 'none', [t('max by (namespace, pod) (alertmanager_config_hash{S})')],
                        'Hash of the configuration each replica loaded (the Value column); the replicas of one Alertmanager should agree.',
                        span=8, hide=['Time']),
        ]),
        d.row('Config-reloader', [
          ts('Reloads', 'ops', [
            t('sum by (namespace, pod) (rate(reloader_reloads_total{R}[$__rate_interval]))', 'reloads {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(reloader_reloads_failed_total{R}[$__rate_interval]))', 'failed {{namespace}}/{{pod}}'),
          ], 'Reloads the config-reloader sidecar of each Alertmanager pod asked for, and those that failed.', span=8),
          ts('Reloader last reload successful', 'bool', [t('max by (namespace, pod) (reloader_last_reload_successful{R})', byPod)],
             '1 when the last reload the config-reloader attempted succeeded.', span=8, min=0, max=1),
          ts('Time since last successful reload', 's', [t('max by (namespace, pod) (time() - reloader_last_reload_success_timestamp_seconds{R})', byPod)],
             'Grows while the configuration does not change; a reset is a reload.', span=8),
        ]),
        d.row('Resources', [
          ts('CPU', 'percentunit', [t('sum by (namespace, pod) (rate(process_cpu_seconds_total{S}[$__rate_interval]))', byPod)],
             'CPU time Alertmanager uses, as a share of one core.', span=12),
          ts('Memory', 'bytes', [t('max by (namespace, pod) (process_resident_memory_bytes{S})', byPod)],
             'Resident memory of Alertmanager.', span=12),
        ]),
      ],
    ),
  },
}
