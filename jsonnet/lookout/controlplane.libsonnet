// controlplane.libsonnet: ServiceMonitors for what Kubernetes runs itself, in the stack's
// namespace and selecting Services elsewhere:
//   kubelet                  the Service kube-system/kubelet the operator keeps
//                            (--kubelet-service; labelled app.kubernetes.io/name=kubelet
//                            whatever its name); its metrics, cAdvisor and probes paths
//   apiServer                the Service default/kubernetes
//   coreDNS                  the Service kube-system/kube-dns (port metrics)
//   kubeScheduler            a Service kube-system with app.kubernetes.io/name=kube-scheduler
//   kubeControllerManager    a Service kube-system with app.kubernetes.io/name=kube-controller-manager
// Clusters made by kubeadm have no Service for the scheduler and the controller manager;
// create them (port https-metrics, 10259 and 10257) or turn those two off.
//
// Prometheus authenticates with its ServiceAccount token; its ClusterRole grants
// nodes/metrics (the kubelet's paths) and the /metrics non-resource URL.
local k = import 'k.libsonnet';

{
  local v = $.values.kubernetesControlPlane,
  local labels(name) = $.values.common.labels + { 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'kubernetes' },
  local saDir = '/var/run/secrets/kubernetes.io/serviceaccount',
  local kubeletNS = std.split(v.kubeletService, '/')[0],

  // monitor selects Services by matchLabels in namespace and scrapes endpoints.
  local monitor(name, namespace, matchLabels, endpoints, jobLabel=null) =
    k.object('monitoring.coreos.com/v1', 'ServiceMonitor', name, v.namespace, labels(name)) {
      spec: {
        [if jobLabel != null then 'jobLabel']: jobLabel,
        selector: { matchLabels: matchLabels },
        namespaceSelector: { matchNames: [namespace] },
        endpoints: endpoints,
      },
    },

  // https is an endpoint on a port that wants Prometheus's ServiceAccount token. The
  // kubelet, the scheduler and the controller manager serve self-signed certificates
  // by default, hence insecureSkipVerify.
  local https(port, extra={}) = {
    port: port,
    scheme: 'https',
    interval: '30s',
    bearerTokenFile: saDir + '/token',
    tlsConfig: { insecureSkipVerify: true },
  } + extra,

  // The metrics_path label tells the three kubelet paths apart.
  local metricsPath = { action: 'replace', sourceLabels: ['__metrics_path__'], targetLabel: 'metrics_path' },

  kubernetesControlPlane: {
    [if v.kubelet then 'serviceMonitorKubelet']: monitor('kubelet', kubeletNS, { 'app.kubernetes.io/name': 'kubelet' }, [
      https('https-metrics', { honorLabels: true, relabelings: [metricsPath] }),
      // cAdvisor's samples carry their own timestamps, which would clash between pods.
      https('https-metrics', { path: '/metrics/cadvisor', honorLabels: true, honorTimestamps: false, relabelings: [metricsPath] }),
      https('https-metrics', { path: '/metrics/probes', honorLabels: true, relabelings: [metricsPath] }),
    ], jobLabel='app.kubernetes.io/name'),

    [if v.apiServer then 'serviceMonitorApiServer']: monitor('kube-apiserver', 'default', { component: 'apiserver', provider: 'kubernetes' }, [
      https('https', { tlsConfig: { caFile: saDir + '/ca.crt', serverName: 'kubernetes' } }),
    ], jobLabel='component'),

    [if v.coreDNS then 'serviceMonitorCoreDNS']: monitor('coredns', 'kube-system', { 'k8s-app': 'kube-dns' }, [
      { port: 'metrics', interval: '15s' },
    ], jobLabel='k8s-app'),

    [if v.kubeScheduler then 'serviceMonitorKubeScheduler']: monitor('kube-scheduler', 'kube-system', { 'app.kubernetes.io/name': 'kube-scheduler' }, [
      https('https-metrics'),
    ], jobLabel='app.kubernetes.io/name'),

    [if v.kubeControllerManager then 'serviceMonitorKubeControllerManager']: monitor('kube-controller-manager', 'kube-system', { 'app.kubernetes.io/name': 'kube-controller-manager' }, [
      https('https-metrics'),
    ], jobLabel='app.kubernetes.io/name'),
  },
}
