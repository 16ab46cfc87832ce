package promcfg

// Relabel rules the operator emits identically for every monitor, built once.
var (
	ruleTmpJobName     = relabelRule{SourceLabels: []string{"job"}, TargetLabel: "__tmp_prometheus_job_name"}.yaml()
	ruleDropNotRunning = relabelRule{Action: "drop", SourceLabels: []string{"__meta_kubernetes_pod_phase"}, Regex: "(Failed|Succeeded)"}.yaml()
	ruleNamespace      = relabelRule{SourceLabels: []string{"__meta_kubernetes_namespace"}, TargetLabel: "namespace"}.yaml()
	ruleService        = relabelRule{SourceLabels: []string{"__meta_kubernetes_service_name"}, TargetLabel: "service"}.yaml()
	rulePod            = relabelRule{SourceLabels: []string{"__meta_kubernetes_pod_name"}, TargetLabel: "pod"}.yaml()
	ruleContainer      = relabelRule{SourceLabels: []string{"__meta_kubernetes_pod_container_name"}, TargetLabel: "container"}.yaml()
	ruleJobFromService = relabelRule{SourceLabels: []string{"__meta_kubernetes_service_name"}, TargetLabel: "job", Replacement: strp("${1}")}.yaml()

	// ruleTargetKind[metaPrefix] holds the node and pod rules of each endpoint role.
	ruleTargetKind = map[string][2]M{
		"__meta_kubernetes_endpoint":      targetKindRules("__meta_kubernetes_endpoint"),
		"__meta_kubernetes_endpointslice": targetKindRules("__meta_kubernetes_endpointslice"),
	}
)

func targetKindRules(metaEP string) [2]M {
	var out [2]M
	for i, kind := range []struct{ kind, label string }{{"Node", "node"}, {"Pod", "pod"}} {
		out[i] = relabelRule{
			SourceLabels: []string{metaEP + "_address_target_kind", metaEP + "_address_target_name"},
			Separator:    strp(";"),
			Regex:        kind.kind + ";(.*)",
			Replacement:  strp("${1}"),
			TargetLabel:  kind.label,
		}.yaml()
	}
	return out
}
