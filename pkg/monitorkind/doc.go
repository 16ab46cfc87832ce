// Package monitorkind is the one table of the monitor kinds a Prometheus selects
// (ServiceMonitor, PodMonitor, Probe, ScrapeConfig): for each, its API names, the spec
// fields that select it, the prefix of its generated job names, and the typed operations
// (list, select, decode) the controller, the pipeline, render, explain, status and target
// health run over every kind. A Set holds the monitors of one Prometheus by kind.
//
// Adding a monitor kind: a Kind here (and its Set field), its job rendering in pkg/prometheus/promcfg
// (a file of its own and one case in renderJobs), and nothing else.
package monitorkind
