// reloader.libsonnet: the config-reloader dashboard.
local d = import '../lib/dashboard.libsonnet';
local common = import 'common.libsonnet';

{
  grafanaDashboards+:: {
    local c = $._config,
    local base = '%s, %s' % [c.reloaderSelector, common.clusterMatcher(c)],
    local sel = base + ', namespace=~"$namespace", job=~"$job", pod=~"$pod"',
    local q(s) = std.strReplace(s, '{S', '{' + sel),
    local ts = d.panel.timeseries,
    local t(expr, legend='') = d.target(q(expr), legend),
    local operatorHashes = 'lookout_prometheus_config_info{%s, %s}' % [c.operatorSelector, common.clusterMatcher(c)],

    'lookout-config-reloader.json': common.dashboard(
      c,
      'reloader',
      'Config reloader',
      'The config-reloader sidecars of the Prometheus pods: reloads, failures, latency, what triggered them, and whether each pod runs the configuration the operator generated.',
      common.variables(c, 'reloader_reloads_total{%s}' % c.reloaderSelector) + [
        d.variable.query('namespace', 'Namespace', 'reloader_reloads_total{%s}' % base, 'namespace', includeAll=true, multi=true),
        d.variable.query('job', 'Job', 'reloader_reloads_total{%s, namespace=~"$namespace"}' % base, 'job', includeAll=true, multi=true),
        d.variable.query('pod', 'Pod', 'reloader_reloads_total{%s, namespace=~"$namespace", job=~"$job"}' % base, 'pod', includeAll=true, multi=true),
      ],
      [
        d.row('Overview', [
          d.panel.stat('Reloaders', 'short', [t('count(reloader_last_reload_successful{S})')],
                       'Config-reloaders scraped.'),
          d.panel.stat('Failing', 'short', [t('count(reloader_last_reload_successful{S} == 0) or vector(0)')],
                       'Config-reloaders whose last reload failed.',
                       thresholds=d.thresholds('green', [[1, 'red']])),
          d.panel.stat('Out of date', 'short', [t('count(max by (namespace, pod, hash) (reloader_config_info{S}) unless on (hash) %s) or vector(0)' % operatorHashes)],
                       'Pods whose loaded configuration matches none the operator generated (transient while a change rolls out).',
                       thresholds=d.thresholds('green', [[1, 'orange']])),
          d.panel.stat('Oldest successful reload', 's', [t('max(time() - reloader_last_reload_success_timestamp_seconds{S})')],
                       'Time since the least recent successful reload of any pod; it grows while nothing changes.'),
          d.panel.stat('Reload failures', 'short', [t('sum(increase(reloader_reloads_failed_total{S}[1h]))')],
                       'Reloads that failed in the last hour.',
                       thresholds=d.thresholds('green', [[1, 'orange']])),
          d.panel.stat('Reload latency (p99)', 's', [t('histogram_quantile(0.99, sum by (le) (rate(reloader_reload_duration_seconds_bucket{S}[1h])))')],
                       'Slowest reloads of the last hour, confirmation by Prometheus included.'),
        ]),
        d.row('Reloads', [
          ts('Reloads', 'ops', [t('sum by (namespace, pod) (rate(reloader_reloads_total{S}[$__rate_interval]))', '{{namespace}}/{{pod}}')],
             'Reload requests per second.', span=8),
          ts('Reload failures', 'ops', [t('sum by (namespace, pod) (rate(reloader_reloads_failed_total{S}[$__rate_interval]))', '{{namespace}}/{{pod}}')],
             'Reloads that failed or that Prometheus did not confirm, per second.', span=8),
          ts('Last reload successful', 'bool', [t('max by (namespace, pod) (reloader_last_reload_successful{S})', '{{namespace}}/{{pod}}')],
             '1 when the last reload attempt succeeded.', span=8, min=0, max=1),
          ts('Time since last successful reload', 's', [t('max by (namespace, pod) (time() - reloader_last_reload_success_timestamp_seconds{S})', '{{namespace}}/{{pod}}')],
             'Grows while the configuration does not change; a reset is a reload.', span=8),
          ts('Reload latency', 's', [
            t('histogram_quantile(0.99, sum by (namespace, pod, le) (rate(reloader_reload_duration_seconds_bucket{S}[$__rate_interval])))', 'p99 {{namespace}}/{{pod}}'),
            t('histogram_quantile(0.5, sum by (namespace, pod, le) (rate(reloader_reload_duration_seconds_bucket{S}[$__rate_interval])))', 'p50 {{namespace}}/{{pod}}'),
          ], 'Duration of one reload, from the request to the answer.', span=8),
          d.panel.table('Loaded configuration', 'string', [t('max by (namespace, pod, hash) (reloader_config_info{S})')],
                        'SHA-256 of the configuration each pod last loaded; compare with the operator dashboard.',
                        span=8, hide=['Time', 'Value']),
        ]),
        d.row('Changes', [
          ts('Apply operations', 'ops', [
            t('sum by (namespace, pod) (rate(reloader_config_apply_operations_total{S}[$__rate_interval]))', 'applied {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(reloader_config_apply_operations_failed_total{S}[$__rate_interval]))', 'failed {{namespace}}/{{pod}}'),
          ], 'Checks that found new content and rendered, wrote and reloaded it; and those that failed.', span=8),
          ts('Checks by cause', 'ops', [t('sum by (cause) (rate(reloader_checks_total{S}[$__rate_interval]))', '{{cause}}')],
             'Content checks per second by what triggered them (start, event, periodic, retry).', span=8),
          ts('Unset variables', 'short', [t('sum by (namespace, pod) (increase(reloader_unset_env_vars_total{S}[$__rate_interval]))', '{{namespace}}/{{pod}}')],
             '$(VAR) references left unexpanded because the variable is not set.', span=8),
          ts('Watch events and errors', 'ops', [
            t('sum by (namespace, pod) (rate(reloader_watch_events_total{S}[$__rate_interval]))', 'events {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(reloader_watch_errors_total{S}[$__rate_interval]))', 'errors {{namespace}}/{{pod}}'),
          ], 'File system events received and watch errors.', span=8),
          ts('Watches', 'short', [t('max by (namespace, pod) (reloader_watches{S})', '{{namespace}}/{{pod}}')],
             'Files and directories watched.', span=8),
        ]),
        d.row('API mode', [
          ts('API updates', 'ops', [t('sum by (pod, kind, name) (rate(reloader_api_updates_total{S}[$__rate_interval]))', '{{pod}} {{kind}} {{name}}')],
             'Object versions received through the API watch that changed a mirrored directory (API mode only).', span=8),
          ts('API errors', 'ops', [t('sum by (pod, kind, name) (rate(reloader_api_errors_total{S}[$__rate_interval]))', '{{pod}} {{kind}} {{name}}')],
             'Failed list or watch calls and failed directory writes (API mode only).', span=8),
          ts('Time since last API update', 's', [t('max by (pod, kind, name) (time() - reloader_api_last_update_timestamp_seconds{S})', '{{pod}} {{kind}} {{name}}')],
             'Age of each mirrored directory (API mode only).', span=8),
        ]),
      ],
    ),
  },
}
