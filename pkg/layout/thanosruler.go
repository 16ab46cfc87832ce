package layout

import "fmt"

// Mount paths inside the ThanosRuler pod, as prometheus-operator mounts them.
const (
	// ThanosRulerRulesDir holds one sub-directory per rule ConfigMap.
	ThanosRulerRulesDir = "/etc/thanos/rules"
	// ThanosRulerConfigDir holds one sub-directory per Secret key the flags name
	// (remote-write, query, alertmanagers, object storage, tracing, alert relabelling).
	ThanosRulerConfigDir = "/etc/thanos/config"
	// ThanosRulerStorageDir is the ruler's --data-dir.
	ThanosRulerStorageDir = "/thanos/data"
	// ThanosRulerWebConfigDir holds the web configuration file.
	ThanosRulerWebConfigDir = "/etc/thanos/web_config"
	// ThanosRulerTLSAssetsDir holds the TLS files of the remote-write configuration.
	ThanosRulerTLSAssetsDir = "/etc/thanos/certs"
)

// ThanosRuler file names, labels, Service and ports.
const (
	// ThanosRulerRemoteWriteKey is the key of the remote-write configuration in the
	// ruler's config Secret.
	ThanosRulerRemoteWriteKey = "remote-write.yaml"
	// ThanosRulerNameLabel selects every pod of one ThanosRuler object.
	ThanosRulerNameLabel = "thanos-ruler"
	// ThanosRulerRuleConfigMapLabel names the ThanosRuler on its rule ConfigMaps, the
	// label prometheus-operator watches them by.
	ThanosRulerRuleConfigMapLabel = "thanos-ruler-name"
	// ThanosRulerGoverningServiceName is the headless Service shared by the ThanosRuler
	// StatefulSets of a namespace.
	ThanosRulerGoverningServiceName = "thanos-ruler-operated"
	// ThanosRulerGRPCPort and ThanosRulerHTTPPort are the ruler's gRPC (Store and Rules
	// API) and HTTP ports.
	ThanosRulerGRPCPort = 10901
	ThanosRulerHTTPPort = 10902
)

// ThanosRuler names the generated objects of one ThanosRuler: thanos-ruler-<name> and
// names derived from it.
type ThanosRuler string

// Base is "thanos-ruler-<name>": the StatefulSet and the prefix of everything else.
func (t ThanosRuler) Base() string { return "thanos-ruler-" + string(t) }

// StatefulSet is the StatefulSet of the ThanosRuler; its pods share the prefix.
func (t ThanosRuler) StatefulSet() string { return t.Base() }

// RuleConfigMap is the n-th ConfigMap holding rule files.
func (t ThanosRuler) RuleConfigMap(n int) string { return fmt.Sprintf("%s-rulefiles-%d", t.Base(), n) }

// ConfigSecret is the Secret holding the generated remote-write configuration.
func (t ThanosRuler) ConfigSecret() string { return t.Base() + "-config" }

// TLSAssetsSecret is the n-th Secret holding the TLS files of the remote-write
// configuration.
func (t ThanosRuler) TLSAssetsSecret(n int) string {
	return fmt.Sprintf("%s-tls-assets-%d", t.Base(), n)
}

// WebConfigSecret is the Secret holding the web configuration.
func (t ThanosRuler) WebConfigSecret() string { return t.Base() + "-web-config" }

// StorageVolume is the data volume (or claim template) unless spec.storage names it.
func (t ThanosRuler) StorageVolume() string { return t.Base() + "-data" }
