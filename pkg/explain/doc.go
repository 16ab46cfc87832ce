// Package explain traces one monitor, Service or Pod through the chain a Prometheus
// follows to scrape it: the operator's instance selection and watched namespaces, the
// Prometheus's monitor and namespace selectors, generation's verdict on the monitor
// (pkg/pipeline, the step the controller runs), then Prometheus's own Kubernetes
// discovery (discovery/kubernetes) for each generated job and Prometheus's own relabeling
// (scrape.PopulateLabels, model/relabel) of every discovered target: kept, with its final
// labels and scrape URL, or dropped by relabel_configs[N], with the values that rule saw.
//
// Discovery reads an API server through an http.Handler: a loopback proxy to the live
// cluster (with the user's credentials, so it sees what the user may see) or a read-only
// stand-in serving objects read from files. It backs `lookout-operator explain`.
package explain
