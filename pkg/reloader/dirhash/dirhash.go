// Package dirhash is the hash of the files a config-reloader watches without a
// configuration file (a ThanosRuler's rule directories): what its --report-pod reports
// after the server accepted their reload, and what the operator computes from the rule
// ConfigMaps it wrote (OfData), so that both agree without either reading the other.
//
// The hash is the hex sha256 of, for every regular file of the watched directories in
// the order the directories are given and, within one, in byte order of the names (the
// kubelet's "..data" and "..<timestamp>" entries left out), the length-prefixed name and
// the length-prefixed sha256 of the content. Directories add nothing themselves: an empty
// or missing directory (an unused rule ConfigMap slot) hashes as no files.
package dirhash

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"sort"
)

// Hash accumulates files in order.
type Hash struct{ h hash.Hash }

// New returns an empty Hash.
func New() *Hash { return &Hash{h: sha256.New()} }

// File adds the file name whose content has the sha256 sum.
func (h *Hash) File(name string, sum []byte) {
	field(h.h, []byte(name))
	field(h.h, sum)
}

// Sum is the hex hash of the files added so far.
func (h *Hash) Sum() string { return hex.EncodeToString(h.h.Sum(nil)) }

// OfData is the hash of directories holding, each, the keys of one ConfigMap's data as
// files (a ConfigMap volume): dirs in order, keys sorted.
func OfData(dirs ...map[string]string) string {
	h := New()
	for _, data := range dirs {
		names := make([]string, 0, len(data))
		for k := range data {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			sum := sha256.Sum256([]byte(data[k]))
			h.File(k, sum[:])
		}
	}
	return h.Sum()
}

// field writes b with its length, so that different splits never hash alike.
func field(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
