package monitorcost

import (
	"math"

	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// Key names a monitor (its kind, namespace and name).
type Key = targethealth.Key

// Cost is what one monitor costs one Prometheus per scrape, summed over its targets on
// every shard. It is comparable: two equal (rounded) costs give the same condition.
type Cost struct {
	// Samples kept after metric relabeling, and series added, per scrape.
	Samples, SeriesAdded int64
	// MaxTargetSamples are the samples of the busiest target: what sample_limit is
	// compared with, since the limit applies to every scrape of every target.
	MaxTargetSamples int64
	// Targets are the monitor's active targets; Scraped those with figures (scraped at
	// least once).
	Targets, Scraped int
}

// Snapshot is what one poll of every shard of one Prometheus found.
type Snapshot struct {
	// Monitors are the costs of every monitor with at least one active target.
	Monitors map[Key]*Cost
	// Limits are the Prometheus's own sample limits, for the limit in force.
	Limits Limits
	// Unmatched counts series whose labels matched no monitor's target (other jobs:
	// additional scrape configs, the kubelet's); Ambiguous, targets of two monitors with
	// the same labels, whose series cannot be told apart and are left out.
	Unmatched, Ambiguous int
}

// NewSnapshot returns an empty snapshot.
func NewSnapshot(l Limits) *Snapshot {
	return &Snapshot{Monitors: map[Key]*Cost{}, Limits: l}
}

// Cost returns the cost of monitor k, rounded (see Round).
func (s *Snapshot) Cost(k Key) Cost {
	c := s.Monitors[k]
	if c == nil {
		return Cost{}
	}
	return c.Rounded()
}

// Shard joins one shard's targets and series. Series and targets of one shard only
// meet: each shard scrapes its own targets.
type Shard struct {
	snap    *Snapshot
	targets map[targethealth.LabelSetHash]*target
}

type target struct {
	key       Key
	ambiguous bool
	seen      bool
	samples   int64
	added     int64
}

// Shard starts the join of one shard's answers.
func (s *Snapshot) Shard() *Shard {
	return &Shard{snap: s, targets: map[targethealth.LabelSetHash]*target{}}
}

// AddTarget records one active target of the shard; targets of pools Lookout did not
// generate are ignored.
func (sh *Shard) AddTarget(t targethealth.Target) {
	k, ok := targethealth.KeyOfPool(t.ScrapePool)
	if !ok {
		return
	}
	c := sh.snap.Monitors[k]
	if c == nil {
		c = &Cost{}
		sh.snap.Monitors[k] = c
	}
	c.Targets++
	if old, dup := sh.targets[t.Labels]; dup {
		if old.key != k && !old.ambiguous {
			old.ambiguous = true
			sh.snap.Ambiguous++
		}
		return
	}
	sh.targets[t.Labels] = &target{key: k}
}

// AddSample records one series of the shard's query answer.
func (sh *Shard) AddSample(s Sample) {
	t := sh.targets[s.Labels]
	if t == nil {
		sh.snap.Unmatched++
		return
	}
	v := int64(0)
	if !math.IsNaN(s.Value) && s.Value > 0 {
		v = int64(math.Round(s.Value))
	}
	switch s.Name {
	case SamplesMetric:
		t.samples, t.seen = v, true
	case SeriesAddedMetric:
		t.added = v
	}
}

// Done adds the shard's figures to the snapshot's.
func (sh *Shard) Done() {
	for _, t := range sh.targets {
		if t.ambiguous || !t.seen {
			continue
		}
		c := sh.snap.Monitors[t.key]
		c.Samples += t.samples
		c.SeriesAdded += t.added
		c.MaxTargetSamples = max(c.MaxTargetSamples, t.samples)
		c.Scraped++
	}
	sh.targets = nil
}
