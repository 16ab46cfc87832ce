package main

import (
	"fmt"
	"strings"
	"time"
)

// promReload is one configuration load Prometheus completed, from its log.
type promReload struct {
	at   time.Time
	took time.Duration // its totalDuration
}

// logfmtValue is the value of key in a logfmt line (unquoted), and whether it is there.
func logfmtValue(line, key string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(line[i:], key+"=")
		if j < 0 {
			return "", false
		}
		j += i
		if j > 0 && line[j-1] != ' ' {
			i = j + len(key) + 1
			continue
		}
		v := line[j+len(key)+1:]
		if strings.HasPrefix(v, `"`) {
			var b strings.Builder
			for k := 1; k < len(v); k++ {
				switch v[k] {
				case '\\':
					if k+1 < len(v) {
						k++
						b.WriteByte(v[k])
					}
				case '"':
					return b.String(), true
				default:
					b.WriteByte(v[k])
				}
			}
			return b.String(), true
		}
		if sp := strings.IndexByte(v, ' '); sp >= 0 {
			v = v[:sp]
		}
		return v, true
	}
}

// logTime is a logfmt line's timestamp: time= (slog, Prometheus 3) or ts= (go-kit).
func logTime(line string) (time.Time, bool) {
	v, ok := logfmtValue(line, "time")
	if !ok {
		if v, ok = logfmtValue(line, "ts"); !ok {
			return time.Time{}, false
		}
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	return t, err == nil
}

// parsePromReload reads Prometheus's "Completed loading of configuration file" line:
// when it was logged and its totalDuration.
func parsePromReload(line string) (promReload, bool) {
	if msg, _ := logfmtValue(line, "msg"); msg != "Completed loading of configuration file" {
		return promReload{}, false
	}
	at, ok := logTime(line)
	if !ok {
		return promReload{}, false
	}
	ev := promReload{at: at}
	if v, ok := logfmtValue(line, "totalDuration"); ok {
		ev.took, _ = time.ParseDuration(v)
	}
	return ev, true
}

// parseMirrored reads Lookout's API-watch reloader's "mirrored object updated" line for
// the Secret ref ("namespace/name"; its part Secrets, ref-config-part-<n>, match too): when its
// directory was written with the new content.
func parseMirrored(line, ref string) (time.Time, bool) {
	if msg, _ := logfmtValue(line, "msg"); msg != "mirrored object updated" {
		return time.Time{}, false
	}
	target, _ := logfmtValue(line, "target")
	if !strings.Contains(target, " "+ref+"=") && !strings.Contains(target, " "+ref+"-config-part-") {
		return time.Time{}, false
	}
	return logTime(line)
}

// firstReloadAfter is the first load completed at or after t.
func firstReloadAfter(rs []promReload, t time.Time) (promReload, bool) {
	// Log times have millisecond precision: a load logged in the millisecond of t counts.
	t = t.Truncate(time.Millisecond)
	for _, r := range rs {
		if !r.at.Before(t) {
			return r, true
		}
	}
	return promReload{}, false
}

// podEdit is one replica's part of an edit.
type podEdit struct {
	pod string
	// input is when the reloader's input held the change: the API-watch reloader's
	// mirror wrote it, or the kubelet stand-in projected the volume (zero: not seen).
	input time.Time
	// loaded is when Prometheus completed loading it, took its totalDuration.
	loaded time.Time
	took   time.Duration
}

// e2eEdit is one edit's timeline.
type e2eEdit struct {
	written      time.Time // t0: the harness's update returned
	inSecret     time.Time // t1: the harness's watch saw the config Secret holding it
	configLoaded time.Time // t4: ConfigLoaded True with its hash (zero for upstream)
	pods         []podEdit // t2, t3 per replica
}

// live is when the last replica completed loading the edit (zero when one did not).
func (e e2eEdit) live() time.Time {
	var t time.Time
	for _, p := range e.pods {
		if p.loaded.IsZero() {
			return time.Time{}
		}
		if p.loaded.After(t) {
			t = p.loaded
		}
	}
	return t
}

// total is the edit's end to end time: to ConfigLoaded, or, without it, to live.
func (e e2eEdit) total() time.Duration {
	if !e.configLoaded.IsZero() {
		return e.configLoaded.Sub(e.written)
	}
	if l := e.live(); !l.IsZero() {
		return l.Sub(e.written)
	}
	return -1
}

// pending names what an edit still waits for.
func (e e2eEdit) pending() string {
	var w []string
	for _, p := range e.pods {
		if p.loaded.IsZero() {
			what := "not reloaded"
			if p.input.IsZero() {
				what = "no reloader input"
			}
			w = append(w, p.pod+" "+what)
		}
	}
	if e.configLoaded.IsZero() {
		w = append(w, "ConfigLoaded")
	}
	return strings.Join(w, ", ")
}

// e2eSteps are an end-to-end run's step durations, over edits (and replicas for the
// per-replica steps).
type e2eSteps struct {
	operator    []time.Duration // t1 - t0, per edit
	toInput     []time.Duration // t2 - t1, per replica
	toLoaded    []time.Duration // t3 - t2, per replica
	toStatus    []time.Duration // t4 - max t3, per edit (Lookout)
	live        []time.Duration // max t3 - t0, per edit
	total       []time.Duration // t4 - t0 (upstream: max t3 - t0), per edit
	reloadTimes []time.Duration // Prometheus's totalDuration, per replica
}

// steps splits the edits' times into their steps.
func steps(edits []e2eEdit) e2eSteps {
	var s e2eSteps
	for _, e := range edits {
		s.operator = append(s.operator, e.inSecret.Sub(e.written))
		for _, p := range e.pods {
			if !p.input.IsZero() {
				s.toInput = append(s.toInput, p.input.Sub(e.inSecret))
				if !p.loaded.IsZero() {
					s.toLoaded = append(s.toLoaded, p.loaded.Sub(p.input))
				}
			}
			if !p.loaded.IsZero() {
				s.reloadTimes = append(s.reloadTimes, p.took)
			}
		}
		live := e.live()
		if !live.IsZero() {
			s.live = append(s.live, live.Sub(e.written))
			if !e.configLoaded.IsZero() {
				s.toStatus = append(s.toStatus, e.configLoaded.Sub(live))
			}
		}
		if t := e.total(); t >= 0 {
			s.total = append(s.total, t)
		}
	}
	return s
}

// medWorst renders "median / worst" of d, "–" for none.
func medWorst(d []time.Duration) string {
	if len(d) == 0 {
		return "–"
	}
	return msStr(percentile(d, 0.5)) + " / " + msStr(percentile(d, 1))
}

// rssList renders the replicas' VmRSS (VmHWM) in MiB.
func rssList(ps []procSample) string {
	if len(ps) == 0 {
		return "–"
	}
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%.0f (%.0f)", float64(p.rss)/(1<<20), float64(p.hwm)/(1<<20)))
	}
	return strings.Join(parts, ", ") + " MiB"
}
