package confdiff

import (
	"math/rand"
	"testing"
)

// lcsLen is the length of a longest common subsequence, by dynamic programming.
func lcsLen(a, b []byte) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// TestEditScriptIsShortestAndValid: on random sequences the script turns a into b, in
// order, and has as many edits as the shortest one (len(a)+len(b)-2*LCS).
func TestEditScriptIsShortestAndValid(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 3000; iter++ {
		a := make([]byte, rng.Intn(30))
		b := make([]byte, rng.Intn(30))
		alpha := 1 + rng.Intn(5)
		for i := range a {
			a[i] = byte('a' + rng.Intn(alpha))
		}
		for i := range b {
			b[i] = byte('a' + rng.Intn(alpha))
		}
		script := editScript(a, b)
		var gotB []byte
		ai, bi, edits := 0, 0, 0
		for _, o := range script {
			switch o.kind {
			case opEqual:
				if o.A != ai || o.B != bi || a[o.A] != b[o.B] {
					t.Fatalf("%q -> %q: bad equal step %+v at a%d b%d", a, b, o, ai, bi)
				}
				gotB = append(gotB, a[o.A])
				ai, bi = ai+1, bi+1
			case opDelete:
				if o.A != ai || o.B != bi {
					t.Fatalf("%q -> %q: bad delete step %+v at a%d b%d", a, b, o, ai, bi)
				}
				ai++
				edits++
			case opInsert:
				if o.A != ai || o.B != bi {
					t.Fatalf("%q -> %q: bad insert step %+v at a%d b%d", a, b, o, ai, bi)
				}
				gotB = append(gotB, b[o.B])
				bi++
				edits++
			}
		}
		if ai != len(a) || string(gotB) != string(b) {
			t.Fatalf("%q -> %q: script yields %q (consumed %d of a)", a, b, gotB, ai)
		}
		if want := len(a) + len(b) - 2*lcsLen(a, b); edits != want {
			t.Fatalf("%q -> %q: %d edits, shortest is %d", a, b, edits, want)
		}
	}
}
