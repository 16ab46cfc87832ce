// jsonnet -m DIR dashboards.jsonnet writes one file per dashboard.
(import 'mixin.libsonnet').grafanaDashboards
