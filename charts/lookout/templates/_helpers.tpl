{{/* The chart's name. */}}
{{- define "lookout.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The name of the operator's objects: fullnameOverride, else "<release>-lookout-operator"
(just the release name when it already holds the chart name). */}}
{{- define "lookout.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "lookout.name" .) .Release.Name -}}
{{- printf "%s-operator" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s-operator" .Release.Name (include "lookout.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "lookout.namespace" -}}
{{- default .Release.Namespace .Values.namespaceOverride -}}
{{- end -}}

{{- define "lookout.selectorLabels" -}}
app.kubernetes.io/name: lookout-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "lookout.labels" -}}
{{ include "lookout.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "lookout.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "lookout.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* An image reference from {registry, repository, tag, sha}; the tag defaults to
"v" + appVersion. Call with (list .Values.image $). */}}
{{- define "lookout.image" -}}
{{- $img := index . 0 -}}{{- $root := index . 1 -}}
{{- $ref := $img.repository -}}
{{- if $img.registry -}}{{- $ref = printf "%s/%s" $img.registry $img.repository -}}{{- end -}}
{{- $ref = printf "%s:%s" $ref (default (printf "v%s" $root.Chart.AppVersion) $img.tag) -}}
{{- if $img.sha -}}{{- $ref = printf "%s@sha256:%s" $ref $img.sha -}}{{- end -}}
{{- $ref -}}
{{- end -}}

{{/* One operator flag as a list item: nothing when the value is null, "" or empty; a
list is joined with commas, a map written key=value,... in key order. Call with
(list "flag-name" value). */}}
{{- define "lookout.flag" -}}
{{- $name := index . 0 -}}{{- $v := index . 1 -}}
{{- if kindIs "invalid" $v -}}
{{- else if kindIs "slice" $v -}}
{{- if $v }}
- {{ printf "--%s=%s" $name (join "," $v) | quote }}
{{- end -}}
{{- else if kindIs "map" $v -}}
{{- if $v -}}
{{- $pairs := list -}}
{{- range $k := keys $v | sortAlpha -}}{{- $pairs = append $pairs (printf "%s=%v" $k (index $v $k)) -}}{{- end }}
- {{ printf "--%s=%s" $name (join "," $pairs) | quote }}
{{- end -}}
{{- else if kindIs "string" $v -}}
{{- if ne $v "" }}
- {{ printf "--%s=%s" $name $v | quote }}
{{- end -}}
{{- else if or (kindIs "float64" $v) (kindIs "float32" $v) }}
- {{ printf "--%s=%s" $name (toString $v) | quote }}
{{- else }}
- {{ printf "--%s=%v" $name $v | quote }}
{{- end -}}
{{- end -}}

{{/* The namespaces of --namespaces. */}}
{{- define "lookout.watchNamespaces" -}}
{{- $ns := list -}}
{{- if .Values.namespaces.releaseNamespace -}}{{- $ns = append $ns (include "lookout.namespace" .) -}}{{- end -}}
{{- range .Values.namespaces.additional -}}{{- $ns = append $ns . -}}{{- end -}}
{{- join "," (uniq $ns) -}}
{{- end -}}

{{/* Whether the repair policy needs the pods rules. */}}
{{- define "lookout.repairPods" -}}
{{- if has .Values.repairPolicyForStatefulSets (list "evict" "delete") -}}true{{- end -}}
{{- end -}}

{{/* The operator's arguments, one flag per value of values.yaml. */}}
{{- define "lookout.args" -}}
{{- $v := .Values -}}
- run
{{- include "lookout.flag" (list "metrics-bind-address" (printf ":%v" $v.web.port)) }}
{{- include "lookout.flag" (list "web.enable-pprof" $v.web.enablePprof) }}
{{- include "lookout.flag" (list "web.enable-tls" (ternary true nil $v.tls.enabled)) }}
{{- include "lookout.flag" (list "web.cert-file" $v.tls.certFile) }}
{{- include "lookout.flag" (list "web.key-file" $v.tls.keyFile) }}
{{- include "lookout.flag" (list "web.client-ca-file" $v.tls.clientCAFile) }}
{{- include "lookout.flag" (list "web.tls-reload-interval" $v.tls.reloadInterval) }}
{{- include "lookout.flag" (list "web.tls-min-version" $v.tls.tlsMinVersion) }}
{{- include "lookout.flag" (list "web.tls-cipher-suites" $v.tls.cipherSuites) }}
{{- include "lookout.flag" (list "web.tls-curves" $v.tls.curves) }}
{{- include "lookout.flag" (list "web.enable-http2" $v.tls.enableHTTP2) }}
{{- include "lookout.flag" (list "health-probe-bind-address" (printf ":%v" $v.healthProbePort)) }}
{{- include "lookout.flag" (list "pprof-bind-address" $v.pprofBindAddress) }}
{{- include "lookout.flag" (list "kubeconfig" $v.apiServer.kubeconfig) }}
{{- include "lookout.flag" (list "apiserver" $v.apiServer.url) }}
{{- include "lookout.flag" (list "cert-file" $v.apiServer.certFile) }}
{{- include "lookout.flag" (list "key-file" $v.apiServer.keyFile) }}
{{- include "lookout.flag" (list "ca-file" $v.apiServer.caFile) }}
{{- include "lookout.flag" (list "tls-insecure" $v.apiServer.tlsInsecure) }}
{{- include "lookout.flag" (list "as" $v.apiServer.impersonate) }}
{{- include "lookout.flag" (list "kube-api-qps" $v.kubeAPIQPS) }}
{{- include "lookout.flag" (list "kube-api-burst" $v.kubeAPIBurst) }}
{{- include "lookout.flag" (list "namespaces" (include "lookout.watchNamespaces" .)) }}
{{- include "lookout.flag" (list "deny-namespaces" $v.denyNamespaces) }}
{{- include "lookout.flag" (list "prometheus-instance-namespaces" $v.prometheusInstanceNamespaces) }}
{{- include "lookout.flag" (list "alertmanager-instance-namespaces" $v.alertmanagerInstanceNamespaces) }}
{{- include "lookout.flag" (list "alertmanager-config-namespaces" $v.alertmanagerConfigNamespaces) }}
{{- include "lookout.flag" (list "thanos-ruler-instance-namespaces" $v.thanosRulerInstanceNamespaces) }}
{{- include "lookout.flag" (list "watch-referenced-objects-in-all-namespaces" $v.watchReferencedObjectsInAllNamespaces) }}
{{- include "lookout.flag" (list "prometheus-instance-selector" $v.prometheusInstanceSelector) }}
{{- include "lookout.flag" (list "alertmanager-instance-selector" $v.alertmanagerInstanceSelector) }}
{{- include "lookout.flag" (list "thanos-ruler-instance-selector" $v.thanosRulerInstanceSelector) }}
{{- include "lookout.flag" (list "secret-field-selector" $v.secretFieldSelector) }}
{{- include "lookout.flag" (list "secret-label-selector" $v.secretLabelSelector) }}
{{- include "lookout.flag" (list "configmap-field-selector" $v.configMapFieldSelector) }}
{{- include "lookout.flag" (list "configmap-label-selector" $v.configMapLabelSelector) }}
{{- include "lookout.flag" (list "controller-id" $v.controllerID) }}
{{- include "lookout.flag" (list "disable-unmanaged-prometheus-configuration" $v.disableUnmanagedPrometheusConfiguration) }}
{{- include "lookout.flag" (list "feature-gates" $v.featureGates) }}
{{- include "lookout.flag" (list "prometheus-default-base-image" $v.prometheusDefaultBaseImage) }}
{{- include "lookout.flag" (list "alertmanager-default-base-image" $v.alertmanagerDefaultBaseImage) }}
{{- include "lookout.flag" (list "thanos-default-base-image" $v.thanosDefaultBaseImage) }}
{{- include "lookout.flag" (list "config-reloader-image" (include "lookout.image" (list $v.prometheusConfigReloader.image .))) }}
{{- include "lookout.flag" (list "config-reloader-cpu-request" $v.prometheusConfigReloader.resources.requests.cpu) }}
{{- include "lookout.flag" (list "config-reloader-cpu-limit" $v.prometheusConfigReloader.resources.limits.cpu) }}
{{- include "lookout.flag" (list "config-reloader-memory-request" $v.prometheusConfigReloader.resources.requests.memory) }}
{{- include "lookout.flag" (list "config-reloader-memory-limit" $v.prometheusConfigReloader.resources.limits.memory) }}
{{- include "lookout.flag" (list "config-reloader-memory" $v.prometheusConfigReloader.memory) }}
{{- include "lookout.flag" (list "enable-config-reloader-probes" $v.prometheusConfigReloader.enableProbe) }}
{{- include "lookout.flag" (list "config-reloader-watch-interval" $v.prometheusConfigReloader.watchInterval) }}
{{- include "lookout.flag" (list "reloader-watch-api" (ternary true nil $v.prometheusConfigReloader.watchAPI)) }}
{{- include "lookout.flag" (list "reloader-report-config" (ternary true nil $v.prometheusConfigReloader.reportConfig)) }}
{{- include "lookout.flag" (list "labels" $v.managedObjectLabels) }}
{{- include "lookout.flag" (list "annotations" $v.managedObjectAnnotations) }}
{{- include "lookout.flag" (list "cluster-domain" $v.clusterDomain) }}
{{- include "lookout.flag" (list "localhost" $v.localhost) }}
{{- include "lookout.flag" (list "repair-policy-for-statefulsets" $v.repairPolicyForStatefulSets) }}
{{- if $v.kubeletService.enabled }}
{{- include "lookout.flag" (list "kubelet-service" (printf "%s/%s" $v.kubeletService.namespace (default (printf "%s-kubelet" (include "lookout.fullname" .)) $v.kubeletService.name))) }}
{{- end }}
{{- include "lookout.flag" (list "kubelet-selector" $v.kubeletService.selector) }}
{{- include "lookout.flag" (list "kubelet-node-address-priority" $v.kubeletService.nodeAddressPriority) }}
{{- include "lookout.flag" (list "kubelet-sync-period" $v.kubeletService.syncPeriod) }}
{{- include "lookout.flag" (list "kubelet-http-metrics" $v.kubeletService.httpMetrics) }}
{{- include "lookout.flag" (list "kubelet-endpoints" $v.kubeletEndpointsEnabled) }}
{{- include "lookout.flag" (list "kubelet-endpointslice" $v.kubeletEndpointSliceEnabled) }}
{{- include "lookout.flag" (list "log-level" $v.logLevel) }}
{{- include "lookout.flag" (list "log-format" $v.logFormat) }}
{{- include "lookout.flag" (list "auto-gomemlimit-ratio" $v.autoGomemlimitRatio) }}
{{- include "lookout.flag" (list "leader-elect" $v.leaderElection.enabled) }}
{{- include "lookout.flag" (list "leader-election-namespace" $v.leaderElection.namespace) }}
{{- include "lookout.flag" (list "leader-election-id" $v.leaderElection.id) }}
{{- include "lookout.flag" (list "leader-election-lease-duration" $v.leaderElection.leaseDuration) }}
{{- include "lookout.flag" (list "leader-election-renew-deadline" $v.leaderElection.renewDeadline) }}
{{- include "lookout.flag" (list "leader-election-retry-period" $v.leaderElection.retryPeriod) }}
{{- include "lookout.flag" (list "max-concurrent-reconciles" $v.maxConcurrentReconciles) }}
{{- include "lookout.flag" (list "resource-status" $v.resourceStatus) }}
{{- include "lookout.flag" (list "status-api-qps" $v.statusAPIQPS) }}
{{- include "lookout.flag" (list "status-workers" $v.statusWorkers) }}
{{- if not (kindIs "invalid" $v.maxNamespaceConfigBytes) }}
{{- include "lookout.flag" (list "max-namespace-config-bytes" (int64 $v.maxNamespaceConfigBytes)) }}
{{- end }}
{{- include "lookout.flag" (list "target-health-interval" $v.targetHealthInterval) }}
{{- include "lookout.flag" (list "monitor-cost" $v.monitorCost) }}
{{- include "lookout.flag" (list "graceful-shutdown-timeout" $v.gracefulShutdownTimeout) }}
{{- include "lookout.flag" (list "default-versions" $v.defaultVersions) }}
{{- include "lookout.flag" (list "install-crds" (ternary true nil $v.crds.upgrade)) }}
{{- if $v.admissionWebhooks.enabled }}
{{- include "lookout.flag" (list "webhook-port" $v.admissionWebhooks.port) }}
{{- include "lookout.flag" (list "webhook-cert-dir" $v.admissionWebhooks.certDir) }}
{{- end }}
{{- include "lookout.flag" (list "webhook-self-signed" $v.admissionWebhooks.operatorSelfSigned) }}
{{- include "lookout.flag" (list "webhook-dns-names" $v.admissionWebhooks.dnsNames) }}
{{- range $v.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end -}}
