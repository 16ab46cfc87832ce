// common.libsonnet: what the dashboards share: the data source and cluster
// variables, and dashboard.new with the mixin's tags, refresh and time zone.
local d = import '../lib/dashboard.libsonnet';

{
  // clusterMatcher selects the chosen cluster; with one cluster the variable is hidden
  // and matches everything, series without the label included.
  clusterMatcher(c):: '%s=~"$cluster"' % c.clusterLabel,

  variables(c, clusterSeries):: [
    d.variable.datasource(),
    d.variable.query('cluster', 'Cluster', clusterSeries, c.clusterLabel,
                     includeAll=!c.showMultiCluster, hide=!c.showMultiCluster, allValue='.*'),
  ],

  dashboard(c, key, title, description, variables, rows)::
    d.dashboard.new(
      c.dashboardUIDs[key],
      c.dashboardPrefix + title,
      rows,
      variables=variables,
      tags=c.dashboardTags,
      description=description,
      refresh=c.dashboardRefresh,
      timezone=c.dashboardTimezone,
    ),
}
