// Package workload is the shared core of the pod and plan builders of every instance
// kind (pkg/prometheus/promplan, pkg/alertmanager/amplan, pkg/thanosruler/trplan): the
// config-reloader sidecar, the web configuration and its TLS sources, storage, probes,
// the StatefulSet skeleton and its input hash, the merge of the user's containers and
// arguments, the operator's Options, the reloader's RBAC, the check of a user-provided
// governing Service, the StatefulSet status and repair, and image resolution. Nothing
// here calls the API server, and every builder is deterministic, so the controllers can
// compare hashes and write only when the desired object changed.
package workload
