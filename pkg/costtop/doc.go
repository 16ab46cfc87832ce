// Package costtop is `lookout-operator top`: for each Prometheus in the cluster, the
// monitors and namespaces whose scrapes cost it most (samples and series added per
// scrape). It reads, with the user's credentials and nothing else, the Prometheus
// objects and their pods, then asks one ready pod per shard, through the API server's
// pod proxy, the same two questions the operator's poll asks (the active targets and
// one instant query) and joins them with pkg/monitorcost (ADR 0034). It writes
// nothing.
package costtop
