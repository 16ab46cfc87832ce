// The Lookout stack: a complete install laid out the way kube-prometheus users know it.
//
//   local lookout = (import 'lookout/main.libsonnet') + {
//     values+:: { common+: { namespace: 'monitoring' }, prometheus+: { replicas: 1 } },
//   };
//   lookout.setup         // the namespace and the CRDs: apply these first
//   lookout.operator      // ServiceAccount, RBAC, Deployment, Service, ServiceMonitor
//   lookout.prometheus    // Prometheus, its RBAC, Service and ServiceMonitor
//   lookout.alertmanager  // Alertmanager, its configuration Secret, Service, ServiceMonitor
//   lookout.mixin         // the alerts and recording rules as a PrometheusRule
//   lookout.dashboards    // the Grafana dashboards as ConfigMaps
//   lookout.grafana                 // Grafana, its data source and dashboard provisioning
//   lookout.nodeExporter            // node-exporter DaemonSet, Service, ServiceMonitor
//   lookout.kubeStateMetrics        // kube-state-metrics, its RBAC, Service, ServiceMonitor
//   lookout.blackboxExporter        // blackbox exporter, its configuration, Service, ServiceMonitor
//   lookout.kubernetesControlPlane  // ServiceMonitors: kubelet, API server, CoreDNS, scheduler, controller manager
//
// Every field is an object of Kubernetes objects; values (values.libsonnet) configures
// them all, and a part turned off (enabled: false, or false for the control plane's
// monitors) is an empty object. components lists the fields in order.
(import 'values.libsonnet') +
(import 'setup.libsonnet') +
(import 'operator.libsonnet') +
(import 'prometheus.libsonnet') +
(import 'alertmanager.libsonnet') +
(import 'monitoring.libsonnet') +
(import 'grafana.libsonnet') +
(import 'nodeexporter.libsonnet') +
(import 'kubestatemetrics.libsonnet') +
(import 'blackboxexporter.libsonnet') +
(import 'controlplane.libsonnet') +
{
  // components are the fields of Kubernetes objects after setup, each with the file
  // name prefix example/stack.jsonnet gives its objects.
  components:: {
    operator: 'operator',
    prometheus: 'prometheus',
    alertmanager: 'alertmanager',
    mixin: 'mixin',
    dashboards: 'dashboard',
    grafana: 'grafana',
    nodeExporter: 'node-exporter',
    kubeStateMetrics: 'kube-state-metrics',
    blackboxExporter: 'blackbox-exporter',
    kubernetesControlPlane: 'kubernetes',
  },
}
