// Package plan is the desired state of one workload instance (a Prometheus, a
// PrometheusAgent, an Alertmanager, a ThanosRuler): every object it generates, in the order
// they are written, and the numbered objects to remove once the pods are updated. The
// builders of pkg/workload make a Plan from an instance and its generated configuration
// without reading the cluster; the instance reconciler applies it, and render prints it.
package plan
