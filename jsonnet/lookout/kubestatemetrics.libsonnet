// kubestatemetrics.libsonnet: kube-state-metrics: a Deployment that lists and watches the
// Kubernetes objects it reports on, with the ClusterRole for exactly those, a headless
// Service for its metrics and its own telemetry, the ServiceMonitor and a NetworkPolicy.
local k = import 'k.libsonnet';

{
  local v = $.values.kubeStateMetrics,
  local selector = { 'app.kubernetes.io/name': v.name },
  local labels = $.values.common.labels + selector + {
    'app.kubernetes.io/component': 'exporter',
    'app.kubernetes.io/version': v.version,
  },
  local lw = ['list', 'watch'],

  kubeStateMetrics: if !v.enabled then {} else {
    serviceAccount: k.serviceAccount(v.name, v.namespace, labels),

    // The resources of kube-state-metrics's default --resources, list and watch only.
    clusterRole: k.clusterRole(v.name, labels, [
      k.rule([''], [
        'configmaps',
        'secrets',
        'nodes',
        'pods',
        'services',
        'serviceaccounts',
        'resourcequotas',
        'replicationcontrollers',
        'limitranges',
        'persistentvolumeclaims',
        'persistentvolumes',
        'namespaces',
        'endpoints',
      ], lw),
      k.rule(['apps'], ['statefulsets', 'daemonsets', 'deployments', 'replicasets'], lw),
      k.rule(['batch'], ['cronjobs', 'jobs'], lw),
      k.rule(['autoscaling'], ['horizontalpodautoscalers'], lw),
      k.rule(['policy'], ['poddisruptionbudgets'], lw),
      k.rule(['certificates.k8s.io'], ['certificatesigningrequests'], lw),
      k.rule(['discovery.k8s.io'], ['endpointslices'], lw),
      k.rule(['storage.k8s.io'], ['storageclasses', 'volumeattachments'], lw),
      k.rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], lw),
      k.rule(['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingressclasses'], lw),
      k.rule(['coordination.k8s.io'], ['leases'], lw),
    ]),

    clusterRoleBinding: k.binding('ClusterRoleBinding', v.name, null, labels, 'ClusterRole', v.name, v.name, v.namespace),

    deployment: k.object('apps/v1', 'Deployment', v.name, v.namespace, labels) {
      spec: {
        replicas: 1,
        selector: { matchLabels: selector },
        template: {
          metadata: {
            labels: labels,
            annotations: { 'kubectl.kubernetes.io/default-container': v.name },
          },
          spec: {
            serviceAccountName: v.name,
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            securityContext: k.nonRoot() { fsGroup:: null },
            containers: [{
              name: v.name,
              image: v.image,
              args: ['--port=8080', '--telemetry-port=8081'],
              ports: [
                { name: 'http-metrics', containerPort: 8080 },
                { name: 'telemetry', containerPort: 8081 },
              ],
              livenessProbe: { httpGet: { path: '/livez', port: 'http-metrics' }, initialDelaySeconds: 5, timeoutSeconds: 5 },
              readinessProbe: { httpGet: { path: '/readyz', port: 'telemetry' }, initialDelaySeconds: 5, timeoutSeconds: 5 },
              resources: v.resources,
              securityContext: k.restricted,
            }],
          },
        },
      },
    },

    service: k.service(v.name, v.namespace, labels, selector, [['http-metrics', 8080], ['telemetry', 8081]], headless=true),

    // honorLabels keeps the namespace, pod and container labels of the objects reported
    // on, instead of those of the kube-state-metrics pod.
    serviceMonitor: k.serviceMonitor(v.name, v.namespace, labels, selector, ['http-metrics', 'telemetry']) {
      spec+: {
        jobLabel: 'app.kubernetes.io/name',
        endpoints: [
          super.endpoints[0] { honorLabels: true, scrapeTimeout: '30s' },
          super.endpoints[1],
        ],
      },
    },

    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(v.name, v.namespace, labels, selector, [{ from: [$.prometheusPeer], ports: [['TCP', 8080], ['TCP', 8081]] }]),
  },
}
