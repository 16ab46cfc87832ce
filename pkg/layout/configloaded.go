package layout

import "strings"

// The pod condition in which the config-reloader reports the configuration Prometheus
// loaded (--report-pod) and from which the operator sets ConfigLoaded (ADR 17).
const (
	// ConfigLoadedPodCondition is the condition's type.
	ConfigLoadedPodCondition = "lookout.dev/ConfigLoaded"
	// ConfigLoadedPodReason is its reason.
	ConfigLoadedPodReason = "Reloaded"
	// configLoadedPrefix starts its message; the configuration's name follows (a hex
	// SHA-256, of its chunks' SHA-256: package confighash).
	configLoadedPrefix = "loaded configuration sha256 "
)

// ConfigLoadedMessage is the condition's message for the configuration hash hash.
func ConfigLoadedMessage(hash string) string { return configLoadedPrefix + hash }

// ConfigLoadedHash returns the hash a message written by ConfigLoadedMessage carries.
func ConfigLoadedHash(message string) (string, bool) {
	h, ok := strings.CutPrefix(message, configLoadedPrefix)
	return h, ok && h != ""
}
