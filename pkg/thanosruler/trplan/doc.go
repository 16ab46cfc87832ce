// Package trplan builds, without calling the API server, every object a ThanosRuler
// generates (ThanosRulerPlan): the rule ConfigMaps, the StatefulSet, the governing
// Service, the remote-write and web configuration Secrets, and the status computed from
// the live StatefulSet. The pieces every kind shares are in pkg/workload.
package trplan
