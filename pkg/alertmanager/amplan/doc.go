// Package amplan builds, without calling the API server, every object an Alertmanager
// generates (AlertmanagerPlan): the StatefulSet, the governing Service, the generated
// configuration, web and cluster TLS Secrets, the config-reloader's Role, and the status
// computed from the live StatefulSet. The pieces every kind shares are in pkg/workload.
package amplan
