package layout

import "fmt"

// Mount paths inside the Alertmanager pod, as prometheus-operator mounts them.
const (
	// AlertmanagerConfigDir holds the generated config Secret as mounted by the kubelet.
	AlertmanagerConfigDir = "/etc/alertmanager/config"
	// AlertmanagerConfigOutDir holds the expanded config the reloader writes.
	AlertmanagerConfigOutDir = "/etc/alertmanager/config_out"
	// AlertmanagerTLSAssetsDir holds the TLS files the generated config references.
	AlertmanagerTLSAssetsDir = "/etc/alertmanager/certs"
	// AlertmanagerWebConfigDir holds the web configuration file.
	AlertmanagerWebConfigDir = "/etc/alertmanager/web_config"
	// AlertmanagerClusterTLSDir holds the cluster (gossip) mTLS configuration.
	AlertmanagerClusterTLSDir = "/etc/alertmanager/cluster_tls_config"
	// AlertmanagerTemplatesDir holds spec.alertmanagerConfiguration.templates.
	AlertmanagerTemplatesDir = "/etc/alertmanager/templates"
	// AlertmanagerSecretsDir and AlertmanagerConfigMapsDir hold spec.secrets and
	// spec.configMaps, one sub-directory each.
	AlertmanagerSecretsDir    = "/etc/alertmanager/secrets"
	AlertmanagerConfigMapsDir = "/etc/alertmanager/configmaps"
	// AlertmanagerStorageDir is Alertmanager's --storage.path.
	AlertmanagerStorageDir = "/alertmanager"
)

// Alertmanager file names.
const (
	// AlertmanagerConfigKey is the key of the user's config in the config Secret.
	AlertmanagerConfigKey = "alertmanager.yaml"
	// AlertmanagerConfigCompressedKey is the key of the gzipped config in the generated
	// config Secret.
	AlertmanagerConfigCompressedKey = "alertmanager.yaml.gz"
	// AlertmanagerConfigOutFile is the expanded config the reloader writes.
	AlertmanagerConfigOutFile = "alertmanager.env.yaml"
	// AlertmanagerClusterTLSFile is the key of the cluster TLS config in its Secret.
	AlertmanagerClusterTLSFile = "cluster-tls-config.yaml"
)

// Alertmanager labels, service and ports.
const (
	// AlertmanagerNameLabel selects every pod of one Alertmanager object.
	AlertmanagerNameLabel = "alertmanager"
	// AlertmanagerGoverningServiceName is the headless Service shared by the Alertmanager
	// StatefulSets of a namespace.
	AlertmanagerGoverningServiceName = "alertmanager-operated"
	// AlertmanagerWebPort and AlertmanagerMeshPort are Alertmanager's HTTP and gossip
	// ports.
	AlertmanagerWebPort  = 9093
	AlertmanagerMeshPort = 9094
)

// Alertmanager names the generated objects of the Alertmanager called by the value.
type Alertmanager string

// Base is "alertmanager-<name>": the StatefulSet; its pods and the other generated objects
// share the prefix.
func (a Alertmanager) Base() string { return "alertmanager-" + string(a) }

// StatefulSet is the StatefulSet of the Alertmanager.
func (a Alertmanager) StatefulSet() string { return a.Base() }

// ConfigSecret is the user's config Secret the Alertmanager reads when spec.configSecret
// is empty.
func (a Alertmanager) ConfigSecret() string { return a.Base() }

// GeneratedSecret is the Secret holding the generated config.
func (a Alertmanager) GeneratedSecret() string { return a.Base() + "-generated" }

// TLSAssetsSecret is the n-th Secret holding TLS assets.
func (a Alertmanager) TLSAssetsSecret(n int) string {
	return fmt.Sprintf("%s-tls-assets-%d", a.Base(), n)
}

// WebConfigSecret is the Secret holding the web configuration.
func (a Alertmanager) WebConfigSecret() string { return a.Base() + "-web-config" }

// ClusterTLSSecret is the Secret holding the cluster TLS configuration.
func (a Alertmanager) ClusterTLSSecret() string { return a.Base() + "-cluster-tls-config" }

// StorageVolume is the data volume (or claim template) unless spec.storage names it.
func (a Alertmanager) StorageVolume() string { return a.Base() + "-db" }
