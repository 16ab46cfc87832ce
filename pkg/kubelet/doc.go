// Package kubelet computes the objects that let Prometheus discover every node's kubelet
// through a Service, as prometheus-operator's --kubelet-service does: a headless Service
// with the ports https-metrics (10250), cadvisor (4194) and, optionally, http-metrics
// (10255); an Endpoints object listing one address per node; and EndpointSlices (at most
// 512 endpoints each, one address family per slice) holding the same addresses. Names,
// labels and shapes are upstream's, so the kubelet ServiceMonitor of kube-prometheus and
// of the Helm chart finds the nodes unchanged, and either operator can take the objects
// over from the other.
//
// The package is pure: Build turns a list of Nodes, the live EndpointSlices and Options
// into the desired objects, each carrying the hash of its content; the controller in
// pkg/controller/kubelet reads and writes.
package kubelet
