// Package rules turns PrometheusRule objects into Prometheus rule files. It is pure: it
// never calls the API server. It validates rules with Prometheus's own rulefmt and PromQL
// parser for a given Prometheus version (Validate, Validator), enforces a namespace label by
// rewriting the PromQL syntax tree (EnforceNamespaceLabel), renders one rule file per object
// with a header that records where it came from (RenderFile, ParseHeader, FindServed, for
// serving the last accepted version of an object), and packs the files into size-limited
// ConfigMaps deterministically (Pack, PackStable).
package rules
