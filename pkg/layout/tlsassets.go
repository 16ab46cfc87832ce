package layout

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxSecretKey is the longest data key a Secret may have.
const maxSecretKey = 253

// TLSAssetKey is the key (and file name) of one referenced Secret or ConfigMap key in the
// tls-assets Secrets of every kind: "<secret|configmap>_<namespace>_<name>_<key>", as
// prometheus-operator names them. A name longer than a Secret key may be (a namespace, a
// name and a key together can reach 580 characters) is cut and ends in a hash of the
// whole name instead: the tls-assets Secret holding it would be refused.
func TLSAssetKey(kind, namespace, name, key string) string {
	full := strings.ToLower(kind) + "_" + namespace + "_" + name + "_" + key
	if len(full) <= maxSecretKey {
		return full
	}
	sum := sha256.Sum256([]byte(full))
	return full[:maxSecretKey-17] + "_" + hex.EncodeToString(sum[:8])
}
