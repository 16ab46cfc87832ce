// k.libsonnet: the few Kubernetes object builders the stack needs.
{
  // object is an API object with name, namespace (when given) and labels.
  object(apiVersion, kind, name, namespace=null, labels={}):: {
    apiVersion: apiVersion,
    kind: kind,
    metadata: {
      name: name,
      [if namespace != null then 'namespace']: namespace,
      labels: labels,
    },
  },

  serviceAccount(name, namespace, labels):: $.object('v1', 'ServiceAccount', name, namespace, labels) {
    automountServiceAccountToken: true,
  },

  clusterRole(name, labels, rules):: $.object('rbac.authorization.k8s.io/v1', 'ClusterRole', name, null, labels) {
    rules: rules,
  },

  role(name, namespace, labels, rules):: $.object('rbac.authorization.k8s.io/v1', 'Role', name, namespace, labels) {
    rules: rules,
  },

  // binding binds the (Cluster)Role role to a service account.
  binding(kind, name, namespace, labels, roleKind, role, sa, saNamespace)::
    $.object('rbac.authorization.k8s.io/v1', kind, name, namespace, labels) {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: saNamespace }],
    },

  // rule is one PolicyRule.
  rule(groups, resources, verbs):: { apiGroups: groups, resources: resources, verbs: verbs },

  // service selects pods by selector and exposes ports [[name, port], ...].
  service(name, namespace, labels, selector, ports, headless=false):: $.object('v1', 'Service', name, namespace, labels) {
    spec: {
      [if headless then 'clusterIP']: 'None',
      selector: selector,
      ports: [{ name: p[0], port: p[1], targetPort: p[0] } for p in ports],
    },
  },

  // serviceMonitor scrapes the named ports of the Services with matchLabels in namespace.
  serviceMonitor(name, namespace, labels, matchLabels, ports, honorLabels=false)::
    $.object('monitoring.coreos.com/v1', 'ServiceMonitor', name, namespace, labels) {
      spec: {
        selector: { matchLabels: matchLabels },
        namespaceSelector: { matchNames: [namespace] },
        endpoints: [
          { port: p, interval: '30s' } + (if honorLabels then { honorLabels: true } else {})
          for p in ports
        ],
      },
    },

  // restricted is the container security context of the restricted Pod Security Standard.
  restricted:: {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  },

  // nonRoot is the pod security context of the restricted Pod Security Standard.
  nonRoot(uid=65534):: {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    fsGroup: uid,
    seccompProfile: { type: 'RuntimeDefault' },
  },

  // networkPolicy lets the pods podSelector selects be reached only from the sources of
  // ingress ([{ from: [...], ports: [[protocol, port], ...] }, ...]; no `from` means from
  // anywhere) and reach anything.
  networkPolicy(name, namespace, labels, podSelector, ingress)::
    $.object('networking.k8s.io/v1', 'NetworkPolicy', name, namespace, labels) {
      spec: {
        podSelector: { matchLabels: podSelector },
        policyTypes: ['Egress', 'Ingress'],
        egress: [{}],
        ingress: [
          {
            [if std.objectHas(i, 'from') then 'from']: i.from,
            ports: [{ protocol: p[0], port: p[1] } for p in i.ports],
          }
          for i in ingress
        ],
      },
    },

  // fromPods is a NetworkPolicy peer: the pods with matchLabels in namespace.
  fromPods(namespace, matchLabels):: {
    podSelector: { matchLabels: matchLabels },
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
  },

  // podDisruptionBudget keeps all but maxUnavailable (or at least minAvailable) of the
  // selected pods up through voluntary disruptions.
  podDisruptionBudget(name, namespace, labels, matchLabels, minAvailable=null, maxUnavailable=null)::
    $.object('policy/v1', 'PodDisruptionBudget', name, namespace, labels) {
      spec: {
        selector: { matchLabels: matchLabels },
        [if minAvailable != null then 'minAvailable']: minAvailable,
        [if maxUnavailable != null then 'maxUnavailable']: maxUnavailable,
      },
    },
}
