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
      // networkPolicies gives every component of the stack a NetworkPolicy that lets in
      // only what it serves (Prometheus's scrapes, Grafana's queries, ...) and lets out
      // everything, as kube-prometheus does.
      networkPolicies: true,
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
      // podDisruptionBudget keeps one replica up through drains (only with 2 replicas or more).
      podDisruptionBudget: true,
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
      // podDisruptionBudget lets one replica go at a time (only with 2 replicas or more).
      podDisruptionBudget: true,
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
    mixin: {
      // The stack does not ship the upstream Prometheus mixin, so Lookout's alerts on the
      // Prometheus servers stay on; turn them off with mixin+: { prometheusServerAlerts: false }
      // when the Prometheus mixin is added (Documentation/monitoring.md).
      prometheusServerAlerts: true,
      // Nor the upstream Alertmanager mixin: Lookout's Alertmanager alerts stay on too.
      alertmanagerAlerts: true,
      kubeStateMetrics: $.values.kubeStateMetrics.enabled,
      // The job of the Alertmanager's ServiceMonitor is the name of its Service.
      alertmanagerSelector: 'job="alertmanager-%s", container="alertmanager"' % $.values.alertmanager.name,
      alertmanagerReloaderSelector: 'job="alertmanager-%s", container="config-reloader"' % $.values.alertmanager.name,
    },

    // grafana: Grafana with the stack's Prometheus as its data source and the mixin's
    // dashboards provisioned from ConfigMaps. The ConfigMaps are made with enabled: false
    // too, labelled and annotated for the dashboard sidecar of a Grafana of your own.
    grafana: {
      enabled: true,
      name: 'grafana',
      namespace: $.values.common.namespace,
      // The image versions of Grafana, node-exporter, kube-state-metrics and the blackbox
      // exporter are kube-prometheus's (Documentation/monitoring.md).
      version: '13.1.3',
      image: 'grafana/grafana:' + self.version,
      resources: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '200m', memory: '200Mi' } },
      // datasourceURL is the Prometheus the provisioned data source queries.
      datasourceURL: 'http://prometheus-%s.%s.svc:9090' % [$.values.prometheus.name, $.values.prometheus.namespace],
      dashboardLabel: 'grafana_dashboard',
      dashboardLabelValue: '1',
      folderAnnotation: 'grafana_folder',
      folder: 'Lookout',
    },

    // nodeExporter: a DaemonSet on every Linux node, on the host network and PID namespace.
    nodeExporter: {
      enabled: true,
      name: 'node-exporter',
      namespace: $.values.common.namespace,
      version: 'v1.12.1',
      image: 'quay.io/prometheus/node-exporter:' + self.version,
      port: 9100,
      resources: { requests: { cpu: '102m', memory: '180Mi' }, limits: { cpu: '250m', memory: '180Mi' } },
    },

    // kubeStateMetrics: metrics about the state of Kubernetes objects.
    kubeStateMetrics: {
      enabled: true,
      name: 'kube-state-metrics',
      namespace: $.values.common.namespace,
      version: 'v2.19.1',
      image: 'registry.k8s.io/kube-state-metrics/kube-state-metrics:' + self.version,
      resources: { requests: { cpu: '10m', memory: '190Mi' }, limits: { cpu: '100m', memory: '250Mi' } },
    },

    // blackboxExporter: probes endpoints over HTTP and TCP for Probe objects.
    blackboxExporter: {
      enabled: true,
      name: 'blackbox-exporter',
      namespace: $.values.common.namespace,
      version: 'v0.28.0',
      image: 'quay.io/prometheus/blackbox-exporter:' + self.version,
      port: 9115,
      resources: { requests: { cpu: '10m', memory: '20Mi' }, limits: { cpu: '20m', memory: '40Mi' } },
      // modules is the blackbox exporter's configuration (config.yml).
      modules: {
        http_2xx: { prober: 'http', http: { preferred_ip_protocol: 'ip4' } },
        http_post_2xx: { prober: 'http', http: { method: 'POST', preferred_ip_protocol: 'ip4' } },
        tcp_connect: { prober: 'tcp', tcp: { preferred_ip_protocol: 'ip4' } },
      },
    },

    // kubernetesControlPlane: ServiceMonitors for what Kubernetes runs itself. kubelet
    // also passes --kubelet-service to the operator, which then keeps the Service the
    // kubelet ServiceMonitor selects.
    kubernetesControlPlane: {
      namespace: $.values.common.namespace,
      kubelet: true,
      kubeletService: 'kube-system/kubelet',
      apiServer: true,
      coreDNS: true,
      kubeScheduler: true,
      kubeControllerManager: true,
    },
  },
}
