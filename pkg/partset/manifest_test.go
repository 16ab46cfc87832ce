package partset

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	body := []byte("global: {}\nscrape_configs:\n")
	head := append(Line([]string{a, b}), body...)
	for _, c := range []struct {
		name     string
		head     []byte
		got      []string
		mismatch bool
	}{
		{"one part, no manifest", body, nil, false},
		{"complete set", head, []string{a, b}, false},
		{"a part of another generation", head, []string{a, a}, true},
		{"pod reads fewer parts (config grew)", head, []string{a}, true},
		{"pod reads no parts (config grew from one)", head, nil, true},
		{"pod reads more parts (config shrank)", head, []string{a, b, a}, true},
		{"pod reads parts, config is one again", body, []string{a}, true},
	} {
		err := Check(c.head, c.got)
		if got := errors.Is(err, ErrMismatch); got != c.mismatch || (!c.mismatch && err != nil) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if err := Check([]byte(prefix+"x\n"), nil); err == nil || errors.Is(err, ErrMismatch) {
		t.Errorf("malformed manifest: %v", err)
	}
	full := make([]string, MaxParts-1)
	for i := range full {
		full[i] = a
	}
	if n := len(Line(full)); n > MaxLineLen {
		t.Errorf("line of %d bytes for %d parts, MaxLineLen %d", n, MaxParts, MaxLineLen)
	}
}
