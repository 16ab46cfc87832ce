// The recording rule file.
(import 'mixin.libsonnet').prometheusRules
