package main

import (
	"flag"
	"fmt"
	"strings"
)

// The compare mode runs a second operator (prometheus-operator, typically) through the
// same harness at each size, right after the first one, each on a fresh control plane
// holding the same objects, and writes one table per size with both side by side.
var (
	compareCmd = flag.String("compare", "", "a second operator command run at each size after -operator, on a fresh control plane with the same objects; "+
		"the section then gains one table per size with both side by side (e.g. 'bin/prometheus-operator --web.listen-address=127.0.0.1:18080 --log-level=info')")
	compareName           = flag.String("compare-name", "prometheus-operator", "with -compare: the second operator's name in the tables")
	compareAppend         = flag.String("compare-append", "", "with -compare: flags appended to the second operator's command, as -append ({kubeconfig}; $KUBECONFIG is set either way)")
	compareChanges        = flag.Int("compare-changes", 10, "with -compare: timed changes for the second operator (its changes may take seconds each)")
	compareStartupChanges = flag.Int("compare-startup-changes", 3, "with -compare: changes during the start-up writes for the second operator")
	compareBurst          = flag.Int("compare-burst", -1, "with -compare: back-to-back changes for the second operator (-1: as -burst)")
)

// compared is the second operator's options: o with its command and change counts.
func compared(o options) options {
	c := o
	c.operator, c.appended = *compareCmd, *compareAppend
	c.changes, c.startupChanges = *compareChanges, *compareStartupChanges
	if *compareBurst >= 0 {
		c.burst = *compareBurst
	}
	c.healthInterval = 0
	return c
}

// firstName is how the tables name the -operator: its binary's base name, which is
// lookout-operator for Lookout.
func firstName(o options) string {
	f := strings.Fields(o.operator)
	if len(f) == 0 {
		return "operator"
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if strings.Contains(name, "lookout") {
		return "Lookout"
	}
	return name
}

// sideBySide renders one table per size: the first operator's result and the compared
// one's, with the size's targets and whether each meets them.
func (rep *report) sideBySide() string {
	if len(rep.compared) == 0 {
		return ""
	}
	var b strings.Builder
	a, z := firstName(rep.opts), *compareName
	fmt.Fprintf(&b, "### %s and %s side by side\n\n", a, z)
	fmt.Fprintf(&b, "Each size below ran %s, then %s (`%s`, %d timed changes, %d during the start-up writes), each on a fresh control plane "+
		"with the same objects, in the same harness run.\n\n", a, z, *compareCmd, *compareChanges, *compareStartupChanges)
	rows := rep.rows()
	for i, r := range rep.results {
		if i >= len(rep.compared) {
			break
		}
		c := rep.compared[i]
		fmt.Fprintf(&b, "#### N = %s\n\n", thousands(r.n))
		fmt.Fprintf(&b, "| measure | %s | %s | target | %s met | %s met |\n|---|---:|---:|---|---|---|\n", a, z, a, z)
		for _, rw := range rows {
			t, hasTarget := rw.targets[r.n]
			text, ma, mz := "–", "", ""
			if hasTarget {
				text = t.text
				ma, mz = yesNo(r.failure == "" && t.met(r)), yesNo(c.failure == "" && t.met(c))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", rw.name, cell(rw, r), cell(rw, c), text, ma, mz)
		}
		fmt.Fprintln(&b)
		for _, x := range []*result{r, c} {
			if x.failure != "" {
				name := a
				if x == c {
					name = z
				}
				fmt.Fprintf(&b, "**%s failed at N = %s:** %s\n\n", name, thousands(x.n), x.failure)
			}
		}
	}
	return b.String()
}

func cell(rw row, r *result) string {
	if r.failure == "" || r.objects > 0 {
		return rw.value(r)
	}
	return "–"
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}
