package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// report is every size's result plus how they were produced.
type report struct {
	command            string
	opts               options
	started, finished  time.Time
	loadStart, loadEnd string
	results            []*result
	// compared are the -compare operator's results, by size as results.
	compared []*result
}

// row is one line of the results table.
type row struct {
	name  string
	value func(*result) string
	// targets are the row's goals by size (the sizes of targetSizes), if any.
	targets map[int]target
}

// target is a goal at one size: its text and whether a result meets it.
type target struct {
	text string
	met  func(*result) bool
}

// targetSizes are the sizes the issues set goals for; a table with one of them gets a
// target and a met column for it.
var targetSizes = []int{5000, 20000, 100000}

// both is the same target at every size of targetSizes.
func both(text string, met func(*result) bool) map[int]target {
	return map[int]target{5000: {text, met}, 20000: {text, met}, 100000: {text, met}}
}

// within20 tells whether the changes during the start-up writes took at most 20% longer
// than the timed changes (median and worst), and the start-up writes were still running
// when they ended.
func within20(r *result) bool {
	if len(r.startupLatencies) == 0 || r.startupFailed > 0 || len(r.latencies) == 0 || r.writesAfterStartupCh == 0 {
		return false
	}
	ok := func(a, b time.Duration) bool { return float64(a) <= 1.2*float64(b) }
	return ok(percentile(r.startupLatencies, 0.5), percentile(r.latencies, 0.5)) && ok(percentile(r.startupLatencies, 1), percentile(r.latencies, 1))
}

func (rep *report) rows() []row {
	o := rep.opts
	k := o.kind
	le := func(d time.Duration, f func(*result) time.Duration) func(*result) bool {
		return func(r *result) bool { v := f(r); return v > 0 && v <= d }
	}
	complete := func(r *result) time.Duration { return r.complete }
	startupEnd := func(r *result) time.Duration {
		if r.quietTimedOut || r.lastStartupWrite == 0 {
			return -1
		}
		return max(r.lastStartupWrite-r.complete, time.Nanosecond)
	}
	median := func(r *result) time.Duration {
		if len(r.latencies) == 0 {
			return -1
		}
		return percentile(r.latencies, 0.5)
	}
	worst := func(r *result) time.Duration {
		if len(r.latencies) == 0 || r.failedChanges > 0 {
			return -1
		}
		return percentile(r.latencies, 1)
	}
	peak := func(limit uint64) func(*result) bool {
		return func(r *result) bool { return r.peakRSS > 0 && r.peakRSS <= limit }
	}
	return []row{
		{name: "objects created before the operator starts", value: func(r *result) string {
			return fmt.Sprintf("%s in %s", thousands(r.objects), secs(r.setup))
		}},
		{name: "CPUs idle in the second before the operator started (waited for 85%, at most 60 s)", value: func(r *result) string {
			if r.idleBefore < 0 {
				return "–"
			}
			return fmt.Sprintf("%.0f%% after %s", 100*r.idleBefore, secs(r.idleWait))
		}},
		{name: "load average (1 min) when the operator started", value: func(r *result) string {
			if f := strings.Fields(r.load); len(f) > 0 {
				return f[0]
			}
			return "–"
		}},
		{name: fmt.Sprintf("**start → config Secret with every %s**", k.marker), value: func(r *result) string { return secs(r.complete) },
			targets: map[int]target{5000: {"≤ 5 s", le(5*time.Second, complete)}, 20000: {"≤ 2 s", le(2*time.Second, complete)}, 100000: {"≤ 15 s", le(15*time.Second, complete)}}},
		{name: "operator CPU until then", value: func(r *result) string { return cpu(r.completeCPU) }},
		{name: "config Secret versions before the complete one", value: func(r *result) string { return fmt.Sprint(r.partialVersions) }},
		{name: "config size (plain / as stored)", value: func(r *result) string {
			return fmt.Sprintf("%s / %s", bytesStr(r.configBytes), bytesStr(r.storedBytes))
		}},
		{name: "API reads (get/list) until then", value: func(r *result) string { return thousands(r.completeReqs.reads) }},
		{name: "start → last start-up write", value: func(r *result) string {
			s := secs(r.lastStartupWrite)
			if r.quietTimedOut {
				s += " (still writing)"
			}
			return s
		}},
		{name: "**complete config → last start-up write**", value: func(r *result) string {
			if d := startupEnd(r); d > 0 {
				return secs(d)
			}
			return "–"
		}, targets: map[int]target{5000: {"≤ 10 s", le(10*time.Second, startupEnd)}, 20000: {"≤ 30 s", le(30*time.Second, startupEnd)}}},
		{name: fmt.Sprintf("API server's own list of the %s (bare client reading the body, operator stopped, median of %d)", k.plural, listFloorRuns), value: func(r *result) string {
			if r.listFloor == 0 {
				return "–"
			}
			return fmt.Sprintf("%s (%.1f MiB)", secs(r.listFloor), float64(r.listBytes)/(1<<20))
		}},
		{name: "API server's own status write rate (bare client, operator stopped)", value: func(r *result) string {
			if r.ceilingRate == 0 {
				return "–"
			}
			return fmt.Sprintf("%.0f/s: the %s bindings take ≥ %s", r.ceilingRate, thousands(r.n), secs(time.Duration(float64(r.n)/r.ceilingRate*float64(time.Second))))
		}},
		{name: "API writes during start-up", value: func(r *result) string { return thousands(r.startup.writes) }},
		{name: "operator CPU during start-up", value: func(r *result) string { return cpu(r.startupCPU) }},
		{name: fmt.Sprintf("**one-%s change during the start-up writes, median / worst** (%d changes)", k.short, o.startupChanges), value: func(r *result) string {
			if len(r.startupLatencies) == 0 {
				return "–"
			}
			return msStr(percentile(r.startupLatencies, 0.5)) + " / " + msStr(percentile(r.startupLatencies, 1))
		}, targets: both("within 20% of the idle median / worst", within20)},
		{name: fmt.Sprintf("**one-%s change of a burst during the start-up writes, median / worst** (%d changes back to back)", k.short, o.burst), value: func(r *result) string {
			if len(r.burstLatencies) == 0 {
				return "–"
			}
			return msStr(percentile(r.burstLatencies, 0.5)) + " / " + msStr(percentile(r.burstLatencies, 1))
		}, targets: map[int]target{20000: {"≤ 100 ms / ≤ 300 ms", func(r *result) bool {
			return len(r.burstLatencies) > 0 && r.burstFailed == 0 && percentile(r.burstLatencies, 0.5) <= 100*time.Millisecond && percentile(r.burstLatencies, 1) <= 300*time.Millisecond
		}}}},
		{name: "that burst, split at the operator's config Secret write (audit log), medians (worst): edit written → write received; the write; write done → harness's watch event", value: func(r *result) string {
			return r.burstSplit.String()
		}},
		{name: "operator writes after the last of those changes", value: func(r *result) string { return thousands(r.writesAfterStartupCh) }},
		{name: fmt.Sprintf("**one-%s change, median** (%d changes)", k.short, o.changes), value: func(r *result) string { return msStr(percentile(r.latencies, 0.5)) },
			targets: map[int]target{5000: {"≤ 300 ms", le(300*time.Millisecond, median)}, 20000: {"≤ 150 ms", le(150*time.Millisecond, median)}, 100000: {"≤ 300 ms", le(300*time.Millisecond, median)}}},
		{name: "those changes, split at the operator's config Secret write (audit log), medians (worst): edit written → write received; the write; write done → harness's watch event", value: func(r *result) string {
			return r.changeSplit.String()
		}},
		{name: fmt.Sprintf("**one-%s change, p99**", k.short), value: func(r *result) string { return msStr(percentile(r.latencies, 0.99)) }},
		{name: fmt.Sprintf("**one-%s change, worst**", k.short), value: func(r *result) string { return msStr(percentile(r.latencies, 1)) },
			targets: map[int]target{5000: {"≤ 1 s", le(time.Second, worst)}, 20000: {"≤ 500 ms", le(500*time.Millisecond, worst)}, 100000: {"≤ 1 s", le(time.Second, worst)}}},
		{name: "changes not seen in the config", value: func(r *result) string { return fmt.Sprint(r.failedChanges + r.startupFailed + r.burstFailed) }},
		{name: "API writes per change (min / median / max)", value: func(r *result) string {
			if len(r.changeWrites) == 0 {
				return "–"
			}
			lo, med, hi := intStats(r.changeWrites)
			return fmt.Sprintf("%d / %d / %d", lo, med, hi)
		}},
		{name: "operator CPU per change", value: func(r *result) string { return msStr(r.changeCPU) }},
		{name: fmt.Sprintf("**API writes while idle** (%s)", o.idle), value: func(r *result) string {
			if r.idle == 0 {
				return "–"
			}
			return fmt.Sprint(r.idleReqs.writes)
		}, targets: both("0", func(r *result) bool { return r.idle > 0 && r.idleReqs.writes == 0 })},
		{name: "API reads while idle", value: func(r *result) string { return fmt.Sprint(r.idleReqs.reads) }},
		{name: "operator CPU while idle", value: func(r *result) string { return cpu(r.idleCPU) }},
		{name: "status polls while idle (fake Prometheus API)", value: func(r *result) string {
			if !r.fakeAPI {
				return "–"
			}
			return fmt.Sprint(r.idlePoll.polls())
		}},
		{name: "**requests per status poll**", value: pollValue(func(p pollFigures) string { return fmt.Sprintf("%.1f", p.requestsPerPoll()) })},
		{name: "**bytes read per status poll**", value: pollValue(func(p pollFigures) string { return bytesStr(int(p.bytesPerPoll())) })},
		{name: "answers while idle (requests × bytes each)", value: pollValue(pollFigures.byPath)},
		{name: "**operator CPU per status poll** (idle CPU / polls)", value: pollValue(func(p pollFigures) string { return msStr(p.cpuPerPoll()) })},
		{name: "status conditions after the start-up (TargetsHealthy / SampleCost of monitors; RulesHealthy of PrometheusRules)", value: func(r *result) string {
			if !r.fakeAPI {
				return "–"
			}
			c := r.conditions
			return fmt.Sprintf("%s / %s of %s; %s of %s", thousands(c.targetsHealthy), thousands(c.sampleCost), thousands(c.monitors), thousands(c.rulesHealthy), thousands(c.rules))
		}},
		{name: fmt.Sprintf("**API writes after a restart with nothing changed** (%s)", o.restartWait), value: func(r *result) string {
			if !r.restarted {
				return "–"
			}
			if r.restartReqs.writes == 0 {
				return "0"
			}
			return fmt.Sprintf("%d (%s)", r.restartReqs.writes, r.restartReqs.String())
		}, targets: both("0", func(r *result) bool { return r.restarted && r.restartReqs.writes == 0 })},
		{name: "RSS at the complete config", value: func(r *result) string { return mib(r.completeRSS) }},
		{name: "**peak RSS** (VmHWM)", value: func(r *result) string { return mib(r.peakRSS) },
			targets: map[int]target{5000: {"≤ 250 MiB", peak(250 << 20)}, 20000: {"≤ 300 MiB", peak(300 << 20)}, 100000: {"≤ 1.5 GiB", peak(1536 << 20)}}},
		{name: "highest RSS sample seen at (after start)", value: func(r *result) string { return secs(r.peakAt) }},
		{name: "steady RSS (median, 2nd half of idle)", value: func(r *result) string { return mib(r.steadyRSS) }},
	}
}

// pollValue shows a figure of the idle period's status polls, "–" without the fake
// Prometheus API or polls.
func pollValue(f func(pollFigures) string) func(*result) string {
	return func(r *result) string {
		if !r.fakeAPI || r.idlePoll.polls() == 0 {
			return "–"
		}
		return f(r.idlePoll)
	}
}

// pollText explains the status poll's figures, when the fake Prometheus API is served.
func pollText(o options) string {
	if !o.fakePromAPI {
		return ""
	}
	rules := ""
	if o.rules > 0 {
		rules = fmt.Sprintf(" and `/api/v1/rules` (one group per PrometheusRule, named by the rule file Lookout generates for it, every rule healthy, every fourth rule an alert firing) for the %s rules, in PrometheusRules of %d rules each spread over the namespaces and selected by the Prometheus's `ruleSelector`", thousands(o.rules), rulesPerObject)
	}
	return fmt.Sprintf("A fake Prometheus API on loopback, behind a ready Pod object of the Prometheus's shard 0 (made a controllee of the operator's StatefulSet once it exists), "+
		"answers `/api/v1/targets` (%d targets per monitor, all up), `/api/v1/scrape_pools` and the sample cost query `/api/v1/query` (both scrape series of every target, with the target's labels)%s; "+
		"the operator runs with `--target-health-interval=%s`. It counts the requests and bytes it serves by path. The start-up lasts at least until every path was asked twice. "+
		"A status poll is one request to `/api/v1/targets` (one shard); per poll, requests are all paths' requests over the polls, bytes the sum of each path's answer size, "+
		"and CPU the operator's CPU in the idle period over its polls.\n\n", targetsPerMonitor, rules, o.healthInterval)
}

// ceilingText explains the list floor and the status write ceiling, when they are measured.
func ceilingText(o options) string {
	if o.ceiling <= 0 || !o.kind.statusBindings {
		return ""
	}
	return fmt.Sprintf(" Last, with the operator stopped, a bare client lists the objects three times as an informer's first list does "+
		"(resourceVersion=0, one response) and reads the body without decoding it: the median is the API server's own list time, "+
		"under which no operator has its complete config on this machine. Then it applies a binding of a made-up Prometheus to the status of "+
		"up to %d monitors, %d at a time, with server-side apply and no client-side limit: the API server's own rate, under "+
		"which no operator can write its start-up bindings on this machine.", o.ceiling, o.ceilingWorkers)
}

// markdown renders the section: command, conditions, table, write breakdown.
func (rep *report) markdown() string {
	var b strings.Builder
	o := rep.opts
	k := o.kind
	fmt.Fprintln(&b, k.beginMarker())
	fmt.Fprintln(&b, "## "+k.title)
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "Produced by this command (%s):\n", k.makeRuns)
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "```sh\n%s\n```\n\n", rep.command)
	fmt.Fprintf(&b, "Run %s–%s UTC on %d CPUs (%s/%s, %s); load average (1, 5, 15 min) %s before the first control plane started, %s at the end (the benchmark's own kube-apiserver, etcd and harness count in the later figures); commit %s.\n\n",
		rep.started.UTC().Format("2006-01-02 15:04"), rep.finished.UTC().Format("15:04"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH,
		runtime.Version(), rep.loadStart, rep.loadEnd, gitDescribe())
	fmt.Fprintf(&b, "Each size runs on a fresh control plane (kube-apiserver and etcd from `bin/`, via envtest) holding %s. Everything is created "+
		"before the operator starts. The operator, `%s`, runs as a child process with a kubeconfig of its own user (`%s`, "+
		"system:masters); its API requests are counted from the kube-apiserver audit log, its memory and CPU read from `/proc/<pid>`.\n\n",
		k.objects(o), o.operator, o.user)

	fmt.Fprint(&b, pollText(o))
	rep.writeTable(&b, rep.rows())
	fmt.Fprintln(&b)
	fmt.Fprint(&b, rep.sideBySide())
	fmt.Fprintln(&b, "API writes by kind (verb, resource; HTTP status when not 2xx):")
	fmt.Fprintln(&b)
	for _, r := range rep.results {
		fmt.Fprintf(&b, "- N = %s: start-up: %s; %d changes: %s; idle: %s.\n", thousands(r.n), r.startup.String(), len(r.changeWrites), r.changeReqs.String(), r.idleReqs.String())
	}
	for _, r := range rep.results {
		if r.failure != "" {
			fmt.Fprintf(&b, "\n**N = %s failed:** %s\n", thousands(r.n), r.failure)
		}
	}
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "How it is measured: the start is the moment the harness starts the operator process; a config counts as complete when "+
		"the harness's watch on Secret `%s/%s` delivers a version whose `%s` %s. The start-up is over when the operator has made "+
		"no API write for %s. Each change %s, and its writes are the operator user's create/update/patch/delete requests "+
		"from just before the update to %s after the new config was seen. Percentiles are nearest-rank (with up to 100 changes, p99 is the "+
		"worst). The changes during the start-up writes are made the same way, the first as soon as the config is "+
		"complete, each %s after the previous one was seen; they count only if the operator still wrote after the last of them. After the idle period the operator is "+
		"stopped (SIGTERM) and started again with nothing changed, and the new process's writes are counted for %s.%s A change is split "+
		"at the operator's write of the config Secret that carried it (the last one the API server completed before the harness's watch "+
		"delivered the version, received after the edit): the audit log gives that request's arrival and completion. The watch's "+
		"events are timed as they arrive, and the harness decodes a version (a gunzip of the whole configuration) only once no "+
		"event has come for %s, so that the versions of a burst are read after it and not on the cores the operator works on. RSS is "+
		"sampled every %s; the peak is the kernel's VmHWM. The operator shares the CPUs with kube-apiserver, etcd "+
		"and the harness.\n", promNamespace, o.configSecret, o.configKey, k.complete, o.quiet, k.changeText, o.settle, o.settle, o.restartWait, ceilingText(o), settleQuiet, o.sample)
	if o.e2e.on {
		fmt.Fprintln(&b)
		rep.writeE2E(&b)
	}
	fmt.Fprintln(&b, k.endMarker())
	return b.String()
}

// writeTable renders rows as the results table: a column per size, and a target and a
// met column for every target size that was run.
func (rep *report) writeTable(b *strings.Builder, rows []row) {
	k := rep.opts.kind
	// A target column and a met column for every target size that was run.
	var goals []int
	for _, ts := range targetSizes {
		for _, r := range rep.results {
			if k.targets && r.n == ts {
				goals = append(goals, ts)
				break
			}
		}
	}
	fmt.Fprint(b, "| measure |")
	for _, r := range rep.results {
		fmt.Fprintf(b, " N = %s |", thousands(r.n))
	}
	for _, g := range goals {
		fmt.Fprintf(b, " target at N = %s | met |", thousands(g))
	}
	fmt.Fprintln(b)
	fmt.Fprint(b, "|---|")
	for range rep.results {
		fmt.Fprint(b, "---:|")
	}
	for range goals {
		fmt.Fprint(b, "---|---|")
	}
	fmt.Fprintln(b)
	for _, rw := range rows {
		fmt.Fprintf(b, "| %s |", rw.name)
		for _, r := range rep.results {
			v := "–"
			if r.failure == "" || r.objects > 0 {
				v = rw.value(r)
			}
			fmt.Fprintf(b, " %s |", v)
		}
		for _, g := range goals {
			t, ok := rw.targets[g]
			if !ok {
				fmt.Fprint(b, " – | |")
				continue
			}
			met := "no"
			for _, r := range rep.results {
				if r.n == g && r.failure == "" && t.met(r) {
					met = "yes"
				}
			}
			fmt.Fprintf(b, " %s | %s |", t.text, met)
		}
		fmt.Fprintln(b)
	}
}

// writeSection replaces the section of path between begin and end with md (which carries
// both markers), appends it when the file has none, or creates the file.
func writeSection(path, md, begin, end string) error {
	old, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return os.WriteFile(path, []byte("# Benchmarks\n\n"+md), 0o644)
	}
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i >= 0 && j > i {
		s = s[:i] + strings.TrimSuffix(md, "\n") + s[j+len(end):]
	} else {
		s = strings.TrimRight(s, "\n") + "\n\n" + md
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

func (r *result) summary() string {
	if r.failure != "" {
		return fmt.Sprintf("N=%d: FAILED: %s", r.n, r.failure)
	}
	lo, med, hi := intStats(r.changeWrites)
	return fmt.Sprintf("N=%d: complete %s (CPU %s); change median %s p99 %s worst %s; writes/change %d/%d/%d; idle writes %d; peak RSS %s, steady %s",
		r.n, secs(r.complete), cpu(r.completeCPU), msStr(percentile(r.latencies, 0.5)), msStr(percentile(r.latencies, 0.99)),
		msStr(percentile(r.latencies, 1)), lo, med, hi, r.idleReqs.writes, mib(r.peakRSS), mib(r.steadyRSS))
}

func gitDescribe() string {
	out, err := execOutput("git", "describe", "--always", "--dirty")
	if err != nil {
		return "unknown"
	}
	return "`" + strings.TrimSpace(out) + "`"
}

func intStats(v []int) (lo, med, hi int) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	s := append([]int(nil), v...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[0], s[len(s)/2], s[len(s)-1]
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func secs(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func cpu(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func msStr(d time.Duration) string {
	if d < 0 {
		return "–"
	}
	return ms(d)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func mib(b uint64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

func bytesStr(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
