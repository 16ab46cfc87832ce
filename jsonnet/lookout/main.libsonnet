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
//
// Every field is an object of Kubernetes objects; values (values.libsonnet) configures
// them all.
(import 'values.libsonnet') +
(import 'setup.libsonnet') +
(import 'operator.libsonnet') +
(import 'prometheus.libsonnet') +
(import 'alertmanager.libsonnet') +
(import 'monitoring.libsonnet')
