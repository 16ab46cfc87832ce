package targethealth

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
)

// ConditionType is the type of the binding condition this package's health becomes.
const ConditionType monitoringv1.ConditionType = "TargetsHealthy"

// Reasons of the TargetsHealthy condition.
const (
	// ReasonTargetsUp: every target is up (True).
	ReasonTargetsUp = "TargetsUp"
	// ReasonTargetsDown: at least one target is down (False).
	ReasonTargetsDown = "TargetsDown"
	// ReasonNotScrapedYet: no target is down but some were not scraped yet (Unknown).
	ReasonNotScrapedYet = "NotScrapedYet"
	// ReasonNoTargets: the scrape pools are loaded but have no active target (False).
	ReasonNoTargets = "NoTargets"
	// ReasonNotLoaded: Prometheus does not run a configuration with the monitor's scrape
	// pools yet (Unknown).
	ReasonNotLoaded = "NotLoaded"
	// ReasonPrometheusUnreachable: the operator could not ask Prometheus (Unknown).
	ReasonPrometheusUnreachable = "PrometheusUnreachable"
)

// Key names a monitor.
type Key struct {
	Kind      string // ServiceMonitor, PodMonitor, Probe, ScrapeConfig
	Namespace string
	Name      string
}

// KeyOfPool returns the monitor a scrape pool was generated for:
// "serviceMonitor/<ns>/<name>/<i>", "podMonitor/<ns>/<name>/<i>", "probe/<ns>/<name>",
// "scrapeConfig/<ns>/<name>". Other pools (additional scrape configs, the kubelet's)
// belong to no monitor.
func KeyOfPool(pool string) (Key, bool) {
	kindPart, rest, ok := strings.Cut(pool, "/")
	if !ok {
		return Key{}, false
	}
	mk := monitorkind.OfJobPrefix(kindPart)
	if mk == nil {
		return Key{}, false
	}
	kind := mk.Name
	ns, rest, ok := strings.Cut(rest, "/")
	if !ok || ns == "" {
		return Key{}, false
	}
	name, idx, hasIdx := strings.Cut(rest, "/")
	if name == "" {
		return Key{}, false
	}
	switch kind {
	case monitoringv1.ServiceMonitorsKind, monitoringv1.PodMonitorsKind:
		if !hasIdx || !digits(idx) {
			return Key{}, false
		}
	default:
		if hasIdx {
			return Key{}, false
		}
	}
	return Key{Kind: kind, Namespace: ns, Name: name}, true
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Counts are the targets of one monitor in one Prometheus (every shard, every pool).
type Counts struct {
	Up, Down, Total int
	// Classes counts the error classes of the down targets.
	Classes map[string]int
}

func (c *Counts) add(t Target) {
	c.Total++
	switch t.Health {
	case "up":
		c.Up++
	case "down":
		c.Down++
		class := Classify(t.LastError)
		if class == "" {
			class = "down"
		}
		if c.Classes == nil {
			c.Classes = map[string]int{}
		}
		c.Classes[class]++
	}
}

// class is the error class the status shows: the most frequent, the first in
// alphabetical order among equals, so the choice does not depend on the order of the
// answer.
func (c *Counts) class() string {
	best, n := "", 0
	for k, v := range c.Classes {
		if v > n || (v == n && k < best) {
			best, n = k, v
		}
	}
	return best
}

// Snapshot is what one poll of every shard of one Prometheus found.
type Snapshot struct {
	// Monitors are the counts of every monitor with at least one active target.
	Monitors map[Key]*Counts
	// Loaded are the monitors with at least one scrape pool in the running
	// configuration; nil when the pools are not known (an older Prometheus without
	// /api/v1/scrape_pools): a monitor without targets is then taken as loaded.
	Loaded map[Key]bool
	// Unreachable, when set, says why Prometheus could not be asked; the counts are then
	// not used.
	Unreachable string
}

// NewSnapshot returns an empty snapshot.
func NewSnapshot() *Snapshot {
	return &Snapshot{Monitors: map[Key]*Counts{}}
}

// AddTarget counts one active target of any shard.
func (s *Snapshot) AddTarget(t Target) {
	k, ok := KeyOfPool(t.ScrapePool)
	if !ok {
		return
	}
	c := s.Monitors[k]
	if c == nil {
		c = &Counts{}
		s.Monitors[k] = c
	}
	c.add(t)
}

// AddPools records the scrape pools one shard runs.
func (s *Snapshot) AddPools(pools []string) {
	if s.Loaded == nil {
		s.Loaded = map[Key]bool{}
	}
	for _, p := range pools {
		if k, ok := KeyOfPool(p); ok {
			s.Loaded[k] = true
		}
	}
}

// State is the kind of health a monitor is in.
type State int

const (
	StateUp State = iota
	StateDown
	StateNotScrapedYet
	StateNoTargets
	StateNotLoaded
	StateUnreachable
)

// Health is the health of one monitor in one Prometheus. It is comparable: two equal
// values give the same condition, so comparing them decides whether to write.
type Health struct {
	State     State
	Up, Total int
	// Class is the error class of a down target, or why Prometheus is unreachable.
	Class string
}

// Health returns the health of the monitor k.
func (s *Snapshot) Health(k Key) Health {
	if s.Unreachable != "" {
		return Health{State: StateUnreachable, Class: s.Unreachable}
	}
	c := s.Monitors[k]
	if c == nil || c.Total == 0 {
		if s.Loaded != nil && !s.Loaded[k] {
			return Health{State: StateNotLoaded}
		}
		return Health{State: StateNoTargets}
	}
	h := Health{Up: c.Up, Total: c.Total}
	switch {
	case c.Down > 0:
		h.State, h.Class = StateDown, c.class()
	case c.Up < c.Total:
		h.State = StateNotScrapedYet
	default:
		h.State = StateUp
	}
	return h
}

// ConditionType is the type of the condition h becomes: TargetsHealthy.
func (Health) ConditionType() monitoringv1.ConditionType { return ConditionType }

// Condition returns the status, reason and message of the TargetsHealthy condition.
// Messages start with "<up>/<total> up" when the counts are known, which is what the
// Targets column of kubectl get shows.
func (h Health) Condition() (status monitoringv1.ConditionStatus, reason, message string) {
	switch h.State {
	case StateUp:
		return monitoringv1.ConditionTrue, ReasonTargetsUp, fmt.Sprintf("%d/%d up", h.Up, h.Total)
	case StateDown:
		return monitoringv1.ConditionFalse, ReasonTargetsDown, fmt.Sprintf("%d/%d up: %s", h.Up, h.Total, h.Class)
	case StateNotScrapedYet:
		return monitoringv1.ConditionUnknown, ReasonNotScrapedYet, fmt.Sprintf("%d/%d up: %d not scraped yet", h.Up, h.Total, h.Total-h.Up)
	case StateNoTargets:
		return monitoringv1.ConditionFalse, ReasonNoTargets, "0/0 up: no active targets (service discovery found none, or relabeling dropped them all)"
	case StateNotLoaded:
		return monitoringv1.ConditionUnknown, ReasonNotLoaded, "Prometheus does not run a configuration with this object's scrape pools yet"
	}
	return monitoringv1.ConditionUnknown, ReasonPrometheusUnreachable, "Prometheus could not be asked for its targets: " + h.Class
}
