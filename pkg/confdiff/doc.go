// Package confdiff compares what the operator generates for two sets of manifests: the
// Prometheus configuration, rule files and Alertmanager configuration of each instance,
// compared as data (parsed YAML; map keys and lists whose order means nothing, such as
// scrape jobs keyed by job_name, are put in one order first), and written as a unified
// diff whose hunks name the objects that caused them, or as a summary. It is pure: the
// caller renders the files (pkg/render) and names their sources. It backs
// `lookout-operator diff`.
package confdiff
