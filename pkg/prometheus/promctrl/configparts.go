package promctrl

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/parallel"
	"github.com/lookout-operator/lookout/pkg/partset"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// maxConfigParts bounds how many Secrets one configuration may be spread over (64 MiB
// compressed, several hundred MiB of configuration).
const maxConfigParts = partset.MaxParts

// splitConfig is a configuration as written: its parts gzipped, part 0 for the config
// Secret, and its name (part 0's, ADR 38, computed by package confighash, ADR 41), which
// is what the config-reloader reads and reports.
type splitConfig struct {
	gz   [][]byte
	hash string
	// plainHashes name each part's plain text (the parts' input hashes).
	plainHashes []string
}

// compressedSize is the size of all parts together.
func (s splitConfig) compressedSize() int {
	n := 0
	for _, b := range s.gz {
		n += len(b)
	}
	return n
}

// split spreads res's configuration over as few Secrets as fit, starting from current
// (how many it takes now; ADR 20): it stays at current while every part fits, grows by
// doubling when one does not, and shrinks by halves only while the half would be filled
// to a quarter at most, so a configuration near a boundary does not go back and forth. A
// configuration that fits one Secret is written as before, in the config Secret alone.
// limit is what one Secret may hold; when a split does not fit, the next number of parts
// is chosen from its compressed size (grownParts). Only the parts whose pieces changed are hashed and
// compressed again (ADR 38): a reconcile with nothing changed reuses the last split.
func (st *promState) split(res *promcfg.Result, current, limit int) (splitConfig, error) {
	n := max(current, 1)
	s, fits, err := st.compressParts(res, n, limit)
	if err != nil {
		return s, err
	}
	for fits && n > 1 && s.compressedSize() <= n/2*limit/4 {
		half, ok, err := st.compressParts(res, n/2, limit)
		if err != nil || !ok {
			break
		}
		s, n = half, n/2
	}
	for !fits {
		if n = grownParts(n, s.compressedSize(), limit); n > maxConfigParts {
			return s, fmt.Errorf("the compressed configuration is %d bytes, more than %d Secrets of %d bytes can hold; reduce the number of monitors selected or shard this Prometheus", s.compressedSize(), maxConfigParts, limit)
		}
		if s, fits, err = st.compressParts(res, n, limit); err != nil {
			return s, err
		}
	}
	// Only the state of the number of parts written is kept.
	for k := range st.splits {
		if k != len(s.gz) {
			delete(st.splits, k)
		}
	}
	return s, nil
}

// grownParts is the number of parts after n did not fit: twice n, or, when the
// compressed size says more are needed, the power of two whose parts 1 to n-1 (part 0
// holds no jobs, ADR 42) hold it with a quarter to spare (a cold start at 100,000
// monitors went 1, 2, 4, 8, compressing 150 MB each time).
func grownParts(n, compressed, limit int) int {
	n *= 2
	for n < maxConfigParts && (n-1)*limit < compressed+compressed/4 {
		n *= 2
	}
	return n
}

// splitState is what the last split into one number of parts made of each part.
type splitState struct {
	assign promcfg.Parts
	parts  []partState
	// last is the last split into these parts, reused while no part changes.
	last splitConfig
}

// partState is one part of a split: its pieces, the name of its plain text (part 0: none,
// its name covers the manifest line in front of it), the chunk hashes that name it and
// its compression.
type partState struct {
	pieces [][]byte
	hash   string
	sums   confighash.Pieces
	gz     []byte
	c      write.Compressor
}

// compressParts splits the configuration into n parts and compresses each; a part whose
// pieces are the last split's keeps its hash and compression. fits says whether every
// part fits limit.
func (st *promState) compressParts(res *promcfg.Result, n, limit int) (splitConfig, bool, error) {
	if n == 1 {
		// The name (the changed monitors' chunks and the list of chunk hashes after a
		// change, every chunk at a cold start) and the compression (of the changed
		// members only) are computed side by side; the compression then keys on no hash
		// and always reuses its unchanged members.
		hashed := make(chan string, 1)
		go func() { hashed <- res.ConfigHash() }()
		gz, err := st.gz.CompressFrom("", res.AsPieces())
		hash := <-hashed
		return splitConfig{gz: [][]byte{gz}, hash: hash, plainHashes: []string{hash}}, err == nil && len(gz) <= limit, err
	}
	if st.splits == nil {
		st.splits = map[int]*splitState{}
	}
	ss := st.splits[n]
	if ss == nil {
		ss = &splitState{}
		st.splits[n] = ss
	}
	parts, ok := ss.assign.Assign(res.AsPieces(), n)
	if !ok {
		plain, err := promcfg.SplitConfig(res.Bytes(), n, nil)
		if err != nil {
			return splitConfig{}, false, err
		}
		parts = make([][][]byte, len(plain))
		for i, p := range plain {
			parts[i] = [][]byte{p}
		}
	}
	if len(ss.parts) != len(parts) {
		ss.parts, ss.last = make([]partState, len(parts)), splitConfig{}
	}
	var changed []int
	for i, ps := range parts {
		if ss.parts[i].gz == nil || !write.SamePieces(ss.parts[i].pieces, ps) {
			changed = append(changed, i)
		}
	}
	if len(changed) == 0 && ss.last.gz != nil {
		return ss.last, fitIn(ss.last.gz, limit), nil
	}
	// The changed parts are hashed and compressed on every core: a new configuration
	// changes them all. Part 0 is compressed without a hash (write.Compressor then reuses
	// no earlier output; its members still are): its hash covers the manifest, made after.
	err := parallel.Each(len(changed), func() func(int) error {
		return func(k int) error {
			i := changed[k]
			p := &ss.parts[i]
			p.pieces, p.hash = parts[i], ""
			if i > 0 {
				p.hash = p.sums.Sum(parts[i])
			}
			var err error
			if p.gz, err = p.c.CompressPartFrom(p.hash, parts[i]); err != nil {
				p.gz = nil
			}
			return err
		}
	})
	if err != nil {
		return splitConfig{}, false, err
	}
	// Part 0 starts with the manifest line that names the hashes of parts 1 to n-1
	// (package partset), so that a reloader renders only a complete set of one
	// generation; the manifest is gzipped on its own in front of part 0's compression.
	// Part 0's hash, of the manifest and its pieces, names the whole configuration: the
	// manifest names every other part.
	s := splitConfig{gz: make([][]byte, len(parts)), plainHashes: make([]string, len(parts))}
	for i := range parts {
		s.gz[i], s.plainHashes[i] = ss.parts[i].gz, ss.parts[i].hash
	}
	manifest := partset.Line(s.plainHashes[1:])
	gz0, err := prependGzipped(manifest, s.gz[0])
	if err != nil {
		return s, false, err
	}
	s.gz[0], s.plainHashes[0] = gz0, ss.parts[0].sums.Sum(append([][]byte{manifest}, parts[0]...))
	s.hash = s.plainHashes[0]
	ss.last = s
	return s, fitIn(s.gz, limit), nil
}

// fitIn reports whether every part fits limit.
func fitIn(gz [][]byte, limit int) bool {
	for _, b := range gz {
		if len(b) > limit {
			return false
		}
	}
	return true
}

// prependGzipped returns gz with plain gzipped in front of it, as its first member.
func prependGzipped(plain, gz []byte) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(gz) + len(plain) + 64)
	zw, err := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(plain); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return append(b.Bytes(), gz...), nil
}

// liveConfigParts counts the config part Secrets of p in the cache: 1 plus the part
// Secrets numbered from 1 without a gap.
func (r *Reconciler) liveConfigParts(ctx context.Context, p *promserver.Server) (int, error) {
	n := 1
	for ; n < maxConfigParts; n++ {
		live, err := write.Metadata(ctx, r.Client, apply.SecretGVK, types.NamespacedName{Namespace: p.Namespace, Name: promplan.Instance(p).ConfigPartSecret(n)})
		if err != nil {
			return 0, applyFailed(err)
		}
		if live == nil || !ownedBy(live, p) {
			break
		}
	}
	return n, nil
}
