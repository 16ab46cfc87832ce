package priority

import (
	"context"
	"testing"
	"time"
)

func TestWaitReturnsAtOnceWhenFree(t *testing.T) {
	var g Gate
	if d := g.Wait(context.Background(), time.Hour); d != 0 {
		t.Errorf("waited %s on a free gate", d)
	}
	var nilGate *Gate
	nilGate.Enter()()
	if d := nilGate.Wait(context.Background(), time.Hour); d != 0 {
		t.Errorf("waited %s on a nil gate", d)
	}
}

func TestWaitUntilEveryHolderLeaves(t *testing.T) {
	var g Gate
	leave1, leave2 := g.Enter(), g.Enter()
	done := waiting(&g)
	leave1()
	leave1() // a second call is a no-op, not a release of the other holder
	select {
	case <-done:
		t.Fatal("Wait returned while a reconcile still held the gate")
	case <-time.After(50 * time.Millisecond):
	}
	leave2()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return after the last holder left")
	}
	// Held again after being free: a new waiter waits again.
	leave3 := g.Enter()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g.Wait(ctx, time.Hour) // a cancelled context ends the wait
	leave3()
}

func TestWaitIsBounded(t *testing.T) {
	var g Gate
	defer g.Enter()()
	if d := g.Wait(context.Background(), 20*time.Millisecond); d < 20*time.Millisecond {
		t.Errorf("waited %s, want the bound of 20ms", d)
	}
}

// TestLinger: the gate stays closed for Linger after the last holder left, and a holder
// entering meanwhile keeps it closed until it leaves and the linger has passed again.
func TestLinger(t *testing.T) {
	g := Gate{Linger: 100 * time.Millisecond}
	leave := g.Enter()
	leave()
	start := time.Now()
	g.Wait(context.Background(), time.Hour)
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Fatalf("Wait returned %s after the holder left, before the linger of 100ms", d)
	}
	// Free again: no wait.
	if d := g.Wait(context.Background(), time.Hour); d != 0 {
		t.Fatalf("waited %s on an open gate", d)
	}
	// A holder entering during the linger: the first linger does not open the gate.
	g.Enter()()
	time.Sleep(50 * time.Millisecond)
	leave = g.Enter()
	done := waiting(&g)
	select {
	case <-done:
		t.Fatal("the first linger opened the gate under a new holder")
	case <-time.After(200 * time.Millisecond):
	}
	leave()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the gate did not open after the second linger")
	}
}

// waiting starts a Wait on g and returns a channel closed when it returns.
func waiting(g *Gate) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		g.Wait(context.Background(), time.Hour)
		close(done)
	}()
	return done
}
