// jsonnet -S -e "std.manifestYamlDoc(import 'alerts.jsonnet')" writes the alerting rule file.
(import 'mixin.libsonnet').prometheusAlerts
