package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// MaxSecretData is what one Secret may hold: the API server's 1 MiB object limit minus
// room for metadata.
const MaxSecretData = 1024*1024 - 16*1024

// DataHash hashes Secret or ConfigMap data deterministically.
func DataHash(data map[string][]byte) string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%d:%s%d:", len(k), k, len(data[k]))
		h.Write(data[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Meta is the metadata every generated Secret and ConfigMap of an instance shares.
type Meta struct {
	Namespace string
	Labels    map[string]string
	Owner     metav1.OwnerReference
}

// OwnerRef makes an instance the controlling owner of what it generates.
func OwnerRef(apiVersion, kind, name string, uid types.UID) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: apiVersion, Kind: kind, Name: name, UID: uid,
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// ObjectMeta is m for the object name whose content hashes to hash.
func (m Meta) ObjectMeta(name, hash string) metav1.ObjectMeta {
	lbls := make(map[string]string, len(m.Labels)+1)
	for k, v := range m.Labels {
		lbls[k] = v
	}
	return metav1.ObjectMeta{
		Name: name, Namespace: m.Namespace, Labels: lbls,
		Annotations:     map[string]string{layout.InputHashAnnotation: hash},
		OwnerReferences: []metav1.OwnerReference{m.Owner},
	}
}

// Secret is the Secret name holding data, hashed by its data.
func (m Meta) Secret(name string, data map[string][]byte) Object {
	return m.SecretHashed(name, DataHash(data), data)
}

// SecretHashed is the Secret name holding data, with the given input hash.
func (m Meta) SecretHashed(name, hash string, data map[string][]byte) Object {
	return Object{Object: &corev1.Secret{ObjectMeta: m.ObjectMeta(name, hash), Data: data}}
}

// ConfigMap is the ConfigMap name holding data, hashed by its data.
func (m Meta) ConfigMap(name string, data map[string]string) Object {
	bin := make(map[string][]byte, len(data))
	for k, v := range data {
		bin[k] = []byte(v)
	}
	return Object{Object: &corev1.ConfigMap{ObjectMeta: m.ObjectMeta(name, DataHash(bin)), Data: data}}
}

// TLSAssets are the Secrets name(0), name(1), ... holding files, split by size, at least
// one (see atLeastOne), and how many of them hold files.
func (m Meta) TLSAssets(name func(int) string, files map[string][]byte) (objs []Object, withFiles int, err error) {
	parts, err := split(files, MaxSecretData)
	if err != nil {
		return nil, 0, err
	}
	for i, data := range atLeastOne(parts) {
		objs = append(objs, m.Secret(name(i), data))
	}
	return objs, len(parts), nil
}

// DataSize is what data takes in a Secret or ConfigMap.
func DataSize(data map[string][]byte) int {
	n := 0
	for k, v := range data {
		n += len(k) + len(v)
	}
	return n
}

// split distributes files over Secrets of at most maxBytes of data each, in name order.
func split(files map[string][]byte, maxBytes int) ([]map[string][]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []map[string][]byte
	cur, size := map[string][]byte{}, 0
	for _, n := range names {
		sz := len(n) + len(files[n])
		if sz > maxBytes {
			return nil, fmt.Errorf("TLS asset %s is %d bytes, more than the %d bytes a Secret can hold", n, sz, maxBytes)
		}
		if size+sz > maxBytes && len(cur) > 0 {
			out = append(out, cur)
			cur, size = map[string][]byte{}, 0
		}
		cur[n] = files[n]
		size += sz
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, nil
}

// atLeastOne returns the data of a set of Secrets split by size, or one empty Secret's
// when there is none: prometheus-operator always creates the first Secret of such a set
// (<kind>-<name>-tls-assets-0), whether anything is in it or not, and scripts and
// policies name it.
func atLeastOne(parts []map[string][]byte) []map[string][]byte {
	if len(parts) == 0 {
		return []map[string][]byte{{}}
	}
	return parts
}
