// Package instance is the one reconciler of the kinds that own workloads (Prometheus,
// PrometheusAgent, Alertmanager, ThanosRuler). It runs the lifecycle every kind shares:
// read the object, check that this operator manages it (namespace scope, controller ID,
// instance selector), skip it while it is deleted or paused, apply its objects, write its
// status, count the outcome in the lookout_* and prometheus-operator metrics, and report a
// failure as an event. Each kind supplies only its own steps (Steps): how to read it, what
// to apply, what its status says.
package instance
