// Package layout names the objects, files and mount paths that the generated configuration,
// the pod spec and the config-reloader must agree on. It follows prometheus-operator's
// names so that existing dashboards, alerts and runbooks keep working.
//
// Generated object names come in one style: a value per instance whose methods name its
// objects, Prometheus(name) and Agent(name) (an Instance), Alertmanager(name) and
// ThanosRuler(name); for example layout.Alertmanager(a.Name).GeneratedSecret().
package layout
