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
    // The kinds it reconciles or selects (the same least-privilege rules as
    // example/install/20-rbac.yaml, which explains each one).
    local monitoringResources = ['prometheuses', 'prometheusagents', 'servicemonitors', 'podmonitors', 'probes', 'scrapeconfigs', 'prometheusrules', 'alertmanagers', 'thanosrulers'],
    local read = ['get', 'list', 'watch'],
    // The operator's arguments.
    local args = [
      'run',
      '--metrics-bind-address=:%d' % v.metricsPort,
      '--health-probe-bind-address=:%d' % v.probePort,
      '--leader-elect=true',
      '--config-reloader-image=' + v.configReloaderImage,
      '--log-format=json',
      '--log-level=' + v.logLevel,
    ] + (if v.reloaderWatchAPI then ['--reloader-watch-api'] else [])
    // The kubelet ServiceMonitor selects the Service this keeps.
    + (if $.values.kubernetesControlPlane.kubelet then ['--kubelet-service=' + $.values.kubernetesControlPlane.kubeletService] else [])
    + v.extraArgs,
    // runs says whether the operator's arguments hold flag (with or without a value).
    local runs(flag) = std.length([a for a in args if a == flag || (std.startsWith(a, flag + '=') && a != flag + '=false')]) > 0,

    serviceAccount: k.serviceAccount(v.name, v.namespace, labels),

    clusterRole: k.clusterRole(v.name, labels, [
      k.rule(['monitoring.coreos.com'], monitoringResources, read),
      k.rule(['monitoring.coreos.com'], ['alertmanagerconfigs'], read),
      // Release prometheus-operator's status-cleanup finalizer from objects taken over.
      k.rule(['monitoring.coreos.com'], ['prometheuses', 'prometheusagents', 'alertmanagers', 'thanosrulers'], ['patch']),
      k.rule(['monitoring.coreos.com'], [r + '/status' for r in monitoringResources + ['alertmanagerconfigs']], ['get', 'update', 'patch']),
      // Owner references that block the deletion of their Prometheus, on clusters with
      // the OwnerReferencesPermissionEnforcement admission plugin.
      k.rule(['monitoring.coreos.com'], ['prometheuses/finalizers', 'prometheusagents/finalizers', 'alertmanagers/finalizers', 'thanosrulers/finalizers'], ['update']),
      k.rule(['apps'], ['statefulsets', 'daemonsets'], read + ['create', 'update', 'delete']),
      k.rule([''], ['secrets', 'configmaps'], read + ['create', 'update', 'delete']),
      k.rule([''], ['services'], read + ['create', 'update']),
      k.rule([''], ['namespaces'], read),
      k.rule(['', 'events.k8s.io'], ['events'], ['create', 'patch']),
      // The StorageClass a volumeClaimTemplate names must exist (skipped without it).
      k.rule(['storage.k8s.io'], ['storageclasses'], ['get']),
      // Target health (--target-health-interval, on by default): the Prometheus pods whose
      // targets API is read.
      k.rule([''], ['pods'], ['list']),
    ]
    // The rules of the optional features the Deployment's arguments switch on (the files
    // of example/rbac-optional/).
    + (if runs('--reloader-watch-api') || runs('--reloader-report-config') then [
         k.rule(['rbac.authorization.k8s.io'], ['roles', 'rolebindings'], read + ['create', 'update', 'delete']),
       ] else [])
    + (if runs('--kubelet-service') then [
         k.rule([''], ['nodes'], ['list', 'watch']),
         k.rule([''], ['endpoints'], read + ['create', 'update']),
         k.rule(['discovery.k8s.io'], ['endpointslices'], read + ['create', 'update', 'delete']),
         k.rule([''], ['services/finalizers'], ['update']),
       ] else [])
    + (if runs('--repair-policy-for-statefulsets=evict') || runs('--repair-policy-for-statefulsets=delete') then [
         k.rule([''], ['pods'], ['list', 'delete']),
         k.rule([''], ['pods/eviction'], ['create']),
       ] else [])
    + (if runs('--reloader-report-config') then [
         k.rule([''], ['pods'], ['list', 'watch']),
         k.rule([''], ['pods/status'], ['patch']),
       ] else [])
    + (if runs('--install-crds') then [
         k.rule(['apiextensions.k8s.io'], ['customresourcedefinitions'], ['get', 'create', 'patch']),
       ] else [])),

    clusterRoleBinding: k.binding('ClusterRoleBinding', v.name, null, labels, 'ClusterRole', v.name, v.name, v.namespace),

    // The leader election lease lives in the operator's namespace.
    leaderElectionRole: k.role(v.name + '-leader-election', v.namespace, labels, [
      k.rule(['coordination.k8s.io'], ['leases'], ['get', 'create', 'update']),
    ]),

    leaderElectionRoleBinding: k.binding('RoleBinding', v.name + '-leader-election', v.namespace, labels, 'Role', v.name + '-leader-election', v.name, v.namespace),

    deployment: k.object('apps/v1', 'Deployment', v.name, v.namespace, labels) {
      spec: {
        replicas: v.replicas,
        selector: { matchLabels: selector },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
        template: {
          metadata: {
            labels: labels,
            annotations: { 'kubectl.kubernetes.io/default-container': v.name },
          },
          spec: {
            serviceAccountName: v.name,
            securityContext: k.nonRoot(65532) { fsGroup:: null },
            terminationGracePeriodSeconds: 30,
            containers: [{
              name: v.name,
              image: v.image,
              args: args,
              env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              ports: [
                { name: 'http-metrics', containerPort: v.metricsPort },
                { name: 'probes', containerPort: v.probePort },
                { name: 'webhook', containerPort: 9443 },
              ],
              livenessProbe: { httpGet: { path: '/healthz', port: 'probes' }, periodSeconds: 10 },
              readinessProbe: { httpGet: { path: '/readyz', port: 'probes' }, periodSeconds: 5 },
              resources: v.resources,
              securityContext: k.restricted,
              // The root file system is read-only; the webhook certificate directory and
              // other scratch files go to /tmp.
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            }],
            volumes: [{ name: 'tmp', emptyDir: {} }],
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [{
                  weight: 100,
                  podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: selector } },
                }],
              },
            },
          },
        },
      },
    },

    service: k.service(v.name, v.namespace, labels, selector, [['http-metrics', v.metricsPort]]),

    // honorLabels keeps the namespace and name labels of the operator's per-Prometheus
    // metrics (otherwise renamed exported_namespace), as the mixin expects.
    serviceMonitor: k.serviceMonitor(v.name, v.namespace, labels, selector, ['http-metrics'], honorLabels=true),

    // Prometheus scrapes the metrics; the API server calls the admission webhook (when
    // example/webhook is installed) from the control plane's address, which no pod
    // selector matches, so the webhook port is open to all.
    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(v.name, v.namespace, labels, selector, [
        { from: [$.prometheusPeer], ports: [['TCP', v.metricsPort]] },
        { ports: [['TCP', 9443]] },
      ]),
  },
}
