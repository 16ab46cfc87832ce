// Package promreg registers a component's Prometheus collectors in one call, so that every
// component reports a failed registration the same way.
package promreg
