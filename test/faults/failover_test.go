package faults

import (
	"fmt"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The lease settings the operator runs with: its defaults (ADR 15,
// --leader-election-lease-duration and --leader-election-retry-period).
const (
	leaseDuration = 8 * time.Second
	retryPeriod   = 1 * time.Second
)

// failoverLimit bounds the measured failover. The standby reads the Lease every
// retryPeriod plus up to 120 % jitter (client-go's JitterFactor), so up to 2.2 s apart;
// it takes the Lease once it has seen it unchanged for leaseDuration, counted from the
// read that saw the last renewal. That read comes up to one interval after the kill, the
// read that finds the Lease expired up to one interval after the expiry: 8 + 2.2 + 2.2
// s, then the new leader starts its controllers and reconciles (about half a second):
// within issue 16's target of 15 s.
const failoverLimit = 15 * time.Second

// TestLeaderFailover: two replicas with leader election; the leader is SIGKILLed while
// ServiceMonitors keep being created. The standby takes over and reconciles the changes
// made after the kill; the final config holds every monitor, every monitor has its
// status, and the new leader wrote the config Secret at most once per change and nothing
// else that was already up to date.
func TestLeaderFailover(t *testing.T) {
	ns := cp.newNamespace(t)
	a := startOperator(t, cp, "replica-a", "failover", "--leader-elect=true")
	poll(t, "replica a leads", 30*time.Second, []*operator{a}, func() error { return leads(a) })
	b := startOperator(t, cp, "replica-b", "failover", "--leader-elect=true")
	ops := []*operator{a, b}

	var initial []string
	objs := []client.Object{newPrometheus(ns, "p", "failover")}
	for i := range 5 {
		name := fmt.Sprintf("before-%d", i)
		initial = append(initial, name)
		objs = append(objs, newServiceMonitor(ns, name, "failover"))
	}
	cp.mustCreate(t, objs...)
	poll(t, "config holds the first monitors", 30*time.Second, ops, func() error { return cp.configHasMonitors(ns, "p", initial...) })
	quiet(t, time.Second, 30*time.Second, a, b)
	if w, err := b.writes(); err != nil || sum(w) != 0 {
		t.Fatalf("the standby wrote to the API: %v %v", w, err)
	}
	if err := leads(b); err == nil {
		t.Fatal("both replicas lead")
	}

	// Monitors change: one more every 300 ms until the new leader has served a few.
	ch := startChanger(t, ns, "failover", 300*time.Millisecond)
	defer ch.stop()
	ch.waitCount(t, 5)
	a.kill()
	killed := time.Now()
	unbound, err := unboundMonitors(ns, "p")
	if err != nil {
		t.Fatal(err)
	}
	firstAfter := ch.waitAfter(t, killed)
	took := poll(t, "replica b leads", failoverLimit, []*operator{b}, func() error { return leads(b) })
	t.Logf("measured: new leader %s after SIGKILL", took.Round(time.Millisecond))
	poll(t, "first change after the kill in the config", failoverLimit, []*operator{b}, func() error {
		return cp.configHasMonitors(ns, "p", firstAfter)
	})
	failover := time.Since(killed)
	t.Logf("measured: failover %s (SIGKILL to the first monitor created after it in the config; lease %s, retry %s)", failover.Round(time.Millisecond), leaseDuration, retryPeriod)
	if failover > failoverLimit {
		t.Errorf("failover took %s, over %s", failover, failoverLimit)
	}
	// A few changes made under the new leader, then stop.
	n := ch.count()
	ch.waitCount(t, n+3)
	created := ch.stop()

	all := append(append([]string(nil), initial...), created...)
	poll(t, "config holds every monitor", 30*time.Second, []*operator{b}, func() error { return cp.configHasMonitors(ns, "p", all...) })
	poll(t, "every monitor Accepted", 30*time.Second, []*operator{b}, func() error {
		missing, err := unboundMonitors(ns, "p")
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return fmt.Errorf("%d monitors without an Accepted binding: %v", len(missing), missing)
		}
		return nil
	})
	w := quiet(t, 2*time.Second, 30*time.Second, b)[0]
	after := ch.createdSince(killed)
	t.Logf("measured: %d monitors created after the kill, %d left without status by the old leader; new leader's writes %v", after, len(unbound), w)
	if w["Secret/update"] < 1 || w["Secret/update"] > float64(after) {
		t.Errorf("new leader updated the config Secret %v times for %d changes", w["Secret/update"], after)
	}
	if s := w["ServiceMonitor/apply-status"]; s > float64(after+len(unbound)) {
		t.Errorf("new leader wrote %v ServiceMonitor statuses, more than the %d monitors created after the kill plus the %d the old leader left without status", s, after, len(unbound))
	}
	for _, k := range []string{"Secret/create", "ConfigMap/create", "ConfigMap/update", "StatefulSet/create", "StatefulSet/update", "Service/create", "Service/update"} {
		if w[k] != 0 {
			t.Errorf("new leader wrote %s %v times; nothing of that changed", k, w[k])
		}
	}
	if w["Prometheus/apply-status"] > 1 {
		t.Errorf("new leader wrote the Prometheus status %v times", w["Prometheus/apply-status"])
	}
}

func leads(o *operator) error {
	ok, err := o.isLeader()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("operator %s does not lead", o.name)
	}
	return nil
}

// unboundMonitors lists the ServiceMonitors of ns without an Accepted binding to
// Prometheus ns/prom.
func unboundMonitors(ns, prom string) ([]string, error) {
	var list monitoringv1.ServiceMonitorList
	if err := cp.c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	var out []string
	for _, m := range list.Items {
		if accepted(m.Status.Bindings, ns, prom, true) != nil {
			out = append(out, m.Name)
		}
	}
	return out, nil
}

// changer creates a ServiceMonitor every interval until stopped.
type changer struct {
	mu      sync.Mutex
	names   []string
	times   []time.Time
	err     error
	done    chan struct{}
	stopped chan struct{}
}

func startChanger(t *testing.T, ns, group string, interval time.Duration) *changer {
	c := &changer{done: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(c.stopped)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			name := fmt.Sprintf("change-%03d", i)
			err := cp.c.Create(ctx, newServiceMonitor(ns, name, group))
			c.mu.Lock()
			if err != nil {
				c.err = err
				c.mu.Unlock()
				return
			}
			c.names, c.times = append(c.names, name), append(c.times, time.Now())
			c.mu.Unlock()
			select {
			case <-c.done:
				return
			case <-tick.C:
			}
		}
	}()
	return c
}

// stop ends the changes and returns the names created.
func (c *changer) stop() []string {
	select {
	case <-c.done:
	default:
		close(c.done)
	}
	<-c.stopped
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.names...)
}

func (c *changer) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.names)
}

// waitCount waits until n monitors were created.
func (c *changer) waitCount(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c.mu.Lock()
		got, err := len(c.names), c.err
		c.mu.Unlock()
		if err != nil {
			t.Fatalf("creating monitors: %v", err)
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d monitors created", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitAfter returns the first monitor created after t0, waiting for it.
func (c *changer) waitAfter(t *testing.T, t0 time.Time) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c.mu.Lock()
		for i, at := range c.times {
			if at.After(t0) {
				name := c.names[i]
				c.mu.Unlock()
				return name
			}
		}
		err := c.err
		c.mu.Unlock()
		if err != nil {
			t.Fatalf("creating monitors: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatal("no monitor created after the kill")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// createdSince counts the monitors created after t0.
func (c *changer) createdSince(t0 time.Time) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, at := range c.times {
		if at.After(t0) {
			n++
		}
	}
	return n
}
