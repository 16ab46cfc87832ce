package reloader

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	want := []time.Duration{5, 10, 20, 40, 40, 40}
	for i, w := range want {
		if got := backoff(5*time.Second, i+1); got != w*time.Second {
			t.Errorf("retry %d: %s, want %s", i+1, got, w*time.Second)
		}
	}
	if got := backoff(time.Second, 1000); got != 8*time.Second {
		t.Errorf("large n: %s", got)
	}
}
