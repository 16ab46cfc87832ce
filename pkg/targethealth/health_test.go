package targethealth

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

func TestKeyOfPool(t *testing.T) {
	for _, tc := range []struct {
		pool string
		want Key
		ok   bool
	}{
		{"serviceMonitor/ns/app/0", Key{"ServiceMonitor", "ns", "app"}, true},
		{"serviceMonitor/ns/app/12", Key{"ServiceMonitor", "ns", "app"}, true},
		{"podMonitor/ns/pods/1", Key{"PodMonitor", "ns", "pods"}, true},
		{"probe/ns/p", Key{"Probe", "ns", "p"}, true},
		{"scrapeConfig/ns/sc", Key{"ScrapeConfig", "ns", "sc"}, true},
		{"serviceMonitor/ns/app", Key{}, false},
		{"serviceMonitor/ns/app/x", Key{}, false},
		{"probe/ns/p/0", Key{}, false},
		{"serviceMonitor//app/0", Key{}, false},
		{"kubelet", Key{}, false},
		{"additional/job", Key{}, false},
	} {
		got, ok := KeyOfPool(tc.pool)
		if got != tc.want || ok != tc.ok {
			t.Errorf("KeyOfPool(%q) = %+v, %v; want %+v, %v", tc.pool, got, ok, tc.want, tc.ok)
		}
	}
}

// TestConditions: each state's condition, with its exact message.
func TestConditions(t *testing.T) {
	sm := func(name string) Key { return Key{Kind: "ServiceMonitor", Namespace: "ns", Name: name} }
	refused := `Get "http://10.0.0.2:80/metrics": dial tcp 10.0.0.2:80: connect: connection refused`
	s := NewSnapshot()
	for _, tg := range []Target{
		{ScrapePool: "serviceMonitor/ns/healthy/0", Health: "up"},
		{ScrapePool: "serviceMonitor/ns/healthy/1", Health: "up"}, // second endpoint, same monitor
		{ScrapePool: "serviceMonitor/ns/refused/0", Health: "down", LastError: refused},
		{ScrapePool: "serviceMonitor/ns/refused/0", Health: "down", LastError: refused},
		{ScrapePool: "serviceMonitor/ns/half/0", Health: "up"},
		{ScrapePool: "serviceMonitor/ns/half/0", Health: "down", LastError: "server returned HTTP status 401 Unauthorized"},
		{ScrapePool: "serviceMonitor/ns/new/0", Health: "up"},
		{ScrapePool: "serviceMonitor/ns/new/0", Health: "unknown"},
		{ScrapePool: "serviceMonitor/ns/mixed/0", Health: "down", LastError: "server returned HTTP status 503 Service Unavailable"},
		{ScrapePool: "serviceMonitor/ns/mixed/0", Health: "down", LastError: refused},
		{ScrapePool: "serviceMonitor/ns/mixed/0", Health: "down", LastError: refused},
		{ScrapePool: "serviceMonitor/ns/noerr/0", Health: "down"},
	} {
		s.AddTarget(tg)
	}
	s.AddPools([]string{"serviceMonitor/ns/healthy/0", "serviceMonitor/ns/healthy/1", "serviceMonitor/ns/refused/0", "serviceMonitor/ns/empty/0"})
	for _, tc := range []struct {
		key             Key
		status          monitoringv1.ConditionStatus
		reason, message string
	}{
		{sm("healthy"), "True", "TargetsUp", "2/2 up"},
		{sm("refused"), "False", "TargetsDown", "0/2 up: connection refused"},
		{sm("half"), "False", "TargetsDown", "1/2 up: server returned HTTP status 401"},
		{sm("mixed"), "False", "TargetsDown", "0/3 up: connection refused"},
		{sm("noerr"), "False", "TargetsDown", "0/1 up: down"},
		{sm("new"), "Unknown", "NotScrapedYet", "1/2 up: 1 not scraped yet"},
		{sm("empty"), "False", "NoTargets", "0/0 up: no active targets (service discovery found none, or relabeling dropped them all)"},
		{sm("absent"), "Unknown", "NotLoaded", "Prometheus does not run a configuration with this object's scrape pools yet"},
	} {
		st, reason, msg := s.Health(tc.key).Condition()
		if st != tc.status || reason != tc.reason || msg != tc.message {
			t.Errorf("%s: got %s %s %q, want %s %s %q", tc.key.Name, st, reason, msg, tc.status, tc.reason, tc.message)
		}
	}

	// Without the pool list, a monitor without targets is taken as loaded.
	s.Loaded = nil
	if st, reason, _ := s.Health(sm("absent")).Condition(); st != "False" || reason != "NoTargets" {
		t.Errorf("absent without pools: %s %s", st, reason)
	}
	// Unreachable overrides everything.
	s.Unreachable = "shard 0 (pod prometheus-main-0): connection refused"
	st, reason, msg := s.Health(sm("healthy")).Condition()
	if st != "Unknown" || reason != "PrometheusUnreachable" || msg != "Prometheus could not be asked for its targets: shard 0 (pod prometheus-main-0): connection refused" {
		t.Errorf("unreachable: %s %s %q", st, reason, msg)
	}
}

// TestAddressChangeKeepsHealth: a target moving to another address (another error text)
// keeps the same Health, so nothing is written.
func TestAddressChangeKeepsHealth(t *testing.T) {
	health := func(addr string) Health {
		s := NewSnapshot()
		s.AddTarget(Target{ScrapePool: "podMonitor/ns/p/0", Health: "down", LastError: `Get "http://` + addr + `/metrics": dial tcp ` + addr + `: connect: connection refused`})
		return s.Health(Key{Kind: "PodMonitor", Namespace: "ns", Name: "p"})
	}
	if a, b := health("10.0.0.1:80"), health("10.0.0.9:8080"); a != b {
		t.Fatalf("%+v != %+v", a, b)
	}
}
