{{/* The rules on namespaced objects, in the watched namespaces. */}}
{{- define "lookout.rules.namespaced" }}
  # Read the monitoring objects it reconciles or selects.
  - apiGroups: [monitoring.coreos.com]
    resources: [prometheuses, prometheusagents, servicemonitors, podmonitors, probes, scrapeconfigs, prometheusrules, alertmanagers, thanosrulers]
    verbs: [get, list, watch]
  # Release prometheus-operator's monitoring.coreos.com/status-cleanup finalizer from the
  # objects taken over from it (their deletion never completes otherwise).
  - apiGroups: [monitoring.coreos.com]
    resources: [prometheuses, prometheusagents, alertmanagers, thanosrulers]
    verbs: [patch]
  # AlertmanagerConfigs an Alertmanager selects.
  - apiGroups: [monitoring.coreos.com]
    resources: [alertmanagerconfigs]
    verbs: [get, list, watch]
  # Set owner references to Prometheus, Alertmanager and ThanosRuler objects on what it generates
  # (needed where OwnerReferencesPermissionEnforcement is on).
  - apiGroups: [monitoring.coreos.com]
    resources: [prometheuses/finalizers, prometheusagents/finalizers, alertmanagers/finalizers, thanosrulers/finalizers]
    verbs: [update]
  # Write the status of Prometheus, Alertmanager and ThanosRuler objects and the status bindings of
  # monitors and rules.
  - apiGroups: [monitoring.coreos.com]
    resources: [prometheuses/status, prometheusagents/status, servicemonitors/status, podmonitors/status, probes/status, scrapeconfigs/status, prometheusrules/status, alertmanagers/status, alertmanagerconfigs/status, thanosrulers/status]
    verbs: [get, update, patch]
  # The Prometheus, Alertmanager and ThanosRuler StatefulSets.
  - apiGroups: [apps]
    resources: [statefulsets, daemonsets]
    verbs: [get, list, watch, create, update, delete]
  # Generated Secrets and ConfigMaps (configuration, TLS assets, web config, rule files),
  # and referenced ones read by name; list/watch caches metadata only.
  - apiGroups: [""]
    resources: [secrets, configmaps]
    verbs: [get, list, watch, create, update, delete]
  # The governing Services of the Prometheus and Alertmanager pods.
  - apiGroups: [""]
    resources: [services]
    verbs: [get, list, watch, create, update]
  # Events about Prometheus objects and refused monitors.
  - apiGroups: ["", events.k8s.io]
    resources: [events]
    verbs: [create, patch]
  {{- if not (has (toString .Values.targetHealthInterval) (list "0" "0s" "0m" "0h")) }}
  # Target and rule health (targetHealthInterval, on by default): the Prometheus and
  # ThanosRuler pods whose targets and rules APIs are read.
  - apiGroups: [""]
    resources: [pods]
    verbs: [list]
  {{- end }}
  {{- if or .Values.prometheusConfigReloader.watchAPI .Values.prometheusConfigReloader.reportConfig }}
  # prometheusConfigReloader.watchAPI: the Role and RoleBinding per Prometheus and
  # Alertmanager that let its reloader read its own generated Secret (and rule ConfigMaps);
  # prometheusConfigReloader.reportConfig: patch its own pods' status.
  - apiGroups: [rbac.authorization.k8s.io]
    resources: [roles, rolebindings]
    verbs: [get, list, watch, create, update, delete]
  {{- end }}
  {{- if .Values.prometheusConfigReloader.reportConfig }}
  # prometheusConfigReloader.reportConfig: the Prometheus pods' reported configuration
  # (the ConfigLoaded condition), and patch on their status for the reloaders' Roles.
  - apiGroups: [""]
    resources: [pods]
    verbs: [list, watch]
  - apiGroups: [""]
    resources: [pods/status]
    verbs: [patch]
  {{- end }}
  {{- if include "lookout.repairPods" . }}
  # repairPolicyForStatefulSets evict or delete: the pod a stuck rollout left behind.
  - apiGroups: [""]
    resources: [pods]
    verbs: [list, delete]
  - apiGroups: [""]
    resources: [pods/eviction]
    verbs: [create]
  {{- end }}
{{- end }}

{{/* kubeletService.enabled: the rules on the kubelet Service's Endpoints and
EndpointSlices, in kubeletService.namespace. */}}
{{- define "lookout.rules.kubelet" }}
  - apiGroups: [""]
    resources: [endpoints]
    verbs: [get, list, watch, create, update]
  - apiGroups: [discovery.k8s.io]
    resources: [endpointslices]
    verbs: [get, list, watch, create, update, delete]
  - apiGroups: [""]
    resources: [services/finalizers]
    verbs: [update]
{{- end }}

{{/* The rules on objects without a namespace. */}}
{{- define "lookout.rules.cluster" }}
  # Namespace labels for namespace selectors.
  - apiGroups: [""]
    resources: [namespaces]
    verbs: [get, list, watch]
  {{- if not .Values.rbac.namespaced }}
  # The StorageClass a volumeClaimTemplate names must exist (skipped without it, as with
  # rbac.namespaced, whose ClusterRole grants namespaces only).
  - apiGroups: [storage.k8s.io]
    resources: [storageclasses]
    verbs: [get]
  {{- end }}
  {{- if .Values.kubeletService.enabled }}
  # kubeletService.enabled: the nodes listed into the kubelet Service's Endpoints and
  # EndpointSlices, which it keeps.
  - apiGroups: [""]
    resources: [nodes]
    verbs: [list, watch]
  {{- end }}
  {{- if .Values.crds.upgrade }}
  # crds.upgrade: create or upgrade the monitoring.coreos.com CRDs at start.
  - apiGroups: [apiextensions.k8s.io]
    resources: [customresourcedefinitions]
    verbs: [get, create, patch]
  {{- end }}
{{- end }}
