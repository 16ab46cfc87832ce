// Package priority lets configuration writes go first: a Gate is held while a controller
// that writes generated objects (config Secrets, rule ConfigMaps, StatefulSets) reconciles,
// and the status writers wait for it before each write, so the API server is not busy
// with status when a change reaches the running Prometheus (ADR 0014).
package priority
