package main

import (
	"fmt"
	"time"
)

// changeSeen is one change: when the harness's write returned and when the
// watch delivered the first config Secret version holding it.
type changeSeen struct{ written, at time.Time }

// writeSpan is one write of the operator: received and completed by the API server.
type writeSpan struct{ received, completed time.Time }

// configWrites are the operator's writes of the config Secret name in ns, in order.
func configWrites(evs []auditEvent, ns, name string) []writeSpan {
	var out []writeSpan
	for i := range evs {
		e := &evs[i]
		if e.write() && e.ObjectRef != nil && e.ObjectRef.Resource == "secrets" && e.ObjectRef.Namespace == ns && e.ObjectRef.Name == name &&
			(e.ResponseStatus == nil || e.ResponseStatus.Code < 300) {
			out = append(out, writeSpan{e.RequestReceivedTimestamp, e.StageTimestamp})
		}
	}
	return out
}

// changeSplit splits each change's latency at the operator's config Secret write that
// carried it (the last one completed before the watch delivered the version): from the
// edit's write to that request's arrival at the API server (the edit's watch event to
// the operator, its queue and reconcile), the write itself, and from its completion to
// the harness's watch event.
type changeSplit struct {
	n                     int
	react, write, deliver []time.Duration
}

// log writes the split of what (the changes of a kind) to the run's log, when any.
func (s changeSplit) log(n int, what string) {
	if s.n == 0 {
		return
	}
	logf("N=%d: %s split (median / worst): edit written → operator's config Secret write received %s / %s, that write %s / %s, its watch event → harness %s / %s",
		n, what, ms(percentile(s.react, 0.5)), ms(percentile(s.react, 1)), ms(percentile(s.write, 0.5)), ms(percentile(s.write, 1)), ms(percentile(s.deliver, 0.5)), ms(percentile(s.deliver, 1)))
}

// String is "react (worst); write (worst); deliver (worst)" in milliseconds, "–" when empty.
func (s changeSplit) String() string {
	if s.n == 0 {
		return "–"
	}
	mw := func(d []time.Duration) string {
		return fmt.Sprintf("%s (%s)", msStr(percentile(d, 0.5)), msStr(percentile(d, 1)))
	}
	return fmt.Sprintf("%s; %s; %s", mw(s.react), mw(s.write), mw(s.deliver))
}

func splitChanges(seen []changeSeen, writes []writeSpan) changeSplit {
	var s changeSplit
	for _, c := range seen {
		var w *writeSpan
		for i := range writes {
			if !writes[i].completed.After(c.at) && writes[i].received.After(c.written) {
				w = &writes[i]
			}
		}
		if w == nil {
			continue
		}
		s.n++
		s.react = append(s.react, w.received.Sub(c.written))
		s.write = append(s.write, w.completed.Sub(w.received))
		s.deliver = append(s.deliver, c.at.Sub(w.completed))
	}
	return s
}
