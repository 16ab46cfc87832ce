package promcfg

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestPrefixHash: after any sequence of edits (in place, growing, shrinking, none), the
// resumed hash is the SHA-256 of the data, and a wrong "same" only ever resumes from
// states that are still valid.
func TestPrefixHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	p := &prefixHash{stride: 64}
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	prev := []byte(nil)
	for step := 0; step < 300; step++ {
		next := bytes.Clone(data)
		switch at := rng.IntN(len(next) + 1); rng.IntN(4) {
		case 0: // change one byte
			if at < len(next) {
				next[at]++
			}
		case 1: // insert
			next = append(next[:at], append(bytes.Repeat([]byte{byte(step)}, rng.IntN(200)), next[at:]...)...)
		case 2: // delete
			next = append(next[:at], next[min(at+rng.IntN(200), len(next)):]...)
		case 3: // unchanged
		}
		same := commonPrefix(prev, next)
		// Cut into pieces at random places, as the generator's pieces are.
		var pieces [][]byte
		for rest := next; len(rest) > 0; {
			n := min(len(rest), rng.IntN(300))
			pieces, rest = append(pieces, rest[:n]), rest[n:]
		}
		if got, want := p.sum(pieces, same), sha256.Sum256(next); got != want {
			t.Fatalf("step %d: resumed hash differs from SHA-256 (len %d, same %d)", step, len(next), same)
		}
		prev, data = next, next
	}
	// Unknown history (same = 0) hashes from the start.
	if got, want := p.sum([][]byte{data[:100]}, 0), sha256.Sum256(data[:100]); got != want {
		t.Fatal("hash from scratch differs")
	}
}

func TestCommonPrefix(t *testing.T) {
	a := bytes.Repeat([]byte("abcdefgh"), 100)
	for _, n := range []int{0, 1, 255, 256, 257, 512, 799} {
		b := bytes.Clone(a)
		b[n]++
		if got := commonPrefix(a, b); got != n {
			t.Fatalf("commonPrefix with a difference at %d = %d", n, got)
		}
	}
	if got := commonPrefix(a, a[:300]); got != 300 {
		t.Fatalf("commonPrefix with a prefix = %d, want 300", got)
	}
}
