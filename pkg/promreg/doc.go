// Package promreg registers a component's Prometheus collectors in one call, so that every
// component reports a failed registration the same way, and makes the counters, gauges and
// histograms (name and help, no other options) those collectors are.
package promreg
