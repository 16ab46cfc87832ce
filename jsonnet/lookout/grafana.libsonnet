// grafana.libsonnet: Grafana with the stack's Prometheus as its data source and the
// mixin's dashboards (the ConfigMaps of monitoring.libsonnet) provisioned from files: the
// Deployment, a Secret with the data source, a ConfigMap with the dashboard provider, the
// ServiceAccount, Service, ServiceMonitor and NetworkPolicy.
//
// Grafana calls no Kubernetes API: its ServiceAccount has no role and no token.
local k = import 'k.libsonnet';

{
  local v = $.values.grafana,
  local selector = { 'app.kubernetes.io/name': v.name },
  local labels = $.values.common.labels + selector + {
    'app.kubernetes.io/component': 'grafana',
    'app.kubernetes.io/version': v.version,
  },
  local definitions = '/grafana-dashboard-definitions/0',

  grafana: if !v.enabled then {} else {
    serviceAccount: k.serviceAccount(v.name, v.namespace, labels) {
      automountServiceAccountToken: false,
    },

    // The data source every dashboard of the mixin picks by default (their datasource
    // variable lists the Prometheus data sources).
    datasources: k.object('v1', 'Secret', v.name + '-datasources', v.namespace, labels) {
      type: 'Opaque',
      stringData: {
        'datasources.yaml': std.manifestYamlDoc({
          apiVersion: 1,
          datasources: [{
            name: 'prometheus',
            uid: 'prometheus',
            type: 'prometheus',
            access: 'proxy',
            orgId: 1,
            url: v.datasourceURL,
            isDefault: true,
            editable: false,
            jsonData: { timeInterval: $.values.prometheus.scrapeInterval },
          }],
        }, quote_keys=false),
      },
    },

    // One file provider: the dashboards under definitions, in one folder.
    dashboardProviders: k.object('v1', 'ConfigMap', v.name + '-dashboards', v.namespace, labels) {
      data: {
        'dashboards.yaml': std.manifestYamlDoc({
          apiVersion: 1,
          providers: [{
            name: 'lookout',
            orgId: 1,
            folder: v.folder,
            type: 'file',
            disableDeletion: true,
            allowUiUpdates: false,
            options: { path: definitions },
          }],
        }, quote_keys=false),
      },
    },

    deployment: k.object('apps/v1', 'Deployment', v.name, v.namespace, labels) {
      local dashboards = $.dashboards,
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
            automountServiceAccountToken: false,
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            securityContext: k.nonRoot(),
            containers: [{
              name: v.name,
              image: v.image,
              env: [
                { name: 'GF_PATHS_DATA', value: '/var/lib/grafana' },
                { name: 'GF_PATHS_PROVISIONING', value: '/etc/grafana/provisioning' },
              ],
              ports: [{ name: 'http', containerPort: 3000 }],
              readinessProbe: { httpGet: { path: '/api/health', port: 'http' } },
              resources: v.resources,
              securityContext: k.restricted,
              volumeMounts: [
                { name: 'storage', mountPath: '/var/lib/grafana' },
                { name: 'tmp', mountPath: '/tmp' },
                { name: 'datasources', mountPath: '/etc/grafana/provisioning/datasources', readOnly: true },
                { name: 'dashboard-providers', mountPath: '/etc/grafana/provisioning/dashboards', readOnly: true },
              ] + [
                { name: dashboards[d].metadata.name, mountPath: definitions + '/' + d, readOnly: true }
                for d in std.objectFields(dashboards)
              ],
            }],
            volumes: [
              { name: 'storage', emptyDir: {} },
              { name: 'tmp', emptyDir: {} },
              { name: 'datasources', secret: { secretName: v.name + '-datasources' } },
              { name: 'dashboard-providers', configMap: { name: v.name + '-dashboards' } },
            ] + [
              { name: dashboards[d].metadata.name, configMap: { name: dashboards[d].metadata.name } }
              for d in std.objectFields(dashboards)
            ],
          },
        },
      },
    },

    service: k.service(v.name, v.namespace, labels, selector, [['http', 3000]]),

    serviceMonitor: k.serviceMonitor(v.name, v.namespace, labels, selector, ['http']) {
      spec+: { endpoints: [e { interval: '15s' } for e in super.endpoints] },
    },

    // Prometheus scrapes it; people reach it with kubectl port-forward, which the policy
    // does not stop.
    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(v.name, v.namespace, labels, selector, [{ from: [$.prometheusPeer], ports: [['TCP', 3000]] }]),
  },
}
