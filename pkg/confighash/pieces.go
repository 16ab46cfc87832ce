package confighash

import (
	"bytes"
	"crypto/sha256"
	"unsafe"
)

// Pieces names texts given as pieces, remembering the chunk hashes of every piece that
// starts a chunk and ends a line (a monitor's jobs, in a generated configuration): a text
// whose pieces are mostly the last call's is named by hashing the new pieces and the
// list of chunk hashes (at 100,000 monitors, 32 bytes per job instead of the 79 MB of a
// part). A piece is known by its address and length: the pieces of a text must not be
// changed in place while a Pieces may still see them again. The zero Pieces is ready;
// one Pieces serves one caller at a time.
type Pieces struct {
	// prev are the last call's pieces' hashes by position (nil: not a whole piece), and
	// spare the slice before it, reused.
	prev, spare []*pieceSums
}

// pieceSums are the hashes of one piece's chunks.
type pieceSums struct {
	piece []byte // holds the bytes it was computed from
	// inner are the hashes of the chunks before the last; last is where the last chunk
	// starts and lastSum its hash when the next piece starts a chunk.
	inner   [][sha256.Size]byte
	last    int
	lastSum [sha256.Size]byte
}

// Sum returns the name of the pieces concatenated, the same as Sum of the joined text.
// Only the pieces of this call are remembered for the next.
func (c *Pieces) Sum(pieces [][]byte) string {
	cur := c.spare[:0]
	if cap(cur) < len(pieces) {
		cur = make([]*pieceSums, 0, len(pieces))
	}
	var moved map[*byte]*pieceSums // the last call's pieces by address, once one moved
	w := NewWriter()
	var pending *pieceSums // a piece whose last chunk the next piece may continue
	startsLine := true     // the text's start starts a chunk
	for i, p := range pieces {
		// A piece at its place in the last call is known without reading its bytes (at
		// 100,000 monitors, reading each piece's ends was most of a call).
		var s *pieceSums
		if startsLine && i < len(c.prev) && c.prev[i] != nil && same(c.prev[i].piece, p) {
			s = c.prev[i]
		} else if !startsLine || !whole(p) {
			cur = append(cur, nil)
			if len(p) == 0 {
				continue
			}
			if pending != nil {
				w.resume(pending.piece[pending.last:])
				pending = nil
			}
			w.Write(p)
			startsLine = p[len(p)-1] == '\n'
			continue
		} else if len(pieces) != len(c.prev) {
			// Pieces were added or removed: the others are looked for where they were.
			if moved == nil {
				moved = make(map[*byte]*pieceSums, len(c.prev))
				for _, s := range c.prev {
					if s != nil {
						moved[unsafe.SliceData(s.piece)] = s
					}
				}
			}
			if s = moved[unsafe.SliceData(p)]; s == nil || len(s.piece) != len(p) {
				s = hashPiece(p)
			}
		} else {
			s = hashPiece(p)
		}
		if pending != nil {
			w.outer.Write(pending.lastSum[:])
		} else {
			w.cut()
		}
		cur = append(cur, s)
		for i := range s.inner {
			w.outer.Write(s.inner[i][:])
		}
		pending = s
		startsLine = true
	}
	if pending != nil {
		w.outer.Write(pending.lastSum[:])
	}
	// The last call's hashes are let go (their pieces with them); their slice is reused.
	clear(c.prev)
	c.prev, c.spare = cur, c.prev
	return w.Sum()
}

// same reports whether a and b are the very same bytes.
func same(a, b []byte) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// whole reports whether p, after a newline, is chunks from start to end: it starts a
// chunk and ends a line, so its chunks do not depend on the pieces around it.
func whole(p []byte) bool {
	return len(p) >= 2 && p[0] == '-' && p[1] == ' ' && p[len(p)-1] == '\n'
}

// hashPiece hashes the chunks of a whole piece.
func hashPiece(p []byte) *pieceSums {
	s := &pieceSums{piece: p}
	start := 0
	for {
		i := bytes.Index(p[start:], cutBefore)
		if i < 0 {
			break
		}
		end := start + i + 1
		s.inner = append(s.inner, sha256.Sum256(p[start:end]))
		start = end
	}
	s.last, s.lastSum = start, sha256.Sum256(p[start:])
	return s
}
