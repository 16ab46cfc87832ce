// Package clusterread reads, read-only and with lists only where it can, the objects the
// offline commands work from out of a live cluster: the monitoring.coreos.com objects,
// Namespaces, optionally the Services, Endpoints, EndpointSlices and Pods monitors
// select, and the Secrets and ConfigMaps the objects need. The objects come back as
// manifest documents (Source "cluster"), ready for render.FromDocuments. It backs
// `diff --live` and `lint --live`; Overlay lays the documents of files over them.
package clusterread
