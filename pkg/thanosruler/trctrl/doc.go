// Package trctrl reconciles ThanosRuler objects: the rule ConfigMaps built from the
// selected PrometheusRules (package rulefiles, shared with the Prometheus controller, in
// Thanos's rule format), the remote-write configuration Secret, the TLS assets and web
// configuration Secrets, the governing Service thanos-ruler-operated and the StatefulSet
// (package workload), then the status of the ThanosRuler and of each PrometheusRule it
// selected (bindings under thanosrulers).
package trctrl
