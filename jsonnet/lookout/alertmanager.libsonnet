// alertmanager.libsonnet: an Alertmanager cluster the Prometheus sends its alerts to, with
// its configuration Secret, ServiceAccount, Service and ServiceMonitor.
local k = import 'k.libsonnet';

{
  alertmanager: {
    local v = $.values.alertmanager,
    local fullName = 'alertmanager-' + v.name,
    local podSelector = { 'app.kubernetes.io/name': 'alertmanager', 'app.kubernetes.io/instance': v.name },
    local labels = $.values.common.labels + podSelector + { 'app.kubernetes.io/component': 'alert-router' },

    serviceAccount: k.serviceAccount(fullName, v.namespace, labels),

    // alertmanager-<name> is the Secret an Alertmanager reads its configuration from when
    // spec.configSecret is not set.
    secret: k.object('v1', 'Secret', fullName, v.namespace, labels) {
      type: 'Opaque',
      stringData: { 'alertmanager.yaml': std.manifestYamlDoc(v.config, quote_keys=false) },
    },

    alertmanager: k.object('monitoring.coreos.com/v1', 'Alertmanager', v.name, v.namespace, labels) {
      spec: {
        replicas: v.replicas,
        version: v.version,
        serviceAccountName: fullName,
        resources: v.resources,
        podMetadata: { labels: $.values.common.labels },
        securityContext: k.nonRoot(1000) { fsGroup: 2000 },
      },
    },

    service: k.service(fullName, v.namespace, labels, podSelector, [['web', 9093], ['reloader-web', 8080]]) {
      spec+: { sessionAffinity: 'ClientIP' },
    },

    serviceMonitor: k.serviceMonitor(fullName, v.namespace, labels, podSelector, ['web', 'reloader-web']),

    [if $.values.alertmanager.podDisruptionBudget && $.values.alertmanager.replicas > 1 then 'podDisruptionBudget']:
      k.podDisruptionBudget(fullName, v.namespace, labels, podSelector, maxUnavailable=1),

    // Prometheus sends alerts and scrapes; the replicas gossip with each other on 9094.
    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(fullName, v.namespace, labels, podSelector, [
        { from: [$.prometheusPeer], ports: [['TCP', 9093], ['TCP', 8080]] },
        { from: [k.fromPods(v.namespace, podSelector)], ports: [['TCP', 9094], ['UDP', 9094]] },
      ]),
  },
}
