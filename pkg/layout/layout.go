package layout

import "fmt"

// Mount paths inside the Prometheus pod.
const (
	// ConfigDir holds the compressed config Secret as mounted by the kubelet.
	ConfigDir = "/etc/prometheus/config"
	// ConfigOutDir holds the expanded config the reloader writes and Prometheus reads.
	ConfigOutDir = "/etc/prometheus/config_out"
	// TLSAssetsDir holds CA, certificate and key files referenced by the config.
	TLSAssetsDir = "/etc/prometheus/certs"
	// RulesDir holds one sub-directory per rule ConfigMap.
	RulesDir = "/etc/prometheus/rules"
	// WebConfigDir holds the web configuration file.
	WebConfigDir = "/etc/prometheus/web_config"
	// StorageDir is Prometheus's TSDB path.
	StorageDir = "/prometheus"
	// SecretsDir and ConfigMapsDir hold the user's spec.secrets and spec.configMaps.
	SecretsDir    = "/etc/prometheus/secrets"
	ConfigMapsDir = "/etc/prometheus/configmaps"
	// ServiceAccountDir is where Kubernetes projects the pod's service account token.
	ServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"
	// LogDir is a writable emptyDir for spec.queryLogFile and spec.scrapeFailureLogFile
	// given as bare file names: the config names them LogDir/<file>.
	LogDir = "/var/log/prometheus"
)

// File names.
const (
	// ConfigCompressedKey is the key of the gzipped config in the config Secret.
	ConfigCompressedKey = "prometheus.yaml.gz"
	// ConfigOutFile is the name of the expanded config the reloader writes.
	ConfigOutFile = "prometheus.env.yaml"
	// WebConfigFile is the key of the web configuration in its Secret.
	WebConfigFile = "web-config.yaml"
)

// Labels and annotations Lookout puts on what it creates.
const (
	// ManagedByLabel and LegacyManagedByLabel mark every object the operator creates, with
	// prometheus-operator's value: they are in the StatefulSet selectors and in the label
	// selectors prometheus-operator lists its objects by, so an install can switch between
	// the two operators without recreating StatefulSets (ADR 0008). Lookout's own mark is
	// InputHashAnnotation.
	ManagedByLabel       = "app.kubernetes.io/managed-by"
	LegacyManagedByLabel = "managed-by"
	ManagedByValue       = "prometheus-operator"
	// ModeLabel is prometheus-operator's label telling server from agent StatefulSets.
	ModeLabel = "operator.prometheus.io/mode"
	// NameLabel and InstanceLabel identify the workload, as prometheus-operator sets them.
	NameLabel     = "app.kubernetes.io/name"
	InstanceLabel = "app.kubernetes.io/instance"
	// PrometheusNameLabel selects every pod of one Prometheus object.
	PrometheusNameLabel = "prometheus"
	// ShardLabel holds the shard number of a Prometheus pod.
	ShardLabel = "operator.prometheus.io/shard"
	// OperatorNameLabel is prometheus-operator's instance label on pods and objects.
	OperatorNameLabel = "operator.prometheus.io/name"
	// InputHashAnnotation stores the hash of what an object was generated from, so an
	// unchanged input makes no write. It is under prometheus-operator's reserved prefix on
	// purpose: prometheus-operator drops operator.prometheus.io/ annotations when it writes
	// an object, so an object it wrote in between never looks up to date to Lookout (ADR
	// 0008).
	InputHashAnnotation = "operator.prometheus.io/lookout-input-hash"
	// ControllerIDAnnotation assigns a Prometheus or Alertmanager to the operator instance
	// started with the same --controller-id, as prometheus-operator does.
	ControllerIDAnnotation = "operator.prometheus.io/controller-id"
)

// GoverningServiceName is the headless Service shared by all Prometheus StatefulSets of a
// namespace.
const GoverningServiceName = "prometheus-operated"

// PrometheusWebPort is the port Prometheus listens on.
const PrometheusWebPort = 9090

// ConfigSecretName is the Secret holding the generated config of a Prometheus.
func ConfigSecretName(prometheus string) string { return "prometheus-" + prometheus }

// TLSAssetsSecretName is the n-th Secret holding TLS assets of a Prometheus.
func TLSAssetsSecretName(prometheus string, n int) string {
	return fmt.Sprintf("prometheus-%s-tls-assets-%d", prometheus, n)
}

// WebConfigSecretName is the Secret holding the web configuration of a Prometheus.
func WebConfigSecretName(prometheus string) string {
	return "prometheus-" + prometheus + "-web-config"
}

// RuleConfigMapName is the n-th ConfigMap holding rule files of a Prometheus.
func RuleConfigMapName(prometheus string, n int) string {
	return fmt.Sprintf("prometheus-%s-rulefiles-%d", prometheus, n)
}

// StatefulSetName is the StatefulSet of one shard of a Prometheus.
func StatefulSetName(prometheus string, shard int) string {
	if shard == 0 {
		return "prometheus-" + prometheus
	}
	return fmt.Sprintf("prometheus-%s-shard-%d", prometheus, shard)
}

// RuleFileGlobs lists the rule_files globs of a Prometheus whose pod mounts the given
// number of rule ConfigMap slots (Prometheus allows a wildcard only in the last element).
func RuleFileGlobs(prometheus string, slots int) []string {
	out := make([]string, slots)
	for i := range out {
		out[i] = RulesDir + "/" + RuleConfigMapName(prometheus, i) + "/*.yaml"
	}
	return out
}
