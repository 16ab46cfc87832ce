// prometheus.libsonnet: an overview of the Prometheus servers Lookout runs.
local d = import '../lib/dashboard.libsonnet';
local common = import 'common.libsonnet';

{
  grafanaDashboards+:: {
    local c = $._config,
    local base = '%s, %s' % [c.prometheusSelector, common.clusterMatcher(c)],
    local sel = base + ', namespace=~"$namespace", job=~"$job", pod=~"$pod"',
    local q(s) = std.strReplace(s, '{S', '{' + sel),
    local ts = d.panel.timeseries,
    local t(expr, legend='') = d.target(q(expr), legend),
    local byPod = '{{namespace}}/{{pod}}',

    'lookout-prometheus.json': common.dashboard(
      c,
      'prometheus',
      'Prometheus',
      'The Prometheus servers Lookout runs: ingestion, scraping, rule evaluation, alert delivery, queries and resources.',
      common.variables(c, 'prometheus_build_info{%s}' % c.prometheusSelector) + [
        d.variable.query('namespace', 'Namespace', 'prometheus_build_info{%s}' % base, 'namespace', includeAll=true, multi=true),
        d.variable.query('job', 'Job', 'prometheus_build_info{%s, namespace=~"$namespace"}' % base, 'job', includeAll=true, multi=true),
        d.variable.query('pod', 'Pod', 'prometheus_build_info{%s, namespace=~"$namespace", job=~"$job"}' % base, 'pod', includeAll=true, multi=true),
      ],
      [
        d.row('Overview', [
          d.panel.stat('Servers up', 'short', [t('sum(up{S})')], 'Prometheus servers scraped successfully.',
                       thresholds=d.thresholds('red', [[1, 'green']])),
          d.panel.stat('Configuration loaded', 'none', [t('min(prometheus_config_last_reload_successful{S})')],
                       'Whether every server loaded its last configuration.',
                       thresholds=d.thresholds('red', [[1, 'green']]), mappings=[[0, 'failed', 'red'], [1, 'ok', 'green']]),
          d.panel.stat('Head series', 'short', [t('sum(prometheus_tsdb_head_series{S})')], 'Series in memory, all servers together.'),
          d.panel.stat('Samples appended', 'ops', [t('sum(rate(prometheus_tsdb_head_samples_appended_total{S}[$__rate_interval]))')], 'Samples ingested per second.'),
          d.panel.stat('Rule evaluation failures', 'short', [t('sum(increase(prometheus_rule_evaluation_failures_total{S}[1h]))')],
                       'Failed rule evaluations in the last hour.', thresholds=d.thresholds('green', [[1, 'red']])),
          d.panel.stat('Alertmanagers', 'short', [t('min(prometheus_notifications_alertmanagers_discovered{S})')],
                       'Alertmanagers known to the server that knows the fewest.', thresholds=d.thresholds('red', [[1, 'green']])),
        ]),
        d.row('Ingestion', [
          ts('Samples appended', 'ops', [t('sum by (namespace, pod) (rate(prometheus_tsdb_head_samples_appended_total{S}[$__rate_interval]))', byPod)],
             'Samples written to the head block per second.', span=8),
          ts('Head series', 'short', [t('max by (namespace, pod) (prometheus_tsdb_head_series{S})', byPod)],
             'Series held in memory.', span=8),
          ts('Head chunks', 'short', [t('max by (namespace, pod) (prometheus_tsdb_head_chunks{S})', byPod)],
             'Chunks held in memory.', span=8),
        ]),
        d.row('Scraping', [
          ts('Targets by scrape pool', 'short', [t('max by (namespace, pod, scrape_job) (prometheus_target_scrape_pool_targets{S})', '{{pod}} {{scrape_job}}')],
             'Targets of each scrape pool: one pool per ServiceMonitor or PodMonitor endpoint.', span=8),
          ts('Target sync (p99)', 's', [t('max by (namespace, pod, scrape_job) (prometheus_target_sync_length_seconds{S, quantile="0.99"})', '{{pod}} {{scrape_job}}')],
             'Time to apply discovered target changes to each scrape pool.', span=8),
          ts('Scrape problems', 'ops', [
            t('sum by (namespace, pod) (rate(prometheus_target_scrapes_exceeded_sample_limit_total{S}[$__rate_interval]))', 'sample limit {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(prometheus_target_scrapes_exceeded_body_size_limit_total{S}[$__rate_interval]))', 'body size limit {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(prometheus_target_scrapes_sample_out_of_order_total{S}[$__rate_interval]))', 'out of order {{namespace}}/{{pod}}'),
          ], 'Scrapes rejected for exceeding limits, and samples dropped as out of order.', span=8),
        ]),
        d.row('Rules and alerts', [
          ts('Rule group duration', 's', [t('max by (namespace, pod, rule_group) (prometheus_rule_group_last_duration_seconds{S})', '{{pod}} {{rule_group}}')],
             'Time the last evaluation of each rule group took.', span=8),
          ts('Rule evaluation failures', 'ops', [
            t('sum by (namespace, pod, rule_group) (rate(prometheus_rule_evaluation_failures_total{S}[$__rate_interval]))', '{{pod}} {{rule_group}}'),
            t('sum by (namespace, pod, rule_group) (rate(prometheus_rule_group_iterations_missed_total{S}[$__rate_interval]))', 'missed {{pod}} {{rule_group}}'),
          ], 'Failed rule evaluations and missed group iterations per second.', span=8),
          ts('Alert notifications', 'ops', [
            t('sum by (namespace, pod) (rate(prometheus_notifications_sent_total{S}[$__rate_interval]))', 'sent {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(prometheus_notifications_errors_total{S}[$__rate_interval]))', 'errors {{namespace}}/{{pod}}'),
            t('sum by (namespace, pod) (rate(prometheus_notifications_dropped_total{S}[$__rate_interval]))', 'dropped {{namespace}}/{{pod}}'),
          ], 'Alerts sent to Alertmanagers, those that met errors, and those dropped.', span=8),
        ]),
        d.row('Queries and resources', [
          ts('Query duration (p99)', 's', [t('max by (namespace, pod, slice) (prometheus_engine_query_duration_seconds{S, quantile="0.99"})', '{{pod}} {{slice}}')],
             'Time spent in each stage of query evaluation.', span=6),
          ts('CPU', 'percentunit', [t('sum by (namespace, pod) (rate(process_cpu_seconds_total{S}[$__rate_interval]))', byPod)],
             'CPU time used, as a share of one core.', span=6),
          ts('Memory', 'bytes', [t('max by (namespace, pod) (process_resident_memory_bytes{S})', byPod)],
             'Resident memory.', span=6),
          ts('Storage', 'bytes', [t('max by (namespace, pod) (prometheus_tsdb_storage_blocks_bytes{S})', byPod)],
             'Bytes of persisted blocks.', span=6),
        ]),
      ],
    ),
  },
}
