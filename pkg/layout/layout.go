package layout

import "fmt"

// Mount paths inside the Prometheus pod.
const (
	// ConfigDir holds the compressed config Secret as mounted by the kubelet.
	ConfigDir = "/etc/prometheus/config"
	// ConfigPartsDir holds the further parts of a config spread over several Secrets, each
	// in its own directory (ConfigPartDir).
	ConfigPartsDir = "/etc/prometheus/config-parts"
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
// namespace; AgentGoverningServiceName is the one of the PrometheusAgent StatefulSets.
const (
	GoverningServiceName      = "prometheus-operated"
	AgentGoverningServiceName = "prometheus-agent-operated"
)

// PrometheusWebPort is the port Prometheus listens on.
const PrometheusWebPort = 9090

// Instance names the generated objects of one Prometheus or PrometheusAgent: the same
// names with the prefix prometheus-operator gives each kind ("prometheus" or
// "prom-agent").
type Instance struct {
	Prefix, Name string
}

// Name prefixes of the generated objects of each kind.
const (
	PrometheusPrefix = "prometheus"
	AgentPrefix      = "prom-agent"
)

// Prometheus names the generated objects of the Prometheus called name.
func Prometheus(name string) Instance { return Instance{PrometheusPrefix, name} }

// Agent names the generated objects of the PrometheusAgent called name.
func Agent(name string) Instance { return Instance{AgentPrefix, name} }

// Base is "<prefix>-<name>": the config Secret and the StatefulSet of shard 0.
func (i Instance) Base() string { return i.Prefix + "-" + i.Name }

// ConfigSecret is the Secret holding the generated config.
func (i Instance) ConfigSecret() string { return i.Base() }

// ConfigPartSecret is the Secret holding part n of a config spread over several Secrets
// (under ConfigCompressedKey): ConfigSecret for part 0, which holds the whole config when
// it fits one Secret.
func (i Instance) ConfigPartSecret(n int) string {
	if n == 0 {
		return i.ConfigSecret()
	}
	return fmt.Sprintf("%s-config-part-%d", i.Base(), n)
}

// ConfigPartDir is the directory part n (from 1) of the config is mounted in.
func ConfigPartDir(n int) string { return fmt.Sprintf("%s/part-%d", ConfigPartsDir, n) }

// TLSAssetsSecret is the n-th Secret holding TLS assets.
func (i Instance) TLSAssetsSecret(n int) string { return fmt.Sprintf("%s-tls-assets-%d", i.Base(), n) }

// WebConfigSecret is the Secret holding the web configuration.
func (i Instance) WebConfigSecret() string { return i.Base() + "-web-config" }

// RuleConfigMap is the n-th ConfigMap holding rule files (Prometheus only: agents run no
// rules).
func (i Instance) RuleConfigMap(n int) string { return fmt.Sprintf("%s-rulefiles-%d", i.Base(), n) }

// StatefulSet is the StatefulSet of one shard.
func (i Instance) StatefulSet(shard int) string {
	if shard == 0 {
		return i.Base()
	}
	return fmt.Sprintf("%s-shard-%d", i.Base(), shard)
}

// RuleFileGlobs lists the rule_files globs of a Prometheus whose pod mounts the given
// number of rule ConfigMap slots (Prometheus allows a wildcard only in the last element).
func (i Instance) RuleFileGlobs(slots int) []string {
	out := make([]string, slots)
	for n := range out {
		out[n] = RulesDir + "/" + i.RuleConfigMap(n) + "/*.yaml"
	}
	return out
}
