// Package layout names the objects, files and mount paths that the generated configuration,
// the pod spec and the config-reloader must agree on. It follows prometheus-operator's
// names so that existing dashboards, alerts and runbooks keep working.
package layout
