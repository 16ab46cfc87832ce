// Package assets resolves the Secret and ConfigMap keys that monitors and Prometheus
// objects reference. Static serves objects held in memory (offline rendering, tests);
// the controller's store reads referenced objects through the API on demand and caches
// them by resourceVersion.
package assets
