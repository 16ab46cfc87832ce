package monitorcost

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// TopConditionType is the type of the Prometheus status condition that names the
// monitors costing it most.
const TopConditionType monitoringv1.ConditionType = "TopMonitors"

// ReasonSamplesMeasured is the reason of the TopMonitors condition (always True).
const ReasonSamplesMeasured = "SamplesMeasured"

// TopN is how many monitors the TopMonitors condition names.
const TopN = 5

// Entry is one monitor (or namespace: Kind and Name empty) and its cost.
type Entry struct {
	Key
	Cost
}

// Top returns the n monitors with the most samples per scrape (all when n <= 0), most
// first; equal ones in kind, namespace and name order. Figures are exact.
func (s *Snapshot) Top(n int) []Entry {
	out := make([]Entry, 0, len(s.Monitors))
	for k, c := range s.Monitors {
		out = append(out, Entry{k, *c})
	}
	sortEntries(out)
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// Namespaces returns the cost of each namespace (every monitor in it), most samples
// first.
func (s *Snapshot) Namespaces() []Entry {
	by := map[string]*Cost{}
	for k, c := range s.Monitors {
		n := by[k.Namespace]
		if n == nil {
			n = &Cost{}
			by[k.Namespace] = n
		}
		n.Samples += c.Samples
		n.SeriesAdded += c.SeriesAdded
		n.MaxTargetSamples = max(n.MaxTargetSamples, c.MaxTargetSamples)
		n.Targets += c.Targets
		n.Scraped += c.Scraped
	}
	out := make([]Entry, 0, len(by))
	for ns, c := range by {
		out = append(out, Entry{Key{Namespace: ns}, *c})
	}
	sortEntries(out)
	return out
}

// Total is the sum over every monitor.
func (s *Snapshot) Total() Cost {
	var t Cost
	for _, c := range s.Monitors {
		t.Samples += c.Samples
		t.SeriesAdded += c.SeriesAdded
		t.MaxTargetSamples = max(t.MaxTargetSamples, c.MaxTargetSamples)
		t.Targets += c.Targets
		t.Scraped += c.Scraped
	}
	return t
}

func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
}

// TopMessage is the message of the TopMonitors condition: the samples of every monitor
// and the TopN monitors with the most, rounded (Round), so that it changes only when a
// figure moves. The order follows the rounded figures.
func (s *Snapshot) TopMessage() string {
	rounded := make([]Entry, 0, len(s.Monitors))
	for k, c := range s.Monitors {
		rounded = append(rounded, Entry{k, c.Rounded()})
	}
	sortEntries(rounded)
	total := s.Total()
	if len(rounded) == 0 {
		return "no monitor has active targets"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s samples, %s series added per scrape from %d monitors; most samples: ",
		Thousands(Round(total.Samples)), Thousands(Round(total.SeriesAdded)), len(rounded))
	for i, e := range rounded[:min(TopN, len(rounded))] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s/%s %s", e.Kind, e.Namespace, e.Name, Thousands(e.Samples))
	}
	return b.String()
}
