// Package promanswer streams answers of Prometheus's HTTP API ({"status", "error",
// "data"}) one element at a time, so that an answer of megabytes (ten thousand targets,
// thousands of rules) is never held whole. The target health, rule health and sample
// cost parsers (pkg/targethealth, pkg/rulehealth, pkg/monitorcost) walk their answers
// with it. Pure: no network.
package promanswer
