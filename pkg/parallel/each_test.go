package parallel

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// Every index is done once, workers are made at most once per goroutine, and every
// error comes back.
func TestEach(t *testing.T) {
	const n = 100
	var done [n]atomic.Int32
	var workers atomic.Int32
	err := Each(n, func() func(int) error {
		workers.Add(1)
		return func(k int) error {
			done[k].Add(1)
			if k%40 == 7 {
				return fmt.Errorf("item %d", k)
			}
			return nil
		}
	})
	for k := range done {
		if got := done[k].Load(); got != 1 {
			t.Errorf("item %d done %d times", k, got)
		}
	}
	if w := workers.Load(); w < 1 || w > n {
		t.Errorf("%d workers", w)
	}
	for _, k := range []int{7, 47, 87} {
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("item %d", k)) {
			t.Errorf("error %v does not name item %d", err, k)
		}
	}
	if err := Each(0, func() func(int) error { t.Fatal("a worker for no work"); return nil }); err != nil {
		t.Fatal(err)
	}
}
