package promcfg

import (
	"fmt"
	"slices"
)

// claimJobNames gives every job name to the first monitor that wants it, after the
// additionalScrapeConfigs' extraNames, and returns why each monitor that wants a taken
// one is left out (by position; nil when none is). When the last generation had no such
// monitor and the same keys at the same places, only the changed monitors' names are
// claimed anew: rebuilding the names of 20,000 monitors was 12 ms of every change.
func (g *Generator) claimJobNames(ids []monitorID, ents []*entry, extraNames []string, keysSame bool, jobs int) map[int]error {
	if c := g.claims; c != nil && keysSame && slices.Equal(extraNames, g.extraNames) {
		c.ids = ids
		if c.update(g.prevEnts, ents) {
			return nil
		}
	}
	g.claims, g.extraNames = nil, nil
	names := &jobNames{usedBy: make(map[string]int, jobs), ids: ids}
	for _, n := range extraNames {
		names.usedBy[n] = -1
	}
	var taken map[int]error
	for i, e := range ents {
		if e.err != nil {
			continue
		}
		if err := names.claim(e.jobNames, i); err != nil {
			if taken == nil {
				taken = map[int]error{}
			}
			taken[i] = err
		}
	}
	if taken == nil {
		g.claims, g.extraNames = names, extraNames
	}
	return taken
}

// jobNames are the job names used in a file, each with the index in ids of the monitor
// using it (-1 for additionalScrapeConfigs).
type jobNames struct {
	usedBy map[string]int
	ids    []monitorID
}

// update turns the claims of the entries prev (where no name was wanted twice) into those
// of ents, the same monitors' new entries, by position. It reports false, leaving the
// claims unusable, when a new entry wants a name already taken: the caller claims every
// name again, in order, so that the first monitor keeps it.
func (j *jobNames) update(prev, ents []*entry) bool {
	for i, e := range ents {
		if p := prev[i]; e != p && p.err == nil {
			for _, n := range p.jobNames {
				if j.usedBy[n] == i {
					delete(j.usedBy, n)
				}
			}
		}
	}
	for i, e := range ents {
		if e != prev[i] && e.err == nil && j.claim(e.jobNames, i) != nil {
			return false
		}
	}
	return true
}

// claim records names as used by monitor i, unless one of them is already used.
func (j *jobNames) claim(names []string, i int) error {
	for _, n := range names {
		other, dup := j.usedBy[n]
		switch {
		case dup && other < 0:
			return fmt.Errorf("job name %q is also used by additionalScrapeConfigs", n)
		case dup:
			k := j.ids[other].key
			return fmt.Errorf("job name %q is also used by %s %s/%s", n, k.kind, k.namespace, k.name)
		}
	}
	for _, n := range names {
		j.usedBy[n] = i
	}
	return nil
}
