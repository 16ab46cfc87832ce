// prometheus.libsonnet: a Prometheus for the cluster, its ServiceAccount and service
// discovery RBAC, a Service for its web and config-reloader ports and the ServiceMonitor
// that scrapes both.
local k = import 'k.libsonnet';

{
  // prometheusPeer is the NetworkPolicy peer of the stack's Prometheus pods: the other
  // components let it in.
  prometheusPeer:: k.fromPods($.values.prometheus.namespace, {
    'app.kubernetes.io/name': 'prometheus',
    'app.kubernetes.io/instance': $.values.prometheus.name,
  }),

  prometheus: {
    local v = $.values.prometheus,
    local fullName = 'prometheus-' + v.name,
    // Labels Lookout puts on the pods of this Prometheus.
    local podSelector = { 'app.kubernetes.io/name': 'prometheus', 'app.kubernetes.io/instance': v.name },
    local labels = $.values.common.labels + podSelector + { 'app.kubernetes.io/component': 'prometheus' },

    serviceAccount: k.serviceAccount(fullName, v.namespace, labels),

    clusterRole: k.clusterRole(fullName, labels, [
      k.rule([''], ['services', 'endpoints', 'pods'], ['get', 'list', 'watch']),
      k.rule(['discovery.k8s.io'], ['endpointslices'], ['get', 'list', 'watch']),
      k.rule(['networking.k8s.io'], ['ingresses'], ['get', 'list', 'watch']),
      k.rule([''], ['nodes/metrics'], ['get']),
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
    ]),

    clusterRoleBinding: k.binding('ClusterRoleBinding', fullName, null, labels, 'ClusterRole', fullName, fullName, v.namespace),

    prometheus: k.object('monitoring.coreos.com/v1', 'Prometheus', v.name, v.namespace, labels) {
      spec: {
        replicas: v.replicas,
        version: v.version,
        serviceAccountName: fullName,
        retention: v.retention,
        scrapeInterval: v.scrapeInterval,
        externalLabels: v.externalLabels,
        resources: v.resources,
        podMetadata: { labels: $.values.common.labels },
        securityContext: k.nonRoot(1000) { fsGroup: 2000 },
        serviceMonitorSelector: v.serviceMonitorSelector,
        serviceMonitorNamespaceSelector: v.serviceMonitorNamespaceSelector,
        podMonitorSelector: v.podMonitorSelector,
        podMonitorNamespaceSelector: v.podMonitorNamespaceSelector,
        ruleSelector: v.ruleSelector,
        ruleNamespaceSelector: v.ruleNamespaceSelector,
        alerting: {
          alertmanagers: [{
            namespace: $.values.alertmanager.namespace,
            name: 'alertmanager-' + $.values.alertmanager.name,
            port: 'web',
            apiVersion: 'v2',
          }],
        },
      },
    },

    service: k.service(fullName, v.namespace, labels, podSelector, [['web', 9090], ['reloader-web', 8080]]) {
      spec+: { sessionAffinity: 'ClientIP' },
    },

    serviceMonitor: k.serviceMonitor(fullName, v.namespace, labels, podSelector, ['web', 'reloader-web']),

    [if $.values.prometheus.podDisruptionBudget && $.values.prometheus.replicas > 1 then 'podDisruptionBudget']:
      k.podDisruptionBudget(fullName, v.namespace, labels, podSelector, minAvailable=1),

    // Its replicas scrape each other; Grafana queries it.
    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(fullName, v.namespace, labels, podSelector, [
        { from: [$.prometheusPeer], ports: [['TCP', 9090], ['TCP', 8080]] },
      ] + (if $.values.grafana.enabled then [
             { from: [k.fromPods($.values.grafana.namespace, { 'app.kubernetes.io/name': $.values.grafana.name })], ports: [['TCP', 9090]] },
           ] else [])),
  },
}
