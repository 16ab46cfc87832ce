package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"strings"
)

// Names of the config-reloader containers, as prometheus-operator names them (users
// patch them by name).
const (
	ReloaderContainerName = "config-reloader"
	ReloaderInitName      = "init-config-reloader"
)

// Fixed volume names in the pod.
const (
	ConfigOutVolume            = "config-out"
	TLSAssetsVolume            = "tls-assets"
	WebConfigVolume            = "web-config"
	APIAccessVolume            = "reloader-api-access"
	DefaultPortName            = "web"
	reloaderPortName           = "reloader-web"
	reloaderPort               = 8080
	DefaultContainerAnnotation = "kubectl.kubernetes.io/default-container"
	// minSlots is the smallest number of pre-mounted rule ConfigMaps and TLS assets Secrets.
	minSlots = 4
	// MaxStatefulSetName keeps "<name>-<10 character revision hash>" within a label value.
	MaxStatefulSetName = 52
)

// WithOperatorLabels is l with the operator's --labels added, which win on a clash, as
// prometheus-operator merges them into its selectors and pod labels.
func WithOperatorLabels(opts Options, l map[string]string) map[string]string {
	if len(opts.OperatorLabels) == 0 {
		return l
	}
	out := make(map[string]string, len(l)+len(opts.OperatorLabels))
	maps.Copy(out, l)
	maps.Copy(out, opts.OperatorLabels)
	return out
}

// Slots is the number of rule ConfigMaps (or TLS assets Secrets) the pod pre-mounts as
// optional volumes when n of them exist: at least 4, then the next power of two. Growing
// within the same slot count leaves the pod template unchanged, so pods do not roll.
func Slots(n int) int {
	s := minSlots
	for s < n {
		s *= 2
	}
	return s
}

// VolumeName turns prefix and name into a valid volume name (a DNS-1123 label): lower
// case, invalid characters replaced by '-', and names longer than 63 characters shortened
// with a hash suffix of the original so they stay unique. Two names that only differ in
// replaced characters collide; validate reports that.
func VolumeName(prefix, name string) string {
	s := strings.ToLower(name)
	if prefix != "" {
		s = prefix + "-" + s
	}
	var b strings.Builder
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) <= 63 {
		return out
	}
	sum := sha256.Sum256([]byte(s))
	suffix := hex.EncodeToString(sum[:])[:8]
	if len(out) > 63-9 {
		out = strings.TrimRight(out[:63-9], "-")
	}
	return fmt.Sprintf("%s-%s", out, suffix)
}
