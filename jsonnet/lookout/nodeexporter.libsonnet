// nodeexporter.libsonnet: node-exporter on every Linux node: a DaemonSet on the host
// network and PID namespace that reads the host's /proc, /sys and root file system, its
// ServiceAccount, a headless Service, the ServiceMonitor that scrapes it and a
// NetworkPolicy.
//
// node-exporter calls no Kubernetes API, so its ServiceAccount has no role and no token.
// It listens on the node's port directly (kube-prometheus puts a kube-rbac-proxy in front
// of it instead; see Documentation/monitoring.md).
local k = import 'k.libsonnet';

{
  local v = $.values.nodeExporter,
  local selector = { 'app.kubernetes.io/name': v.name },
  local labels = $.values.common.labels + selector + {
    'app.kubernetes.io/component': 'exporter',
    'app.kubernetes.io/version': v.version,
  },
  // Virtual interfaces of containers: their traffic is counted on the pods.
  local virtualDevices = '^(veth.*|[a-f0-9]{15})$',

  nodeExporter: if !v.enabled then {} else {
    serviceAccount: k.serviceAccount(v.name, v.namespace, labels) {
      automountServiceAccountToken: false,
    },

    daemonSet: k.object('apps/v1', 'DaemonSet', v.name, v.namespace, labels) {
      spec: {
        selector: { matchLabels: selector },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
        template: {
          metadata: {
            labels: labels,
            annotations: { 'kubectl.kubernetes.io/default-container': v.name },
          },
          spec: {
            serviceAccountName: v.name,
            automountServiceAccountToken: false,
            hostNetwork: true,
            hostPID: true,
            priorityClassName: 'system-cluster-critical',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            // Every node, tainted or not.
            tolerations: [{ operator: 'Exists' }],
            securityContext: k.nonRoot() { fsGroup:: null },
            containers: [{
              name: v.name,
              image: v.image,
              args: [
                '--web.listen-address=:%d' % v.port,
                '--path.procfs=/host/proc',
                '--path.sysfs=/host/sys',
                '--path.rootfs=/host/root',
                '--path.udev.data=/host/root/run/udev/data',
                '--no-collector.wifi',
                '--no-collector.hwmon',
                '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|run/k3s/containerd/.+|var/lib/docker/.+|var/lib/kubelet/pods/.+)($|/)',
                '--collector.netclass.ignored-devices=' + virtualDevices,
                '--collector.netdev.device-exclude=' + virtualDevices,
              ],
              ports: [{ name: 'http-metrics', containerPort: v.port, hostPort: v.port, protocol: 'TCP' }],
              readinessProbe: { httpGet: { path: '/', port: 'http-metrics' }, periodSeconds: 10 },
              resources: v.resources,
              securityContext: k.restricted,
              volumeMounts: [
                { name: 'proc', mountPath: '/host/proc', readOnly: true },
                { name: 'sys', mountPath: '/host/sys', readOnly: true, mountPropagation: 'HostToContainer' },
                { name: 'root', mountPath: '/host/root', readOnly: true, mountPropagation: 'HostToContainer' },
              ],
            }],
            volumes: [
              { name: 'proc', hostPath: { path: '/proc' } },
              { name: 'sys', hostPath: { path: '/sys' } },
              { name: 'root', hostPath: { path: '/' } },
            ],
          },
        },
      },
    },

    service: k.service(v.name, v.namespace, labels, selector, [['http-metrics', v.port]], headless=true),

    // instance is the node's name rather than its address.
    serviceMonitor: k.serviceMonitor(v.name, v.namespace, labels, selector, ['http-metrics']) {
      spec+: {
        jobLabel: 'app.kubernetes.io/name',
        endpoints: [e {
          interval: '15s',
          relabelings: [{ action: 'replace', sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'instance' }],
        } for e in super.endpoints],
      },
    },

    // On the host network the pods are outside most network plugins' policies; the
    // policy says what is meant, for the plugins that do apply it.
    [if $.values.common.networkPolicies then 'networkPolicy']:
      k.networkPolicy(v.name, v.namespace, labels, selector, [{ from: [$.prometheusPeer], ports: [['TCP', v.port]] }]),
  },
}
