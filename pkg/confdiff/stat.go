package confdiff

import (
	"fmt"
	"io"
	"strings"
)

// Counts are the elements of one kind (scrape jobs, rule groups, receivers) added,
// removed and changed.
type Counts struct{ Added, Removed, Changed int }

func (c *Counts) add(s Status) {
	switch s {
	case Added:
		c.Added++
	case Removed:
		c.Removed++
	case Changed:
		c.Changed++
	}
}

func (c Counts) String() string {
	return fmt.Sprintf("%d added, %d removed, %d changed", c.Added, c.Removed, c.Changed)
}

// Stat is the summary of a Result.
type Stat struct {
	// Instances counts the instances added, removed and changed.
	Instances Counts
	// Jobs, RuleGroups and Receivers count the keyed elements.
	Jobs, RuleGroups, Receivers Counts
	// Files counts the files added, removed and changed.
	Files Counts
}

// itemKind is what an element of a keyed section counts as.
func (s *Stat) counter(f FileKind, section string) *Counts {
	switch {
	case f == PrometheusConfig && section == "scrape_configs":
		return &s.Jobs
	case f == RuleFile && section == "groups":
		return &s.RuleGroups
	case f == AlertmanagerConfig && section == "receivers":
		return &s.Receivers
	}
	return nil
}

// Summarize counts the differences of r.
func Summarize(r *Result) Stat {
	var s Stat
	for _, in := range r.Instances {
		s.Instances.add(in.Status)
		for _, f := range in.Files {
			s.Files.add(f.Status)
			for _, it := range f.Items {
				if c := s.counter(f.Kind, it.Owner.Section); c != nil {
					c.add(it.Status)
				}
			}
		}
	}
	return s
}

// WriteStat writes a summary of r: a line per instance with its files and elements
// changed, then the totals.
func WriteStat(w io.Writer, r *Result) error {
	ew := &errWriter{w: w}
	for _, in := range r.Instances {
		one := Summarize(&Result{Instances: []InstanceDiff{in}})
		var parts []string
		for _, p := range []struct {
			name string
			c    Counts
		}{{"jobs", one.Jobs}, {"rule groups", one.RuleGroups}, {"receivers", one.Receivers}} {
			if p.c != (Counts{}) {
				parts = append(parts, fmt.Sprintf("%s +%d -%d ~%d", p.name, p.c.Added, p.c.Removed, p.c.Changed))
			}
		}
		ew.printf(" %s %s/%s (%s): %d file(s)", in.Kind, in.Namespace, in.Name, in.Status, len(in.Files))
		if len(parts) > 0 {
			ew.printf("; %s", strings.Join(parts, "; "))
		}
		ew.printf("\n")
	}
	s := Summarize(r)
	ew.printf("%d instance(s) differ (%s); jobs: %s; rule groups: %s; receivers: %s\n",
		len(r.Instances), s.Instances, s.Jobs, s.RuleGroups, s.Receivers)
	return ew.err
}
