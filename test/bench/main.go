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
