// alertmanager.libsonnet: alerts on the Alertmanagers the operator runs (StatefulSets
// alertmanager-<name>). One Alertmanager is what _config.alertmanagerClusterLabels name
// together; its replicas are told apart by _config.alertmanagerReplicaLabel.
local alert = import 'alert.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local cluster = c.alertmanagerClusterLabels,
    local replica = c.alertmanagerReplicaLabel,
    local p = c {
      gCluster: alert.by(c, cluster),
      gReplica: alert.by(c, cluster + [replica]),
      gIntegration: alert.by(c, cluster + ['integration']),
    },
    // How the annotations name one Alertmanager and one of its replicas, e.g.
    // "lookout/alertmanager-main" and "alertmanager-main-0".
    local name = std.join('/', ['{{ $labels.%s }}' % l for l in cluster]),
    local member = '{{ $labels.%s }}' % replica,
    local n = { name: name, member: member },

    // _config.alertmanagerAlerts: these cover what the upstream Alertmanager mixin does.
    groups+: if !c.alertmanagerAlerts then [] else [{
      name: 'lookout-alertmanager',
      rules: [
        alert.new(
          c,
          'LookoutAlertmanagerBadConfig',
          |||
            max by (%(gReplica)s) (max_over_time(alertmanager_config_last_reload_successful{%(alertmanagerSelector)s}[5m])) == 0
          ||| % p,
          'critical',
          'Alertmanager %(name)s failed to load its configuration.' % n,
          'The last configuration reload of replica %(member)s of Alertmanager %(name)s failed: it routes alerts with its previous configuration, and would not start again.' % n,
          '10m',
        ),
        // alertmanager_config_hash is a number (the hash of the loaded file); count_values
        // turns each distinct one into a series.
        alert.new(
          c,
          'LookoutAlertmanagerConfigInconsistent',
          |||
            count by (%(gCluster)s) (
              count_values by (%(gCluster)s) ("config_hash", max by (%(gReplica)s) (alertmanager_config_hash{%(alertmanagerSelector)s}))
            ) > 1
          ||| % p,
          'warning',
          'The replicas of Alertmanager %(name)s run different configurations.' % n,
          'The replicas of Alertmanager %(name)s have run {{ $value }} different configurations for 15 minutes: they route, group and silence alerts differently.' % n,
          '15m',
        ),
        alert.new(
          c,
          'LookoutAlertmanagerMembersInconsistent',
          |||
            max by (%(gReplica)s) (max_over_time(alertmanager_cluster_members{%(alertmanagerSelector)s}[5m]))
            < on (%(gCluster)s) group_left ()
            count by (%(gCluster)s) (max by (%(gReplica)s) (max_over_time(alertmanager_cluster_members{%(alertmanagerSelector)s}[5m])))
          ||| % p,
          'warning',
          'Replica %(member)s of Alertmanager %(name)s does not see all its peers.' % n,
          'Replica %(member)s of Alertmanager %(name)s has seen only {{ $value }} cluster members for 15 minutes, fewer than the replicas scraped: notifications may be sent twice and silences are not shared.' % n,
          '15m',
        ),
        alert.new(
          c,
          'LookoutAlertmanagerNotificationsFailing',
          |||
            sum by (%(gIntegration)s) (rate(alertmanager_notifications_failed_total{%(alertmanagerSelector)s}[5m]))
            /
            sum by (%(gIntegration)s) (rate(alertmanager_notifications_total{%(alertmanagerSelector)s}[5m]))
            > %(alertmanagerNotificationFailureRatio)g
          ||| % p,
          'warning',
          'Alertmanager %(name)s fails to send {{ $labels.integration }} notifications.' % n,
          '{{ $value | humanizePercentage }} of the {{ $labels.integration }} notifications Alertmanager %(name)s attempted over the last 5 minutes failed: those alerts reach nobody or arrive late.' % n,
          '15m',
        ),
        alert.new(
          c,
          'LookoutAlertmanagerClusterDown',
          |||
            count by (%(gCluster)s) (avg_over_time(up{%(alertmanagerSelector)s}[5m]) < 0.5)
            /
            count by (%(gCluster)s) (up{%(alertmanagerSelector)s})
            >= 0.5
          ||| % p,
          'critical',
          'Half or more of the replicas of Alertmanager %(name)s are down.' % n,
          '{{ $value | humanizePercentage }} of the replicas of Alertmanager %(name)s have failed most of their scrapes for 10 minutes: alerts may not be delivered.' % n,
          '5m',
        ),
        alert.new(
          c,
          'LookoutAlertmanagerCrashlooping',
          |||
            max by (%(gReplica)s) (changes(process_start_time_seconds{%(alertmanagerSelector)s}[15m])) > %(alertmanagerRestarts)d
          ||| % p,
          'warning',
          'Replica %(member)s of Alertmanager %(name)s keeps restarting.' % n,
          'Replica %(member)s of Alertmanager %(name)s has restarted {{ $value }} times in 15 minutes: the cluster keeps running with one replica fewer.' % n,
          '5m',
        ),
      ],
    }],
  },
}
