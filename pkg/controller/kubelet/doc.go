// Package kubelet runs prometheus-operator's kubelet endpoints controller
// (--kubelet-service): it keeps a headless Service, its Endpoints and/or EndpointSlices
// listing every selected node's kubelet, as built by pkg/kubelet, so the usual kubelet
// and cAdvisor ServiceMonitors find every node. It watches the nodes, reconciles on a
// change that matters and every sync period, writes only through the Applier, takes over
// the objects upstream created (app.kubernetes.io/managed-by=prometheus-operator) and
// never writes a Service or Endpoints object of that name that someone else made.
package kubelet
