// Package amctrl reconciles Alertmanager objects: it reads the user's config Secret
// and the selected AlertmanagerConfigs, asks a ConfigGenerator for the configuration,
// writes the generated config, TLS assets, web and cluster TLS config Secrets, the
// governing Service and the StatefulSet (pkg/workload) through the shared write path
// (pkg/controller/write, pkg/apply), and reports status, as the Prometheus controller
// does.
package amctrl
