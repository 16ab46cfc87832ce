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

// AlertmanagerStatefulSetName is the StatefulSet of an Alertmanager; its pods and the
// other generated objects share the prefix.
func AlertmanagerStatefulSetName(am string) string { return "alertmanager-" + am }

// AlertmanagerConfigSecretName is the user's config Secret an Alertmanager reads when
// spec.configSecret is empty.
func AlertmanagerConfigSecretName(am string) string { return "alertmanager-" + am }

// AlertmanagerGeneratedSecretName is the Secret holding the generated config.
func AlertmanagerGeneratedSecretName(am string) string { return "alertmanager-" + am + "-generated" }

// AlertmanagerTLSAssetsSecretName is the n-th Secret holding TLS assets of an
// Alertmanager.
func AlertmanagerTLSAssetsSecretName(am string, n int) string {
	return fmt.Sprintf("alertmanager-%s-tls-assets-%d", am, n)
}

// AlertmanagerWebConfigSecretName is the Secret holding the web configuration.
func AlertmanagerWebConfigSecretName(am string) string { return "alertmanager-" + am + "-web-config" }

// AlertmanagerClusterTLSSecretName is the Secret holding the cluster TLS configuration.
func AlertmanagerClusterTLSSecretName(am string) string {
	return "alertmanager-" + am + "-cluster-tls-config"
}

// AlertmanagerStorageVolumeName is the data volume (or claim template) of an
// Alertmanager unless spec.storage names it.
func AlertmanagerStorageVolumeName(am string) string { return "alertmanager-" + am + "-db" }
