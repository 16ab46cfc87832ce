package write

import (
	"bytes"
	"compress/gzip"
	"unsafe"

	"github.com/lookout-operator/lookout/pkg/parallel"
)

// Where CompressFrom ends a gzip member: at the end of a piece (a monitor's jobs), chosen
// by the piece's own bytes, so that the members after a change end where they ended
// before and are reused. A member holds at least minMember bytes of configuration; after
// that, about one piece end in cutEvery is a member end, and a member never grows past
// maxMember at a piece end (a single longer piece is cut at maxMember within).
const (
	minMember = 512 << 10
	maxMember = 2 << 20
	cutEvery  = 256
	// sampleLen is how much of a piece's start decides whether a member ends after it:
	// a job's name is in its first line.
	sampleLen = 64
)

// member is one gzip member of CompressFrom: the pieces it holds and their gzip.
type member struct {
	pieces [][]byte
	size   int
	gz     []byte
}

// memberKey finds the last compression's member that may hold the same pieces.
type memberKey struct {
	first  uint64 // sample of the first piece
	pieces int
	size   int
}

// CompressFrom is Compress for a configuration given as pieces (the header and each
// monitor's jobs, promcfg.Result.Pieces). It gzips it as independent members, one gzip
// stream after another, which gzip readers (Go's, gunzip, the config-reloaders) read as
// one file. Members end at pieces chosen by their content, so the output depends on the
// pieces alone (a restarted operator compares it with the live Secret byte for byte),
// and a member holding the very pieces of one of the last compression's members is
// reused: a change to one monitor of 20,000 recompresses the member around it, about
// 1 MiB of the 29 MB. A result too big for a Secret at the fast level is redone as
// Compress does.
func (c *Compressor) CompressFrom(hash string, pieces [][]byte) ([]byte, error) {
	return c.compressFrom(hash, pieces, true)
}

// CompressPartFrom is CompressFrom for a part of a configuration spread over several
// Secrets (ADR 20): never redone at the best level, since a part that does not fit means
// one Secret more, not a refused configuration, and a change must cost little (redoing a
// 38 MB part at the best level was 400 ms of a change at 100,000 monitors).
func (c *Compressor) CompressPartFrom(hash string, pieces [][]byte) ([]byte, error) {
	return c.compressFrom(hash, pieces, false)
}

func (c *Compressor) compressFrom(hash string, pieces [][]byte, best bool) ([]byte, error) {
	if c.reusable(hash) {
		return c.out, nil
	}
	old := make(map[memberKey]*member, len(c.members))
	for i := range c.members {
		m := &c.members[i]
		old[keyOf(m.pieces, m.size)] = m
	}
	cuts := memberCuts(pieces)
	members := make([]member, len(cuts))
	var todo []int
	for i, ps := range cuts {
		size := 0
		for _, p := range ps {
			size += len(p)
		}
		members[i] = member{pieces: ps, size: size}
		if m := old[keyOf(ps, size)]; m != nil && SamePieces(m.pieces, ps) {
			members[i].gz = m.gz
			continue
		}
		todo = append(todo, i)
	}
	if err := c.gzipMembers(members, todo); err != nil {
		return nil, err
	}
	size := 0
	for _, m := range members {
		size += len(m.gz)
	}
	if best && size > MaxSecretData && size <= MaxSecretData*3/2 {
		// Might fit at the best level, as one stream.
		c.members = nil
		return c.compress(hash, bytes.Join(pieces, nil))
	}
	out := make([]byte, 0, size)
	for _, m := range members {
		out = append(out, m.gz...)
	}
	c.members = members
	c.hash, c.out = hash, out
	return out, nil
}

// memberCuts splits pieces into the pieces of each member (at least one member, empty for
// an empty configuration).
func memberCuts(pieces [][]byte) [][][]byte {
	var cuts [][][]byte
	var cur [][]byte
	acc := 0
	end := func() {
		cuts = append(cuts, cur)
		cur, acc = nil, 0
	}
	for _, p := range pieces {
		for len(p) > 0 {
			n := min(len(p), maxMember-acc)
			cur, acc = append(cur, p[:n]), acc+n
			whole := n == len(p)
			p = p[n:]
			if acc >= maxMember || whole && acc >= minMember && sample(cur[len(cur)-1])%cutEvery == 0 {
				end()
			}
		}
	}
	if len(cur) > 0 || len(cuts) == 0 {
		end()
	}
	return cuts
}

// sample hashes the start of a piece and its length (FNV-1a: the same in every process).
// It is computed inline, as hash/fnv's New64a computes it: that hasher and the length's
// bytes were two allocations per piece, 40,000 per change at 20,000 monitors.
func sample(p []byte) uint64 {
	h := uint64(fnvOffset64)
	for _, c := range p[:min(len(p), sampleLen)] {
		h = (h ^ uint64(c)) * fnvPrime64
	}
	n := uint64(len(p))
	for _, c := range [4]byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} {
		h = (h ^ uint64(c)) * fnvPrime64
	}
	return h
}

// FNV-1a's 64-bit offset basis and prime.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

func keyOf(pieces [][]byte, size int) memberKey {
	k := memberKey{pieces: len(pieces), size: size}
	if len(pieces) > 0 {
		k.first = sample(pieces[0])
	}
	return k
}

// SamePieces reports whether a and b hold the same bytes piece by piece: mostly the very
// same cached bytes, compared by address.
func SamePieces(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		if len(a[i]) > 0 && unsafe.SliceData(a[i]) == unsafe.SliceData(b[i]) {
			continue
		}
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// gzipMembers compresses the members numbered todo (at level 3): one with the reused
// writer, several on every core, a writer each (a cold start compresses every member:
// 150 MB at 100,000 monitors took 2.5 s on one core).
func (c *Compressor) gzipMembers(members []member, todo []int) error {
	if len(todo) <= 1 {
		for _, i := range todo {
			gz, err := c.gzipPieces(members[i].pieces, members[i].size, 3)
			if err != nil {
				return err
			}
			members[i].gz = gz
		}
		return nil
	}
	return parallel.Each(len(todo), func() func(int) error {
		var w *gzip.Writer
		return func(k int) error {
			m := &members[todo[k]]
			var buf bytes.Buffer
			buf.Grow(m.size / 32)
			if w == nil {
				var err error
				if w, err = gzip.NewWriterLevel(&buf, 3); err != nil {
					return err
				}
			} else {
				w.Reset(&buf)
			}
			if err := writePieces(w, m.pieces); err != nil {
				return err
			}
			m.gz = buf.Bytes()
			return nil
		}
	})
}

// gzipPieces gzips pieces (size bytes) as one gzip member at level, into a new slice.
func (c *Compressor) gzipPieces(pieces [][]byte, size, level int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(size / 32)
	if err := c.resetWriter(&buf, level); err != nil {
		return nil, err
	}
	if err := writePieces(c.w, pieces); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writePieces writes pieces to w and closes it.
func writePieces(w *gzip.Writer, pieces [][]byte) error {
	for _, p := range pieces {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return w.Close()
}
