// Package pipeline is the step from a Prometheus (or PrometheusAgent view) and the
// monitors it may select to its generated configuration and the verdict on every monitor:
// compile the selectors, select, generate, merge generation's verdicts into selection's.
// The controller and `lookout-operator render` both run it, so what render says is what
// the operator does.
package pipeline
