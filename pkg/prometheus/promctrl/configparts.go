package promctrl

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/partset"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// maxConfigParts bounds how many Secrets one configuration may be spread over (64 MiB
// compressed, several hundred MiB of configuration).
const maxConfigParts = partset.MaxParts

// splitConfig is a configuration as written: its parts gzipped, part 0 for the config
// Secret, and the hash of the parts' plain text concatenated, which is what the
// config-reloader reads and reports.
type splitConfig struct {
	gz   [][]byte
	hash string
	// plainHashes are the hashes of each part's plain text (the parts' input hashes).
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
// limit is what one Secret may hold. The outcome depends on the configuration's hash,
// current and limit alone, so a reconcile with nothing changed reuses the last one
// instead of cutting and hashing the configuration again.
func (st *promState) split(res *promcfg.Result, current, limit int) (splitConfig, error) {
	key := splitKey{hash: res.Hash, current: current, limit: limit}
	if st.lastSplit.gz != nil && st.lastSplitKey == key {
		return st.lastSplit, nil
	}
	s, err := st.splitUncached(res, current, limit)
	if err == nil {
		st.lastSplit, st.lastSplitKey = s, key
	}
	return s, err
}

// splitKey is what a split depends on.
type splitKey struct {
	hash           string
	current, limit int
}

func (st *promState) splitUncached(res *promcfg.Result, current, limit int) (splitConfig, error) {
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
		if n *= 2; n > maxConfigParts {
			return s, fmt.Errorf("the compressed configuration is %d bytes, more than %d Secrets of %d bytes can hold; reduce the number of monitors selected or shard this Prometheus", s.compressedSize(), maxConfigParts, limit)
		}
		if s, fits, err = st.compressParts(res, n, limit); err != nil {
			return s, err
		}
	}
	return s, nil
}

// compressParts splits the configuration into n parts and compresses each (reusing the
// last compression of an unchanged part); fits says whether every part fits limit.
func (st *promState) compressParts(res *promcfg.Result, n, limit int) (splitConfig, bool, error) {
	if n == 1 {
		gz, err := st.gz.CompressFrom(res.Hash, res.AsPieces())
		return splitConfig{gz: [][]byte{gz}, hash: res.Hash, plainHashes: []string{res.Hash}}, err == nil && len(gz) <= limit, err
	}
	plain, err := promcfg.SplitConfig(res.Bytes(), n, st.partBufs)
	if err != nil {
		return splitConfig{}, false, err
	}
	if len(plain) == n {
		st.partBufs = plain // n parts of its own, not the config itself (a config without jobs)
	}
	if len(st.partGz) < len(plain) {
		st.partGz = append(st.partGz, make([]write.Compressor, len(plain)-len(st.partGz))...)
	}
	// Part 0 starts with the manifest line that names the hashes of parts 1 to n-1
	// (package partset), so that a reloader renders only a complete set of one generation.
	s := splitConfig{gz: make([][]byte, len(plain)), plainHashes: make([]string, len(plain))}
	// Each part is hashed and (when it changed) compressed on its own, so the parts are
	// spread over the cores: at 100,000 ServiceMonitors hashing the 144 MiB of parts was
	// most of a one-monitor change.
	errs := make([]error, len(plain))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(plain)) {
		wg.Go(func() {
			for i := range next {
				sum := sha256.Sum256(plain[i])
				h := hex.EncodeToString(sum[:])
				s.gz[i], errs[i] = st.partGz[i].CompressFast(h, plain[i])
				s.plainHashes[i] = h
			}
		})
	}
	for i := range plain {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return s, false, err
	}
	// gzip members concatenate: part 0 starts with the manifest, compressed on its own in
	// front of part 0's compression (reused while part 0 itself does not change).
	manifest := partset.Line(s.plainHashes[1:])
	gz0, err := prependGzipped(manifest, s.gz[0])
	if err != nil {
		return s, false, err
	}
	s.gz[0], s.plainHashes[0] = gz0, hashOf(manifest, plain[0])
	fits := true
	for _, gz := range s.gz {
		fits = fits && len(gz) <= limit
	}
	s.hash = hashOf(append([][]byte{manifest}, plain...)...)
	return s, fits, nil
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

// hashOf is the hex sha256 of the pieces concatenated.
func hashOf(pieces ...[]byte) string {
	h := sha256.New()
	for _, p := range pieces {
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
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
