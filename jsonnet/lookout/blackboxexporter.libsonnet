// blackboxexporter.libsonnet: the blackbox exporter that Probe objects send their
// targets to (prober URL blackbox-exporter.<namespace>.svc:9115): its configuration
// ConfigMap, Deployment, ServiceAccount, Service, the ServiceMonitor for its own metrics
// and a NetworkPolicy.
//
// It calls no Kubernetes API: its ServiceAccount has no role and no token.
local k = import 'k.libsonnet';

{
  local v = $.values.blackboxExporter,
  local selector = { 'app.kubernetes.io/name': v.name },
  local labels = $.values.common.labels + selector + {
    'app.kubernetes.io/component': 'exporter',
    'app.kubernetes.io/version': v.version,
  },

  blackboxExporter: if !v.enabled then {} else {
    serviceAccount: k.serviceAccount(v.name, v.namespace, labels) {
      automountServiceAccountToken: false,
    },

    configuration: k.object('v1', 'ConfigMap', v.name + '-configuration', v.namespace, labels) {
      data: { 'config.yml': std.manifestYamlDoc({ modules: v.modules }, quote_keys=false) },
    },

    deployment: k.object('apps/v1', 'Deployment', v.name, v.namespace, labels) {
      spec: {
        replicas: 1,
        selector: { matchLabels: selector },
        template: {
          metadata: {
            labels: labels,
            // A new configuration rolls the pods.
            annotations: {
              'kubectl.kubernetes.io/default-container': v.name,
              'lookout.dev/config-hash': std.md5($.blackboxExporter.configuration.data['config.yml']),
            },
          },
          spec: {
            serviceAccountName: v.name,
            automountServiceAccountToken: false,
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            securityContext: k.nonRoot() { fsGroup:: null },
            containers: [{
              name: v.name,
              image: v.image,
              args: [
                '--config.file=/etc/blackbox_exporter/config.yml',
                '--web.listen-address=:%d' % v.port,
              ],
              ports: [{ name: 'http', containerPort: v.port }],
              livenessProbe: { httpGet: { path: '/-/healthy', port: 'http' } },
              readinessProbe: { httpGet: { path: '/-/healthy', port: 'http' } },
              resources: v.resources,
              securityContext: k.restricted,
              volumeMounts: [{ name: 'config', mountPath: '/etc/blackbox_exporter', readOnly: true }],
            }],
            volumes: [{ name: 'config', configMap: { name: v.name + '-configuration' } }],
          },
        },
      },
    },

    service: k.service(v.name, v.namespace, labels, selector, [['http', v.port]]),

    serviceMonitor: k.serviceMonitor(v.name, v.namespace, labels, selector, ['http']),

    // Prometheus scrapes its metrics and sends it the targets of Probe objects.
    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(v.name, v.namespace, labels, selector, [{ from: [$.prometheusPeer], ports: [['TCP', v.port]] }]),
  },
}
