// crds.libsonnet: the monitoring.coreos.com CustomResourceDefinitions, read from the
// generated YAML in example/crds (make generate). The test in test/jsonnet checks that
// every file there is listed here.
local parse(s) = local d = std.parseYaml(s); if std.isArray(d) then d[0] else d;
{
  alertmanagerconfigs: parse(importstr '../../example/crds/monitoring.coreos.com_alertmanagerconfigs.yaml'),
  alertmanagers: parse(importstr '../../example/crds/monitoring.coreos.com_alertmanagers.yaml'),
  podmonitors: parse(importstr '../../example/crds/monitoring.coreos.com_podmonitors.yaml'),
  probes: parse(importstr '../../example/crds/monitoring.coreos.com_probes.yaml'),
  prometheusagents: parse(importstr '../../example/crds/monitoring.coreos.com_prometheusagents.yaml'),
  prometheuses: parse(importstr '../../example/crds/monitoring.coreos.com_prometheuses.yaml'),
  prometheusrules: parse(importstr '../../example/crds/monitoring.coreos.com_prometheusrules.yaml'),
  scrapeconfigs: parse(importstr '../../example/crds/monitoring.coreos.com_scrapeconfigs.yaml'),
  servicemonitors: parse(importstr '../../example/crds/monitoring.coreos.com_servicemonitors.yaml'),
  thanosrulers: parse(importstr '../../example/crds/monitoring.coreos.com_thanosrulers.yaml'),
}
