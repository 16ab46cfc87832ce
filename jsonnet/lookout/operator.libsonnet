// operator.libsonnet: the Lookout operator: its ServiceAccount and RBAC, the Deployment
// (leader-elected replicas), the metrics Service and the ServiceMonitor that scrapes it.
local k = import 'k.libsonnet';

{
  operator: {
    local v = $.values.operator,
    local selector = { 'app.kubernetes.io/name': v.name },
    local labels = $.values.common.labels + selector + {
      'app.kubernetes.io/component': 'controller',
      'app.kubernetes.io/version': $.values.common.version,
    },
    local monitoringResources = [
      'alertmanagers',
      'alertmanagerconfigs',
      'podmonitors',
      'probes',
      'prometheusagents',
      'prometheuses',
      'prometheusrules',
      'scrapeconfigs',
      'servicemonitors',
      'thanosrulers',
    ],
    local write = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    local read = ['get', 'list', 'watch'],

    serviceAccount: k.serviceAccount(v.name, v.namespace, labels),

    clusterRole: k.clusterRole(v.name, labels, [
      k.rule(['monitoring.coreos.com'], monitoringResources, read),
      // status.bindings of monitors and rules, status of Prometheus objects.
      k.rule(['monitoring.coreos.com'], [r + '/status' for r in monitoringResources], ['get', 'update', 'patch']),
      // Owner references that block deletion of their owner.
      k.rule(['monitoring.coreos.com'], ['prometheuses/finalizers', 'alertmanagers/finalizers'], ['update']),
      k.rule(['apps'], ['statefulsets'], write),
      // Generated configuration, rule ConfigMaps, TLS assets, the governing Service; the
      // Secrets and ConfigMaps monitors refer to.
      k.rule([''], ['secrets', 'configmaps', 'services'], write),
      k.rule([''], ['namespaces', 'pods'], read),
      k.rule(['', 'events.k8s.io'], ['events'], ['create', 'patch']),
      // The config-reloader's Role in API-watch mode.
      k.rule(['rbac.authorization.k8s.io'], ['roles', 'rolebindings'], write),
    ]),

    clusterRoleBinding: k.binding('ClusterRoleBinding', v.name, null, labels, 'ClusterRole', v.name, v.namespace),

    // The leader election lease lives in the operator's namespace.
    role: k.role(v.name, v.namespace, labels, [
      k.rule(['coordination.k8s.io'], ['leases'], write),
    ]),

    roleBinding: k.binding('RoleBinding', v.name, v.namespace, labels, 'Role', v.name, v.namespace),

    deployment: k.object('apps/v1', 'Deployment', v.name, v.namespace, labels) {
      spec: {
        replicas: v.replicas,
        selector: { matchLabels: selector },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
        template: {
          metadata: {
            labels: labels,
            annotations: { 'kubectl.kubernetes.io/default-container': 'operator' },
          },
          spec: {
            serviceAccountName: v.name,
            securityContext: k.nonRoot(),
            containers: [{
              name: 'operator',
              image: v.image,
              args: [
                'run',
                '--metrics-bind-address=:%d' % v.metricsPort,
                '--health-probe-bind-address=:%d' % v.probePort,
                '--leader-elect=true',
                '--config-reloader-image=' + v.configReloaderImage,
                '--log-format=json',
                '--log-level=' + v.logLevel,
              ] + (if v.reloaderWatchAPI then ['--reloader-watch-api'] else []) + v.extraArgs,
              env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              ports: [
                { name: 'http-metrics', containerPort: v.metricsPort },
                { name: 'probes', containerPort: v.probePort },
              ],
              livenessProbe: { httpGet: { path: '/healthz', port: 'probes' }, periodSeconds: 20 },
              readinessProbe: { httpGet: { path: '/readyz', port: 'probes' }, periodSeconds: 10 },
              resources: v.resources,
              securityContext: k.restricted,
            }],
          },
        },
      },
    },

    service: k.service(v.name, v.namespace, labels, selector, [['http-metrics', v.metricsPort]]),

    // honorLabels keeps the namespace and name labels of the operator's per-Prometheus
    // metrics (otherwise renamed exported_namespace), as the mixin expects.
    serviceMonitor: k.serviceMonitor(v.name, v.namespace, labels, selector, ['http-metrics'], honorLabels=true),
  },
}
