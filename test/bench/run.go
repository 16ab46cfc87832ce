package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
)

// result is what one size measured.
type result struct {
	n       int
	failure string
	objects int
	setup   time.Duration
	load    string
	// idleBefore is the CPUs' idle share in the second before the operator started, after
	// waiting idleWait for it to reach 85%.
	idleBefore float64
	idleWait   time.Duration
	complete   time.Duration
	// versions of the config Secret seen before the complete one.
	partialVersions  int
	completeCPU      time.Duration
	completeRSS      uint64
	completeReqs     requestCount
	configBytes      int
	storedBytes      int
	lastStartupWrite time.Duration
	// changes made while the start-up writes ran, and the operator's writes after the
	// last of them (none: the start-up writes were over before the changes ended).
	startupLatencies     []time.Duration
	startupFailed        int
	burstLatencies       []time.Duration
	burstSplit           changeSplit
	changeSplit          changeSplit
	burstFailed          int
	writesAfterStartupCh int
	startupChangesEnd    time.Time
	// a restart with nothing changed: what the new process wrote within restartWait.
	restarted     bool
	restartReqs   requestCount
	quietTimedOut bool
	startup       requestCount
	startupCPU    time.Duration
	latencies     []time.Duration
	failedChanges int
	changeWrites  []int
	changeReqs    requestCount
	changeCPU     time.Duration
	idle          time.Duration
	idleReqs      requestCount
	idleCPU       time.Duration
	peakRSS       uint64
	peakAt        time.Duration // when the highest sampled RSS was seen
	steadyRSS     uint64
	// ceilingRate is the control plane's status write rate with a bare client (0: not
	// measured).
	ceilingRate float64
	// listFloor is how long the control plane takes to serve the list of the N objects
	// to a bare client, median of listFloorRuns (0: not measured).
	listFloor time.Duration
	listBytes int64
	// e2e is the end-to-end mode's figures (nil without -e2e).
	e2e *e2eResult
	// The status poll (-fake-prometheus-api): the conditions written by the end of the
	// start-up, and what the fake API served while idle.
	fakeAPI    bool
	conditions statusConditions
	idlePoll   pollFigures
}

// runOne measures one size on a fresh control plane.
func runOne(ctx context.Context, o options, n int, dir string) (*result, error) {
	r := &result{n: n}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	k := o.kind
	sc := scenario{items: n, namespaces: o.namespaces, secrets: o.secrets, secretSize: o.secretSize}
	logf("N=%d: starting the control plane", n)
	cl, err := startCluster(ctx, dir, o.user)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := cl.stop(); err != nil {
			logf("stopping the control plane: %v", err)
		}
	}()

	logf("N=%d: creating %d %s and %d Secrets of %d bytes in %d namespaces with %d workers",
		n, n, k.created, o.secrets, o.secretSize, o.namespaces, o.workers)
	t := time.Now()
	if r.objects, err = populate(ctx, cl, k, sc, o.workers); err != nil {
		return r, err
	}
	r.setup = time.Since(t)
	logf("N=%d: created %d objects in %s (%.0f/s)", n, r.objects, r.setup.Round(time.Millisecond), float64(r.objects)/r.setup.Seconds())
	var ruleObjs []ruleObject
	if o.rules > 0 {
		if k.flag != serviceMonitorKind.flag {
			return r, fmt.Errorf("-rules needs -kind=servicemonitors")
		}
		if ruleObjs, err = createRules(ctx, cl, sc, o.rules, o.workers); err != nil {
			return r, err
		}
		r.objects += len(ruleObjs)
		logf("N=%d: created %d rules in %d PrometheusRules", n, o.rules, len(ruleObjs))
	}
	var api *fakeAPI
	if o.fakePromAPI {
		if k.flag != serviceMonitorKind.flag {
			return r, fmt.Errorf("-fake-prometheus-api needs -kind=servicemonitors")
		}
		if api, err = startFakePrometheusAPI(ctx, cl, sc, ruleObjs); err != nil {
			return r, err
		}
		defer api.stop()
		r.fakeAPI = true
		logf("N=%d: serving a fake Prometheus API (%d targets: %s) behind pod %s/prometheus-%s-0", n, n*targetsPerMonitor, api.describe(), promNamespace, promName)
	}
	var e2 *e2eRun
	if o.e2e.on {
		if k.flag != serviceMonitorKind.flag {
			return r, fmt.Errorf("-e2e needs -kind=servicemonitors")
		}
		o.e2e.keepLogs = o.keep
		if e2, err = prepareE2E(ctx, o.e2e, cl, dir); err != nil {
			return r, fmt.Errorf("-e2e: %w", err)
		}
		defer e2.stop()
		r.e2e = &e2eResult{mode: o.e2e.describe()}
	}
	// polling: the start-up lasts until the status poll ran twice (its first results
	// are written).
	polling := api != nil && o.healthInterval > 0

	expected := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		expected[k.expected(sc, i)] = true
	}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	events := watchConfig(wctx, cl.cs, promNamespace, o.configSecret, o.configKey)
	tail := &auditTail{path: cl.audit, user: o.user}
	if _, err := tail.next(); err != nil { // nothing of the operator's yet; skip to the end
		return r, err
	}

	// The operator starts on a machine at rest, as on a cluster: not while the API server
	// and etcd still work off the objects just created.
	r.idleBefore, r.idleWait = waitIdle(0.85, 60*time.Second)
	r.load = loadAvg()
	logf("N=%d: starting the operator (CPUs %.0f%% idle in the last second, after %s; load average %s)", n, 100*r.idleBefore, r.idleWait.Round(time.Second), r.load)
	op, err := startOperator(o.operator, o.appended, cl.kubeconfig, filepath.Join(dir, "operator.log"))
	if err != nil {
		return r, err
	}
	defer func() {
		if err := op.stop(30 * time.Second); err != nil {
			logf("stopping the operator: %v", err)
		}
	}()
	smp := startSampler(op.pid(), o.sample)
	defer smp.halt()

	// 1. Time to a config that holds every object's marker.
	deadline := time.After(o.completeLimit)
	progress := time.NewTicker(10 * time.Second)
	defer progress.Stop()
	var lastCount int
wait:
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return r, ctx.Err()
			}
			if ev.err != nil {
				logf("  config Secret: %v", ev.err)
				r.partialVersions++
				continue
			}
			lastCount = k.count(ev.config, expected)
			if lastCount == n {
				r.complete = ev.at.Sub(op.started)
				r.configBytes, r.storedBytes = len(ev.config), ev.stored
				break wait
			}
			r.partialVersions++
		case <-op.exited:
			return r, op.alive()
		case <-progress.C:
			s := smp.now()
			logf("  %s: %d/%d %ss in the config so far; RSS %s, CPU %.1fs", time.Since(op.started).Round(time.Second), lastCount, n, k.marker, mib(s.rss), s.cpu.Seconds())
		case <-deadline:
			return r, fmt.Errorf("no config Secret with all %d %ss within %s (last seen: %d); operator log: %s", n, k.marker, o.completeLimit, lastCount, op.log)
		case <-ctx.Done():
			return r, ctx.Err()
		}
	}
	s := smp.now()
	r.completeCPU, r.completeRSS = s.cpu, s.rss
	evs, err := tail.next()
	if err != nil {
		return r, err
	}
	r.completeReqs.add(evs)
	r.startup.add(evs)
	logf("N=%d: complete config (%d %ss, %s) %s after start; CPU %.2fs; RSS %s; %d writes so far",
		n, n, k.marker, bytesStr(r.configBytes), r.complete.Round(time.Millisecond), r.completeCPU.Seconds(), mib(r.completeRSS), r.startup.writes)
	if e2 != nil {
		logf("N=%d: running the Prometheus pods (%s)", n, o.e2e.describe())
		if err := e2.startPods(ctx, op, o.completeLimit, r.e2e); err != nil {
			return r, fmt.Errorf("-e2e: %w", err)
		}
		logf("N=%d: every replica (%s) loaded the config %s after the operator's start; Prometheus's first load took %s", n,
			strings.Join(r.e2e.pods, ", "), r.e2e.firstLive.Round(time.Millisecond), medWorst(r.e2e.firstLoads))
	}

	// 1b. Changes while the start-up writes run: a burst first, then spaced ones.
	lastWrite := latestWrite(evs, op.started)
	// startupWrites counts the operator's requests made during those changes.
	startupWrites := func(evs []auditEvent) {
		r.startup.add(evs)
		if lw := latestWrite(evs, time.Time{}); lw.After(lastWrite) {
			lastWrite = lw
		}
	}
	if o.burst > 0 {
		evs, err := burstChanges(ctx, o, cl, sc, n, events, tail, r)
		if err != nil {
			return r, err
		}
		startupWrites(evs)
	}
	if o.startupChanges > 0 {
		evs, err := startupChanges(ctx, o, cl, sc, n, events, tail, r)
		if err != nil {
			return r, err
		}
		startupWrites(evs)
	}

	// 2. Wait for the start-up writes (status, workload objects) to end.
	lastSeen := time.Now()
	quietDeadline := time.Now().Add(o.quietTimeout)
	for time.Since(lastSeen) < o.quiet || polling && !api.polled(2) {
		if err := op.alive(); err != nil {
			return r, err
		}
		if time.Now().After(quietDeadline) {
			r.quietTimedOut = true
			if polling && !api.polled(2) {
				logf("N=%d: the fake Prometheus API was not polled twice within %s of the start; going on", n, time.Since(op.started).Round(time.Second))
				break
			}
			logf("N=%d: the operator still writes %s after start; going on", n, time.Since(op.started).Round(time.Second))
			break
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		evs, err := tail.next()
		if err != nil {
			return r, err
		}
		r.startup.add(evs)
		r.writesAfterStartupCh += writesSince(evs, r.startupChangesEnd)
		if lw := latestWrite(evs, time.Time{}); !lw.IsZero() {
			lastWrite, lastSeen = lw, time.Now()
		}
	}
	r.lastStartupWrite = lastWrite.Sub(op.started)
	r.startupCPU = smp.now().cpu
	logf("N=%d: start-up writes ended %s after start: %s", n, r.lastStartupWrite.Round(time.Millisecond), r.startup.String())
	if api != nil {
		if r.conditions, err = countStatusConditions(ctx, cl); err != nil {
			return r, err
		}
		logf("N=%d: after the start-up: %s; the fake API served %s", n, r.conditions, pollFigures{counts: api.snapshot()}.byPath())
	}

	// 3. Single-object changes.
	cpu0 := smp.now().cpu
	var changesSeen []changeSeen
	var changeWrites []writeSpan
	for c := 0; c < o.changes; c++ {
		i := changedObject(c, n, o.changes)
		var lat time.Duration
		var err error
		if e2 != nil {
			lat, err = e2.change(ctx, k, sc, i, c, events, o.changeLimit, r.e2e)
		} else {
			lat, err = change(ctx, cl, k, sc, i, c, events, o.changeLimit, func(written time.Time, ev configEvent) {
				changesSeen = append(changesSeen, changeSeen{written: written, at: ev.at})
			})
		}
		if err != nil {
			if ctx.Err() != nil {
				return r, ctx.Err()
			}
			logf("  change %d (%s): %v", c, k.describeChange(sc, i, c), err)
			r.failedChanges++
		} else {
			r.latencies = append(r.latencies, lat)
		}
		if err := op.alive(); err != nil {
			return r, err
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(o.settle):
		}
		evs, err := tail.next()
		if err != nil {
			return r, err
		}
		var c requestCount
		c.add(evs)
		r.changeReqs.add(evs)
		r.changeWrites = append(r.changeWrites, c.writes)
		changeWrites = append(changeWrites, configWrites(evs, promNamespace, o.configSecret)...)
	}
	r.changeCPU = (smp.now().cpu - cpu0) / time.Duration(o.changes)
	r.changeSplit = splitChanges(changesSeen, changeWrites)
	r.changeSplit.log(n, "the changes")
	if e2 != nil {
		e2.finish(r.e2e)
		st := steps(r.e2e.edits)
		logf("N=%d: end to end (median / worst): total %s; operator → Secret %s, Secret → reloader input %s, input → Prometheus loaded %s, last load → ConfigLoaded %s; Prometheus reload %s; %d not live",
			n, medWorst(st.total), medWorst(st.operator), medWorst(st.toInput), medWorst(st.toLoaded), medWorst(st.toStatus), medWorst(st.reloadTimes), r.e2e.failed)
	}
	logf("N=%d: changes: median %s, p99 %s, max %s, %d failed; writes: %s", n,
		ms(percentile(r.latencies, 0.5)), ms(percentile(r.latencies, 0.99)), ms(percentile(r.latencies, 1)), r.failedChanges, r.changeReqs.String())

	// 4. Idle.
	logf("N=%d: idle for %s", n, o.idle)
	idleStart := smp.now()
	var apiStart apiCounts
	if api != nil {
		apiStart = api.snapshot()
	}
	if err := op.wait(ctx, o.idle); err != nil {
		return r, err
	}
	idleEnd := smp.now()
	evs, err = tail.next()
	if err != nil {
		return r, err
	}
	r.idleReqs.add(evs)
	r.idle = idleEnd.at.Sub(idleStart.at)
	r.idleCPU = idleEnd.cpu - idleStart.cpu
	if api != nil {
		r.idlePoll = pollFigures{counts: api.snapshot().sub(apiStart), cpu: r.idleCPU}
		logf("N=%d: idle status polls: %d; per poll %.1f requests, %s read, CPU %s; %s", n, r.idlePoll.polls(), r.idlePoll.requestsPerPoll(),
			bytesStr(int(r.idlePoll.bytesPerPoll())), ms(r.idlePoll.cpuPerPoll()), r.idlePoll.byPath())
	}
	maxRSS, maxAt := smp.maxRSS()
	r.peakRSS, r.peakAt = max(idleEnd.hwm, maxRSS), maxAt.Sub(op.started)
	var rss []uint64
	for _, p := range smp.between(idleStart.at.Add(r.idle/2), idleEnd.at) {
		rss = append(rss, p.rss)
	}
	r.steadyRSS = medianU(rss)
	logf("N=%d: idle %s: %d writes, CPU %.2fs; peak RSS %s (highest sample %s after start), steady RSS %s", n, r.idle.Round(time.Second), r.idleReqs.writes, r.idleCPU.Seconds(), mib(r.peakRSS), r.peakAt.Round(time.Second), mib(r.steadyRSS))

	// 5. A restart with nothing changed.
	if o.restartWait > 0 {
		smp.halt()
		next, err := restartUnchanged(ctx, o, op, tail, filepath.Join(dir, "operator-restart.log"), r)
		if next != nil {
			op = next
		}
		if err != nil {
			return r, err
		}
	}

	// 6. The control plane's own list time and status write rate, the operator stopped.
	if o.ceiling > 0 && k.statusBindings {
		if err := op.stop(30 * time.Second); err != nil {
			return r, err
		}
		if r.listFloor, r.listBytes, err = listFloor(ctx, cl, k); err != nil {
			return r, err
		}
		logf("N=%d: list floor: the API server serves the %d %s (%.1f MiB) to a bare client in %s (median of %d)", n, n, k.plural, float64(r.listBytes)/(1<<20), secs(r.listFloor), listFloorRuns)
		m := min(o.ceiling, n)
		if r.ceilingRate, err = statusCeiling(ctx, cl, k, sc, m, o.ceilingWorkers); err != nil {
			return r, err
		}
		logf("N=%d: status write ceiling: %.0f writes/s (bare client, %d monitors, %d in parallel); %d bindings take at least %.1f s", n, r.ceilingRate, m, o.ceilingWorkers, n, float64(n)/r.ceilingRate)
	}
	return r, nil
}

// change makes the kind's change c to object i and returns the time from the update's
// return to the harness seeing a config Secret that holds the change. seen, when set,
// receives the update's return and that Secret version.
func change(ctx context.Context, cl *cluster, k *benchKind, sc scenario, i, c int, events <-chan configEvent, limit time.Duration, seen func(time.Time, configEvent)) (time.Duration, error) {
	for drained := false; !drained; {
		select {
		case <-events:
		default:
			drained = true
		}
	}
	key := types.NamespacedName{Namespace: sc.namespace(i), Name: k.itemName(i)}
	var updated time.Time
	for attempt := 0; ; attempt++ {
		obj := k.newObject()
		if err := cl.c.Get(ctx, key, obj); err != nil {
			return 0, err
		}
		if err := k.mutate(obj, sc, i, c); err != nil {
			return 0, err
		}
		err := cl.c.Update(ctx, obj)
		if err == nil {
			updated = time.Now()
			break
		}
		if !apierrors.IsConflict(err) || attempt > 10 {
			return 0, err
		}
	}
	timeout := time.After(limit)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return 0, ctx.Err()
			}
			if ev.err == nil && k.changed(ev.config, sc, i, c) {
				if seen != nil {
					seen(updated, ev)
				}
				return ev.at.Sub(updated), nil
			}
		case <-timeout:
			return 0, fmt.Errorf("not in the config Secret after %s", limit)
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// latestWrite is the stage timestamp of the last write in evs (or def).
func latestWrite(evs []auditEvent, def time.Time) time.Time {
	t := def
	for i := range evs {
		if evs[i].write() && evs[i].StageTimestamp.After(t) {
			t = evs[i].StageTimestamp
		}
	}
	return t
}

// changedObject is the index of the object change c of changes modifies: spread evenly
// over the n objects and, by the offset c, over the namespaces (object i is in namespace
// i mod namespaces; evenly spaced indices alone would all fall in one namespace whenever
// n/changes is a multiple of the namespace count).
func changedObject(c, n, changes int) int {
	return (c*n/changes + c) % n
}
