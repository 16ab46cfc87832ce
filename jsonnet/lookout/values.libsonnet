// values.libsonnet: the defaults of the stack. Override any of them with
//   (import 'lookout/main.libsonnet') + { values+:: { common+: { namespace: 'monitoring' } } }
// Fields refer to each other through $.values, so changing common.namespace or
// common.version moves everything that depends on it.
{
  values:: {
    common: {
      namespace: 'lookout',
      // version is the image tag of the operator and of the config-reloader.
      version: 'latest',
      // labels are added to every object of the stack.
      labels: { 'app.kubernetes.io/part-of': 'lookout' },
    },

    operator: {
      name: 'lookout-operator',
      namespace: $.values.common.namespace,
      image: 'ghcr.io/lookout-operator/lookout-operator:' + $.values.common.version,
      configReloaderImage: 'ghcr.io/lookout-operator/config-reloader:' + $.values.common.version,
      replicas: 2,
      // reloaderWatchAPI makes the config-reloaders read their inputs from the API
      // (seconds) instead of the kubelet's volume sync (minutes).
      reloaderWatchAPI: false,
      logLevel: 'info',
      extraArgs: [],
      resources: {
        requests: { cpu: '100m', memory: '100Mi' },
        limits: { memory: '500Mi' },
      },
      metricsPort: 8080,
      probePort: 8081,
    },

    prometheus: {
      name: 'k8s',
      namespace: $.values.common.namespace,
      replicas: 2,
      version: 'v3.16.0',
      retention: '15d',
      scrapeInterval: '30s',
      externalLabels: {},
      resources: { requests: { memory: '400Mi' } },
      // The monitors and rules this Prometheus uses: every ServiceMonitor and PodMonitor
      // of every namespace, and PrometheusRules with ruleLabels.
      serviceMonitorSelector: {},
      serviceMonitorNamespaceSelector: {},
      podMonitorSelector: {},
      podMonitorNamespaceSelector: {},
      ruleLabels: { 'lookout.dev/rules': 'stack' },
      ruleSelector: { matchLabels: $.values.prometheus.ruleLabels },
      ruleNamespaceSelector: {},
    },

    alertmanager: {
      name: 'main',
      namespace: $.values.common.namespace,
      replicas: 3,
      version: 'v0.35.0',
      resources: { requests: { cpu: '4m', memory: '100Mi' }, limits: { memory: '100Mi' } },
      // config is the alertmanager.yaml the Alertmanager starts with.
      config: {
        global: { resolve_timeout: '5m' },
        route: {
          receiver: 'default',
          group_by: ['namespace', 'alertname'],
          group_wait: '30s',
          group_interval: '5m',
          repeat_interval: '12h',
          routes: [{ receiver: 'null', matchers: ['severity = "info"'] }],
        },
        receivers: [{ name: 'default' }, { name: 'null' }],
        inhibit_rules: [{
          source_matchers: ['severity = "critical"'],
          target_matchers: ['severity =~ "warning|info"'],
          equal: ['namespace', 'alertname'],
        }],
      },
    },

    // mixin overrides the _config of the mixin (jsonnet/mixin/config.libsonnet).
    mixin: {},

    // grafana: the dashboards become ConfigMaps that Grafana's dashboard sidecar picks up
    // by this label; folder becomes the sidecar's folder annotation.
    grafana: {
      namespace: $.values.common.namespace,
      dashboardLabel: 'grafana_dashboard',
      dashboardLabelValue: '1',
      folderAnnotation: 'grafana_folder',
      folder: 'Lookout',
    },
  },
}
