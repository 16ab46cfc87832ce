package reloader

import (
	"errors"
	"strings"
	"testing"
)

func TestComparer(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 10000) // several buffers
	for _, tc := range []struct {
		current, written string
		equal            bool
	}{
		{"", "", true},
		{"abc", "abc", true},
		{long, long, true},
		{"abc", "abd", false},
		{"abc", "ab", false}, // current is longer
		{"ab", "abc", false}, // current is shorter
		{"", "a", false},
		{long, long[:len(long)-1] + "x", false},
	} {
		c := newComparer(strings.NewReader(tc.current))
		// Written in uneven pieces, as an expander writes.
		var err error
		for w := tc.written; len(w) > 0 && err == nil; {
			n := min(len(w), 7777)
			_, err = c.Write([]byte(w[:n]))
			w = w[n:]
		}
		equal := false
		if err == nil {
			equal, err = c.equal()
		} else if !errors.Is(err, errDiffers) {
			t.Fatalf("%.10q vs %.10q: %v", tc.current, tc.written, err)
		}
		if err != nil && !errors.Is(err, errDiffers) {
			t.Fatal(err)
		}
		if equal != tc.equal {
			t.Errorf("%.10q (%d bytes) vs %.10q (%d bytes): equal %v, want %v", tc.current, len(tc.current), tc.written, len(tc.written), equal, tc.equal)
		}
	}
}
