package generated

import "bytes"

// chunkSize is how many bytes of configuration each gzip member of CompressFrom holds.
const chunkSize = 1 << 20

// member is one gzip member of a chunked compression: the gzipped configuration bytes up
// to end (from the previous member's end).
type member struct {
	end int
	gz  []byte
}

// CompressFrom is Compress for a configuration of which the first same bytes are those of
// the configuration last given, hashed prevHash (what promcfg.Result's Same and PrevHash
// say). It gzips the configuration as independent members of chunkSize bytes, one gzip
// stream after another, which gzip readers (Go's, gunzip, the config-reloaders) read as
// one file, and reuses the members wholly inside the unchanged prefix: a change to one
// monitor of 20,000 recompresses what follows it, half of the 29 MB on average, not all
// of it. A result too big for a Secret at the fast level is redone as Compress does.
func (c *Compressor) CompressFrom(hash string, pieces [][]byte, prevHash string, same int) ([]byte, error) {
	if c.hash == hash && c.out != nil {
		return c.out, nil
	}
	total := 0
	for _, p := range pieces {
		total += len(p)
	}
	keep := 0
	if c.membersOf == prevHash && prevHash != "" {
		// Whole chunks only: a last, shorter member is redone, so that the members always
		// fall on the same boundaries and the output is what compressing the whole
		// configuration at once gives (a restarted operator compares it with the live
		// Secret byte for byte).
		for keep < len(c.members) && c.members[keep].end <= same && c.members[keep].end <= total && c.members[keep].end%chunkSize == 0 {
			keep++
		}
	}
	members := c.members[:keep]
	start := 0
	if keep > 0 {
		start = members[keep-1].end
	}
	r := pieceReader{pieces: pieces}
	r.skip(start)
	for start < total || start == 0 && len(members) == 0 {
		end := min((start/chunkSize+1)*chunkSize, total)
		gz, err := c.gzipPieces(&r, end-start, 3)
		if err != nil {
			return nil, err
		}
		members = append(members, member{end: end, gz: gz})
		start = end
	}
	size := 0
	for _, m := range members {
		size += len(m.gz)
	}
	if size > MaxSecretData && size <= MaxSecretData*3/2 {
		// Might fit at the best level, as one stream.
		c.members, c.membersOf = nil, ""
		return c.compress(hash, bytes.Join(pieces, nil), true)
	}
	out := make([]byte, 0, size)
	for _, m := range members {
		out = append(out, m.gz...)
	}
	c.members, c.membersOf = members, hash
	c.hash, c.out = hash, out
	return out, nil
}

// gzipPieces gzips the next n bytes of r as one gzip member, at level.
func (c *Compressor) gzipPieces(r *pieceReader, n, level int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(n / 32)
	if err := c.resetWriter(&buf, level); err != nil {
		return nil, err
	}
	for n > 0 {
		b := r.next(n)
		if _, err := c.w.Write(b); err != nil {
			return nil, err
		}
		n -= len(b)
	}
	if err := c.w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pieceReader hands out the bytes of pieces in order.
type pieceReader struct {
	pieces [][]byte
	i, off int // the current piece, and the offset in it
}

func (r *pieceReader) skip(n int) {
	for n > 0 && r.i < len(r.pieces) {
		left := len(r.pieces[r.i]) - r.off
		if n < left {
			r.off += n
			return
		}
		n -= left
		r.i, r.off = r.i+1, 0
	}
}

// next returns up to n bytes (none at the end).
func (r *pieceReader) next(n int) []byte {
	for r.i < len(r.pieces) && r.off == len(r.pieces[r.i]) {
		r.i, r.off = r.i+1, 0
	}
	if r.i == len(r.pieces) {
		return nil
	}
	b := r.pieces[r.i][r.off:]
	if len(b) > n {
		b = b[:n]
	}
	r.off += len(b)
	return b
}
