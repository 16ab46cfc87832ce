package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
)

// options are the harness's flags.
type options struct {
	kind          *benchKind
	sizes         []int
	operator      string
	appended      string
	user          string
	namespaces    int
	secrets       int
	secretSize    int
	changes       int
	idle          time.Duration
	quiet         time.Duration
	quietTimeout  time.Duration
	settle        time.Duration
	completeLimit time.Duration
	changeLimit   time.Duration
	workers       int
	out           string
	workDir       string
	keep          bool
	configSecret  string
	configKey     string
	sample        time.Duration
	fakePromAPI   bool
	// healthInterval, with fakePromAPI, is given to the operator as
	// --target-health-interval (0: the command's own setting).
	healthInterval time.Duration
	// rules are created in PrometheusRules of rulesPerObject rules selected by the
	// benchmark Prometheus (0: none).
	rules int
	// startupChanges are made right after the complete config, while the start-up
	// writes (status) still run; restartWait is how long the operator is watched after a
	// restart with nothing changed (0: no restart).
	startupChanges int
	// burst changes are made back to back right after the complete config (burst.go).
	burst       int
	restartWait time.Duration
	// ceiling is how many monitors' status the control plane's own write rate is
	// measured on, with the operator stopped (0: not measured).
	ceiling int
	// ceilingWorkers is how many of those writes are made in parallel.
	ceilingWorkers int
	// e2e is the end-to-end mode (e2e.go).
	e2e e2eOptions
}

func main() {
	var o options
	kindName := flag.String("kind", serviceMonitorKind.flag, "the objects to scale: "+kindNames())
	section := flag.String("section", "", "with -out, write a section of this name (and title) of its own instead of the kind's, e.g. to keep another operator's figures beside Lookout's")
	sizes := flag.String("n", "100,1000,5000", "comma-separated numbers of objects of -kind; each runs on a fresh control plane")
	flag.StringVar(&o.operator, "operator", "bin/lookout-operator run --leader-elect=false --metrics-bind-address=0 --health-probe-bind-address=0 --target-health-interval=0",
		"the operator command, run through /bin/sh with exec (give a binary: the measured process is the one exec'd)")
	flag.StringVar(&o.appended, "append", "--kubeconfig={kubeconfig}", "flags appended to -operator; {kubeconfig} becomes the operator user's kubeconfig path (also in $KUBECONFIG); empty appends nothing")
	flag.StringVar(&o.user, "operator-user", "bench-operator", "name of the operator's user (client certificate, group system:masters) whose requests the audit log counts")
	flag.IntVar(&o.namespaces, "namespaces", 50, "namespaces the objects of -kind (and their Services and EndpointSlices) and the Secrets are spread over")
	flag.IntVar(&o.secrets, "secrets", 10000, "unrelated Secrets created before the operator starts")
	flag.IntVar(&o.secretSize, "secret-size", 10*1024, "bytes of data in each unrelated Secret")
	flag.IntVar(&o.changes, "changes", 50, "single-object changes timed at each size")
	flag.IntVar(&o.burst, "burst", 0, "single-object changes made back to back (each written as soon as the previous write returned, as a GitOps sync applies a batch) right after the complete config, while the start-up writes run; each timed from its write to the config holding it (0: none)")
	flag.IntVar(&o.startupChanges, "startup-changes", 10, "single-object changes made from the complete config on, -settle apart, while the start-up writes still run (0: none)")
	flag.DurationVar(&o.restartWait, "restart-wait", 30*time.Second, "after the idle period, restart the operator with nothing changed and count its writes for this long (0: no restart)")
	flag.IntVar(&o.ceiling, "ceiling", 2000, "servicemonitors: at the end, with the operator stopped, apply a binding to this many monitors' status with a bare client and report the API server's rate, the floor under any operator's start-up writes (0: skip)")
	flag.DurationVar(&o.idle, "idle", 2*time.Minute, "idle period in which API writes are counted (must be zero)")
	flag.DurationVar(&o.quiet, "quiet", 5*time.Second, "after the complete config, the start-up is over once the operator made no write for this long")
	flag.DurationVar(&o.quietTimeout, "quiet-timeout", 10*time.Minute, "give up waiting for the start-up writes to end after this long")
	flag.DurationVar(&o.settle, "settle", time.Second, "wait after each change is seen before counting its writes and making the next")
	flag.DurationVar(&o.completeLimit, "complete-timeout", 10*time.Minute, "give up waiting for a complete config after this long")
	flag.DurationVar(&o.changeLimit, "change-timeout", 30*time.Second, "a change not seen in the config after this long counts as failed")
	flag.IntVar(&o.ceilingWorkers, "ceiling-workers", 8, "status writes the ceiling measurement makes in parallel (8 keep the API server saturated; the operator writes 2 per kind by default)")
	flag.IntVar(&o.workers, "workers", 32, "concurrent workers creating the objects")
	flag.BoolVar(&o.fakePromAPI, "fake-prometheus-api", false, "servicemonitors: serve the Prometheus targets API for every monitor (2 targets up each) behind a ready Pod of the Prometheus, for operators polling target health (--target-health-interval)")
	flag.DurationVar(&o.healthInterval, "health-interval", 0, "with -fake-prometheus-api: append --target-health-interval=<this> to -operator, so the status poll runs and its cost is reported (0: the command's own setting)")
	flag.IntVar(&o.rules, "rules", 0, "servicemonitors: create this many rules in PrometheusRules of 10 rules each, spread over the namespaces and selected by the Prometheus (ruleSelector); with -fake-prometheus-api, /api/v1/rules reports them healthy")
	madeBy := flag.String("made-by", "", "with -out, how the section says it is produced (default: the kind's make target)")
	flag.StringVar(&o.out, "out", "", "Markdown file whose scale-benchmark section receives the results table (empty: print only)")
	flag.StringVar(&o.workDir, "work-dir", "", "directory for audit logs, kubeconfigs and operator logs (default: a new temporary directory)")
	flag.BoolVar(&o.keep, "keep", false, "keep the work directory")
	flag.StringVar(&o.configSecret, "config-secret", "", "name of the config Secret the operator writes (namespace "+promNamespace+"; default: "+
		serviceMonitorKind.configSecret+" for "+serviceMonitorKind.flag+", "+alertmanagerConfigKind.configSecret+" for "+alertmanagerConfigKind.flag+")")
	flag.StringVar(&o.configKey, "config-key", "", "key of the config in that Secret, gunzipped when it ends in .gz (default: "+
		serviceMonitorKind.configKey+" for "+serviceMonitorKind.flag+", "+alertmanagerConfigKind.configKey+" for "+alertmanagerConfigKind.flag+")")
	flag.DurationVar(&o.sample, "sample-interval", 50*time.Millisecond, "how often /proc/<pid>/status and stat are read")
	flag.BoolVar(&o.e2e.on, "e2e", false, "end-to-end mode (servicemonitors; needs root): run the Prometheus StatefulSet pods as local processes (bin/prometheus and the reloader of -reloader, discovering in the harness's API server in-cluster style) and time each change until every replica loaded it and, with Lookout, until ConfigLoaded is True; appends the -reloader mode's flags to -operator and writes a section of its own unless -section")
	flag.StringVar(&o.e2e.reloader, "reloader", reloaderAPI, "with -e2e: api (Lookout's reloader reads the config Secret through the API: --reloader-watch-api --reloader-report-config), file (Lookout's reloader reads the volume the kubelet stand-in syncs every -kubelet-sync: --reloader-report-config) or upstream (prometheus-operator's reloader, reading the volume; give -operator 'bin/prometheus-operator ...' -append '')")
	flag.IntVar(&o.e2e.replicas, "replicas", 2, "with -e2e: the Prometheus's spec.replicas")
	flag.IntVar(&o.e2e.shards, "shards", 1, "with -e2e: the Prometheus's spec.shards")
	flag.DurationVar(&o.e2e.kubeletSync, "kubelet-sync", time.Minute, "with -e2e and -reloader file or upstream: how often the kubelet stand-in (pkg/localpods) re-projects the pods' volumes and probes them, as the kubelet's --sync-frequency (default 1m); api mode syncs every second")
	flag.DurationVar(&o.e2e.editTimeout, "e2e-timeout", 0, "with -e2e: a change not loaded by every replica (and ConfigLoaded) after this long counts as failed (0: -change-timeout plus twice -kubelet-sync)")
	flag.StringVar(&o.e2e.prometheus, "prometheus-binary", "bin/prometheus", "with -e2e: the binary playing the Prometheus image (the Prometheus's spec.version is its version)")
	flag.StringVar(&o.e2e.lookoutReloader, "reloader-binary", "bin/config-reloader", "with -e2e: the binary playing Lookout's reloader image ("+lookoutReloaderImage+")")
	flag.StringVar(&o.e2e.upstreamReloader, "upstream-reloader-binary", "bin/prometheus-config-reloader", "with -e2e -reloader upstream: the binary playing prometheus-operator's reloader image ("+upstreamReloaderImage+")")
	flag.Parse()
	if o.e2e.on {
		// The configuration is projected verbatim: rule files would be looked for at
		// their in-pod paths, which do not exist here; and real pods replace the fake API.
		if o.rules > 0 || o.fakePromAPI {
			fatalf("-e2e: -rules and -fake-prometheus-api are not supported in the end-to-end mode")
		}
		if err := o.e2e.setup(o.changeLimit); err != nil {
			fatalf("-e2e: %v", err)
		}
		if *section == "" {
			*section = "end to end, " + o.e2e.describe()
		}
		o.operator += o.e2e.operatorFlags()
	}
	k, err := kindByFlag(*kindName)
	if err != nil {
		fatalf("-kind: %v", err)
	}
	if *section != "" {
		own := *k
		own.section = k.section + "-" + sectionSlug(*section)
		own.title = k.title + ": " + *section
		k = &own
	}
	if *madeBy != "" {
		own := *k
		own.makeRuns = *madeBy
		k = &own
	}
	o.kind = k
	if o.configSecret == "" {
		o.configSecret = k.configSecret
	}
	if o.configKey == "" {
		o.configKey = k.configKey
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fatalf("-n: %q is not a positive number", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.changes < 1 {
		fatalf("-changes must be at least 1")
	}
	if o.startupChanges < 0 || o.burst < 0 {
		fatalf("-startup-changes and -burst must not be negative")
	}
	if o.rules < 0 || o.healthInterval < 0 {
		fatalf("-rules and -health-interval must not be negative")
	}
	if o.fakePromAPI && o.healthInterval > 0 {
		o.operator += " --target-health-interval=" + o.healthInterval.String()
	}
	if err := checkCommand(o.operator); err != nil {
		fatalf("-operator: %v", err)
	}
	if *compareCmd != "" {
		if err := checkCommand(*compareCmd); err != nil {
			fatalf("-compare: %v", err)
		}
	}
	if o.e2e.on {
		enterMountNamespace()
	}

	// envtest logs through controller-runtime; the harness reports on its own.
	ctrl.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	dir := o.workDir
	if dir == "" {
		d, err := os.MkdirTemp("", "lookout-bench-")
		if err != nil {
			fatalf("%v", err)
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fatalf("%v", err)
	}
	if !o.keep && o.workDir == "" {
		defer os.RemoveAll(dir)
	}
	logf("work directory %s", dir)

	rep := report{command: commandLine(), started: time.Now(), loadStart: loadAvg(), opts: o}
	for _, n := range o.sizes {
		if ctx.Err() != nil {
			break
		}
		r, err := runOne(ctx, o, n, filepath.Join(dir, fmt.Sprintf("n%d", n)))
		if err != nil {
			logf("N=%d: %v", n, err)
			if r == nil {
				r = &result{n: n}
			}
			r.failure = err.Error()
		}
		rep.results = append(rep.results, r)
		fmt.Fprintln(os.Stderr, r.summary())
		if *compareCmd != "" && ctx.Err() == nil {
			c, err := runOne(ctx, compared(o), n, filepath.Join(dir, fmt.Sprintf("n%d-compared", n)))
			if err != nil {
				logf("N=%d, %s: %v", n, *compareName, err)
				if c == nil {
					c = &result{n: n}
				}
				c.failure = err.Error()
			}
			rep.compared = append(rep.compared, c)
			fmt.Fprintln(os.Stderr, *compareName+": "+c.summary())
		}
	}
	rep.loadEnd = loadAvg()
	rep.finished = time.Now()
	md := rep.markdown()
	fmt.Println(md)
	if ctx.Err() != nil {
		logf("interrupted: %s left as it was", orDash(o.out))
		os.Exit(1)
	}
	if o.out != "" {
		if err := writeSection(o.out, md, o.kind.beginMarker(), o.kind.endMarker()); err != nil {
			fatalf("writing %s: %v", o.out, err)
		}
		logf("wrote %s", o.out)
	}
	for _, r := range rep.results {
		if r.failure != "" {
			os.Exit(1)
		}
	}
}

// result is what one size measured.
type result struct {
	n        int
	failure  string
	objects  int
	setup    time.Duration
	load     string
	complete time.Duration
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

	r.load = loadAvg()
	logf("N=%d: starting the operator (load average %s)", n, r.load)
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
	if o.burst > 0 {
		if err := burstChanges(ctx, o, cl, sc, n, events, r); err != nil {
			return r, err
		}
	}
	if o.startupChanges > 0 {
		evs, err := startupChanges(ctx, o, cl, sc, n, events, tail, r)
		if err != nil {
			return r, err
		}
		r.startup.add(evs)
		if lw := latestWrite(evs, time.Time{}); lw.After(lastWrite) {
			lastWrite = lw
		}
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
	for c := 0; c < o.changes; c++ {
		i := changedObject(c, n, o.changes)
		var lat time.Duration
		var err error
		if e2 != nil {
			lat, err = e2.change(ctx, k, sc, i, c, events, o.changeLimit, r.e2e)
		} else {
			lat, err = change(ctx, cl, k, sc, i, c, events, o.changeLimit, nil)
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
	}
	r.changeCPU = (smp.now().cpu - cpu0) / time.Duration(o.changes)
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
	select {
	case <-ctx.Done():
		return r, ctx.Err()
	case <-op.exited:
		return r, op.alive()
	case <-time.After(o.idle):
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

	// 6. The control plane's own status write rate, the operator stopped.
	if o.ceiling > 0 && k.statusBindings {
		if err := op.stop(30 * time.Second); err != nil {
			return r, err
		}
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

// checkCommand fails early when the operator command's program cannot be found.
func checkCommand(command string) error {
	f := strings.Fields(command)
	if len(f) == 0 {
		return fmt.Errorf("empty command")
	}
	prog := f[0]
	if strings.Contains(prog, "/") {
		if _, err := os.Stat(prog); err != nil {
			return fmt.Errorf("%w (run from the repository root after `make build`)", err)
		}
		return nil
	}
	_, err := exec.LookPath(prog)
	return err
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

// sectionSlug turns a section name into the marker's suffix: lower case letters, digits
// and dashes.
func sectionSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
