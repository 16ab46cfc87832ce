// Package reloadertest runs a real Prometheus process (the repository's bin/prometheus,
// built from its Go module) for the reloader's tests and benchmarks: start it on a free
// loopback port with the lifecycle API, read the config it loaded, stop and restart it.
package reloadertest
