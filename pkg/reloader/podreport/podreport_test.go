package podreport

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader"
)

// fakeWriter records writes; fail makes the next writes fail.
type fakeWriter struct {
	mu     sync.Mutex
	writes []string
	fail   int
	block  chan struct{}
}

func (f *fakeWriter) WriteConfigLoaded(ctx context.Context, hash string) error {
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes = append(f.writes, hash)
	if f.fail > 0 {
		f.fail--
		return errors.New("apiserver unavailable")
	}
	return nil
}

func (f *fakeWriter) attempts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.writes...)
}

func reloaded(hash string) reloader.Result {
	return reloader.Result{Action: reloader.ActionReloaded, ConfigHash: hash}
}

// start runs r until the test ends and returns a channel of the written hashes.
func start(t *testing.T, w Writer, o Options) (*Reporter, chan string) {
	t.Helper()
	written := make(chan string, 16)
	o.Written = func(h string) { written <- h }
	r := New(w, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return r, written
}

func next(t *testing.T, written chan string) string {
	t.Helper()
	select {
	case h := <-written:
		return h
	case <-time.After(5 * time.Second):
		t.Fatal("no write within 5s")
		return ""
	}
}

func TestOneWritePerHash(t *testing.T) {
	w := &fakeWriter{}
	r, written := start(t, w, Options{})
	r.Observe(reloaded("aaa"))
	if h := next(t, written); h != "aaa" {
		t.Fatalf("wrote %q, want aaa", h)
	}
	// The same hash again (a reload forced by a rule change, a periodic check), and
	// results that are no confirmed reload of a config: no write.
	r.Observe(reloaded("aaa"))
	r.Observe(reloader.Result{Action: reloader.ActionUnchanged, ConfigHash: "bbb"})
	r.Observe(reloader.Result{Action: reloader.ActionFailed, ConfigHash: "ccc"})
	r.Observe(reloader.Result{Action: reloader.ActionReloaded})
	r.Observe(reloaded("ddd"))
	if h := next(t, written); h != "ddd" {
		t.Fatalf("wrote %q, want ddd", h)
	}
	if got := w.attempts(); len(got) != 2 || got[0] != "aaa" || got[1] != "ddd" {
		t.Fatalf("writes %q, want [aaa ddd]", got)
	}
}

func TestRetriesWithBackoff(t *testing.T) {
	w := &fakeWriter{fail: 3}
	r, written := start(t, w, Options{RetryInterval: 10 * time.Millisecond, MaxRetry: 20 * time.Millisecond})
	t0 := time.Now()
	r.Observe(reloaded("aaa"))
	if h := next(t, written); h != "aaa" {
		t.Fatalf("wrote %q, want aaa", h)
	}
	// Retries after 10, 20 and 20 ms (capped).
	if took := time.Since(t0); took < 50*time.Millisecond {
		t.Errorf("three failures retried within %s, want at least 50ms of backoff", took)
	}
	if got := w.attempts(); len(got) != 4 {
		t.Fatalf("%d attempts %q, want 4", len(got), got)
	}
}

func TestBackoffDelays(t *testing.T) {
	r := New(nil, Options{RetryInterval: time.Second, MaxRetry: 5 * time.Second})
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	for i, w := range want {
		if got := r.delay(i + 1); got != w {
			t.Errorf("delay(%d) = %s, want %s", i+1, got, w)
		}
	}
}

// A newer hash replaces one whose write keeps failing.
func TestNewerHashReplacesFailingOne(t *testing.T) {
	w := &fakeWriter{fail: 1}
	r, written := start(t, w, Options{RetryInterval: time.Hour, MaxRetry: time.Hour})
	r.Observe(reloaded("aaa"))
	deadline := time.Now().Add(5 * time.Second)
	for len(w.attempts()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	r.Observe(reloaded("bbb"))
	if h := next(t, written); h != "bbb" {
		t.Fatalf("wrote %q, want bbb", h)
	}
}

// Observe never blocks, even while a write hangs: the reloader goes on reloading, and the
// latest hash is written when the API answers again.
func TestObserveNeverBlocks(t *testing.T) {
	w := &fakeWriter{block: make(chan struct{})}
	r, written := start(t, w, Options{})
	done := make(chan struct{})
	go func() {
		for _, h := range []string{"a", "b", "c", "d", "e"} {
			r.Observe(reloaded(h))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Observe blocked behind a hanging write")
	}
	close(w.block)
	var last string
	for last != "e" {
		last = next(t, written)
	}
}

func TestPatchBody(t *testing.T) {
	now := time.Date(2026, 12, 2, 22, 0, 0, 0, time.UTC)
	b, err := Patch("0123abcd", now)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"status":{"conditions":[{"lastTransitionTime":"2026-12-02T22:00:00Z","message":"loaded configuration sha256 0123abcd","reason":"Reloaded","status":"True","type":"lookout.dev/ConfigLoaded"}]}}`
	if string(b) != want {
		t.Errorf("patch\n%s\nwant\n%s", b, want)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if h, ok := HashOf(Message("0123abcd")); !ok || h != "0123abcd" {
		t.Errorf("HashOf(Message) = %q, %v", h, ok)
	}
	if _, ok := HashOf("something else"); ok {
		t.Error("HashOf accepted a foreign message")
	}
}
