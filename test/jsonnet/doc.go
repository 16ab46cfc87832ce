// Package jsonnet holds the tests of the project's jsonnet: the monitoring mixin
// (jsonnet/mixin) and the stack library (jsonnet/lookout) with its rendered example
// (example/stack). They run with go-jsonnet inside `go test`: every file compiles and
// lints clean; alerts and recording rules pass rulefmt, the operator's own rule
// validator and promtool's unit tests; every PromQL expression parses and every metric it
// names exists on a running operator, config-reloader and Prometheus; dashboards are well
// formed; example/stack is up to date and applies to a real API server, where the operator
// runs with the stack's RBAC and a real Prometheus evaluates the rules and the dashboard
// queries against the operator's and the reloader's series.
package jsonnet
