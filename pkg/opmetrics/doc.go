// Package opmetrics exposes the operator metrics of prometheus-operator
// (prometheus_operator_*), with its names, labels and meaning, next to Lookout's own
// lookout_* metrics, so the alerts and dashboards of kube-prometheus and the Helm chart keep
// working after an install switches to Lookout. One Controller holds the families of one
// controller ("prometheus"), labelled controller="<name>" as prometheus-operator labels
// them, the spec_* families of the objects it reconciles among them; RequestCounter counts
// the list and watch requests the operator's client makes; RegisterOperator adds the
// operator-wide families (build information, feature gates, the Kubernetes client's
// requests, the controllers' work queues).
package opmetrics
