// config.libsonnet: everything about the mixin that an installation may need to change.
// Override with `(import 'mixin/mixin.libsonnet') + { _config+:: { ... } }`.
{
  _config+:: {
    // Selectors of the scraped series. The defaults match the ServiceMonitors of the stack
    // library (jsonnet/lookout): the operator's Service is lookout-operator; the containers
    // of the Prometheus pods (StatefulSets prometheus-<name>) are named prometheus and
    // config-reloader. The pod name keeps the config-reloaders of Alertmanager pods out.
    operatorSelector: 'job="lookout-operator"',
    reloaderSelector: 'container="config-reloader", pod=~"prometheus-.+"',
    prometheusSelector: 'container="prometheus", pod=~"prometheus-.+"',
    // The Alertmanager pods (StatefulSet alertmanager-<name>): the stack's ServiceMonitor
    // alertmanager-<name> scrapes both containers of the Alertmanager `main` under the job
    // of its Service, alertmanager-main; the container tells Alertmanager from its
    // config-reloader.
    alertmanagerSelector: 'job="alertmanager-main", container="alertmanager"',
    alertmanagerReloaderSelector: 'job="alertmanager-main", container="config-reloader"',
    // alertmanagerClusterLabels are the labels whose values together name one Alertmanager
    // (its replicas gossip with each other and must agree); with a ServiceMonitor that is
    // the namespace and Service. alertmanagerReplicaLabel tells its replicas apart.
    alertmanagerClusterLabels: ['namespace', 'service'],
    alertmanagerReplicaLabel: 'pod',

    // Switches.
    //
    // prometheusServerAlerts turns on the lookout-prometheus group: the five
    // LookoutPrometheus* alerts on the Prometheus servers themselves (configuration reload
    // failed, rule evaluation failures, no Alertmanager discovered, errors sending alerts,
    // failed compactions). Each repeats a condition the upstream Prometheus mixin alerts on
    // (PrometheusBadConfig, PrometheusRuleFailures, PrometheusNotConnectedToAlertmanagers,
    // PrometheusErrorSendingAlertsToSomeAlertmanagers, PrometheusTSDBCompactionsFailing);
    // turn it off where that mixin is installed, so each problem pages once.
    // LookoutPrometheusReconcileFailing is about the operator and stays.
    prometheusServerAlerts: true,
    // kubeStateMetrics turns on what needs kube-state-metrics: the LookoutOperatorNotReady
    // alert (Deployment replicas). No dashboard panel uses kube-state-metrics today; a
    // panel that does belongs under this switch too.
    kubeStateMetrics: true,
    // alertmanagerAlerts turns on the lookout-alertmanager group: the LookoutAlertmanager*
    // alerts on the Alertmanagers the operator runs (configuration reload failed,
    // configuration or cluster membership differing across replicas, failing
    // notifications, replicas down or restarting). They cover what the upstream Alertmanager
    // mixin alerts on; turn them off where that mixin is installed.
    alertmanagerAlerts: true,

    // kube-state-metrics, for the Deployment readiness of the operator.
    kubeStateMetricsSelector: 'job="kube-state-metrics"',
    operatorDeploymentSelector: 'deployment="lookout-operator"',

    // clusterLabel names the label that tells clusters apart when one Prometheus or Thanos
    // sees several; showMultiCluster shows the cluster variable on the dashboards.
    clusterLabel: 'cluster',
    showMultiCluster: false,

    // groupLabels are kept by every aggregation of the alerts and recording rules, so that
    // an alert fires once per cluster (or whatever else is listed) instead of once in all.
    groupLabels: [self.clusterLabel],

    // commonAlertLabels are added to the labels of every alert (team, routing, ...).
    commonAlertLabels: {},

    // Thresholds.
    reconcileErrorRatio: 0.1,  // of the reconciles of one controller, over 5 minutes
    apiReadErrorRatio: 0.05,  // of the operator's API read (list, watch, get) requests
    // The operator refuses configurations whose compressed size exceeds what one Secret
    // holds (1 MiB) less 16 KiB of headroom; warn when this share of that is used.
    configSizeLimitBytes: 1048576 - 16384,
    configSizeWarningRatio: 0.8,
    configOutOfDateFor: '15m',
    notificationErrorRatio: 0.01,
    // Of the notifications one Alertmanager sends through one integration, over 5 minutes.
    alertmanagerNotificationFailureRatio: 0.01,
    // More restarts than this of one Alertmanager replica in 15 minutes are a crash loop.
    alertmanagerRestarts: 2,

    // Runbooks: the alert name in kebab-case fills %s.
    runbookURLPattern: 'https://github.com/lookout-operator/lookout/blob/main/Documentation/runbooks/%s.md',

    // Dashboards.
    dashboardTags: ['lookout'],
    dashboardPrefix: 'Lookout / ',
    dashboardRefresh: '30s',
    dashboardTimezone: 'utc',
    dashboardUIDs: {
      operator: 'lookout-operator',
      reloader: 'lookout-config-reloader',
      prometheus: 'lookout-prometheus',
      alertmanager: 'lookout-alertmanager',
    },
  },
}
