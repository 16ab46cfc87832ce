// Package controller holds Lookout's reconcilers, one sub-package per job:
// prometheus turns Prometheus objects into StatefulSets, config Secrets and rule
// ConfigMaps; resourcestatus writes per-object status on the monitors and rules each
// Prometheus considered; targethealth polls each Prometheus's targets API for the
// TargetsHealthy condition of those bindings.
package controller
