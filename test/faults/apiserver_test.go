package faults

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/lookout-operator/lookout/pkg/crds"
	"github.com/lookout-operator/lookout/test/testenv"
)

// restartablePlane is a control plane of its own whose API server and etcd can be
// stopped and started again with the same address, certificates and data (the
// operator's kubeconfig stays valid).
type restartablePlane struct {
	*controlPlane
	env *envtest.Environment
}

func startRestartablePlane(t *testing.T) *restartablePlane {
	t.Helper()
	assets, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		ControlPlaneStartTimeout: 90 * time.Second,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	// Directories of our own are kept across a stop, unlike envtest's temporary ones.
	certDir, dataDir := filepath.Join(dir, "apiserver"), filepath.Join(dir, "etcd")
	for _, d := range []string{certDir, dataDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env.ControlPlane.APIServer = &envtest.APIServer{CertDir: certDir}
	env.ControlPlane.Etcd = &envtest.Etcd{DataDir: dataDir}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting a control plane: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	c, err := newControlPlane("restartable", cfg, env.KubeConfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := crds.Install(ctx, c.c); err != nil {
		t.Fatal(err)
	}
	return &restartablePlane{controlPlane: c, env: env}
}

// apiServerPID finds the kube-apiserver process.
func (rp *restartablePlane) apiServerPID() (int, error) {
	return processWithArg("--cert-dir=" + rp.env.ControlPlane.APIServer.CertDir)
}

// stop kills the API server (pid), then stops etcd. kube-apiserver is SIGKILLed: on
// SIGTERM its graceful shutdown waits for the operator's watches and takes more than 30 s.
func (rp *restartablePlane) stop(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("killing kube-apiserver: %w", err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := processWithArg("--cert-dir=" + rp.env.ControlPlane.APIServer.CertDir); err != nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kube-apiserver (pid %d) still running 10s after SIGKILL", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Lets envtest release what it holds for the process (it has exited already).
	if err := rp.env.ControlPlane.APIServer.Stop(); err != nil {
		return fmt.Errorf("stopping kube-apiserver: %w", err)
	}
	if err := rp.env.ControlPlane.Etcd.Stop(); err != nil {
		return fmt.Errorf("stopping etcd: %w", err)
	}
	return nil
}

// start starts etcd, then the API server, and waits until it serves.
func (rp *restartablePlane) start() error {
	if err := rp.env.ControlPlane.Etcd.Start(); err != nil {
		return fmt.Errorf("starting etcd: %w", err)
	}
	if err := rp.env.ControlPlane.APIServer.Start(); err != nil {
		return fmt.Errorf("starting kube-apiserver: %w", err)
	}
	return nil
}

// failures returns lookout_reconcile_failures_total by reason.
func failures(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, "lookout_reconcile_failures_total{"); ok {
			out[label(rest, "reason")] += v
		}
	}
	return out
}

// processWithArg returns the pid of the running child process of this test whose
// command line holds arg.
func processWithArg(arg string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !slices.Contains(strings.Split(string(cmdline), "\x00"), arg) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; a zombie (state Z) has exited.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[0] != "Z" && fields[1] == strconv.Itoa(self) {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no running child process with %s", arg)
}

// probeLog records an operator's /readyz and /healthz answers over time.
type probeLog struct {
	mu      sync.Mutex
	samples []probeSample
	done    chan struct{}
	stopped chan struct{}
}

type probeSample struct {
	at             time.Time
	readyz, healtz string
}

func watchProbes(o *operator) *probeLog {
	pl := &probeLog{done: make(chan struct{}), stopped: make(chan struct{})}
	get := func(path string) string {
		resp, err := httpc.Get("http://" + o.probeAddr + path)
		if err != nil {
			return "error"
		}
		resp.Body.Close()
		return fmt.Sprint(resp.StatusCode)
	}
	go func() {
		defer close(pl.stopped)
		for {
			s := probeSample{at: time.Now(), readyz: get("/readyz"), healtz: get("/healthz")}
			pl.mu.Lock()
			pl.samples = append(pl.samples, s)
			pl.mu.Unlock()
			select {
			case <-pl.done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return pl
}

// between summarizes the answers seen in [from, to]: answer -> count.
func (pl *probeLog) between(from, to time.Time) (readyz, healthz map[string]int) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	readyz, healthz = map[string]int{}, map[string]int{}
	for _, s := range pl.samples {
		if s.at.Before(from) || s.at.After(to) {
			continue
		}
		readyz[s.readyz]++
		healthz[s.healtz]++
	}
	return readyz, healthz
}

func (pl *probeLog) stop() {
	close(pl.done)
	<-pl.stopped
}

// TestAPIServerRestart: kube-apiserver and etcd stop right after a burst of changes,
// with the reconciles still pending or running, and come back. The operator (leader
// election on, as deployed) reconnects without restarting, reconciles the pending
// changes and the ones made after, writes the config Secret only for changes, and is
// idle afterwards. Its /readyz and /healthz are recorded throughout. Then an outage
// longer than the Lease's renew deadline: the operator exits, and a replacement
// converges once the Lease has expired.
func TestAPIServerRestart(t *testing.T) {
	rp := startRestartablePlane(t)
	ns := rp.newNamespace(t)
	// A renew deadline longer than any restart of the control plane here (a loaded
	// two-core machine took 13 s to start etcd and kube-apiserver again): the reconnect is
	// what this part tests, not the deadline, which the second part does.
	op := startOperator(t, rp.controlPlane, "restart", "restart", "--leader-elect=true",
		"--leader-election-renew-deadline=45s", "--leader-election-lease-duration=60s")
	ops := []*operator{op}
	rp.mustCreate(t, newPrometheus(ns, "p", "restart"), newServiceMonitor(ns, "sm", "restart"))
	poll(t, "generated", 30*time.Second, ops, func() error {
		if err := converged(ns, "p", rp.controlPlane); err != nil {
			return err
		}
		return rp.configHasMonitors(ns, "p", "sm")
	})
	before := quiet(t, time.Second, 30*time.Second, op)[0]
	probes := watchProbes(op)
	defer probes.stop()
	// The outage starts in the middle of a reconcile: its config Secret update is held in
	// admission when the API server is killed.
	ic := startInterceptor(t, rp.controlPlane, ns, secretWrites)
	ic.arm(secretWrites)

	var pending []string
	var objs []client.Object
	for i := range 10 {
		name := fmt.Sprintf("pending-%d", i)
		pending = append(pending, name)
		objs = append(objs, newServiceMonitor(ns, name, "restart"))
	}
	pid, err := rp.apiServerPID()
	if err != nil {
		t.Fatal(err)
	}
	rp.mustCreate(t, objs...)
	// The held write never reaches storage: the changes it carries are pending.
	ic.waitHeld(t, 30*time.Second, ops)
	down := time.Now()
	if err := rp.stop(pid); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	if err := rp.start(); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	t.Logf("measured: API server and etcd down %s (stop %s, start %s)", up.Sub(down).Round(time.Millisecond), stopped.Sub(down).Round(time.Millisecond), up.Sub(stopped).Round(time.Millisecond))

	took := poll(t, "pending changes reconciled after the restart", 60*time.Second, ops, func() error {
		return rp.configHasMonitors(ns, "p", append([]string{"sm"}, pending...)...)
	})
	t.Logf("measured: pending changes in the config %s after the API server was back", took.Round(time.Millisecond))
	rp.mustCreate(t, newServiceMonitor(ns, "after", "restart"))
	took = poll(t, "change made after the restart reconciled", 30*time.Second, ops, func() error {
		return rp.configHasMonitors(ns, "p", "after")
	})
	t.Logf("measured: a change made after the restart in the config in %s", took.Round(time.Millisecond))
	after := quiet(t, 2*time.Second, 30*time.Second, op)[0]
	d := diff(before, after)
	t.Logf("measured: writes from the burst to idle: %v", d)
	// The 10 pending monitors and the one after: at most one config write each (usually
	// far fewer, coalesced), one status each, and nothing else.
	if d["Secret/update"] < 1 || d["Secret/update"] > 11 {
		t.Errorf("config Secret updated %v times for 11 changes", d["Secret/update"])
	}
	if d["ServiceMonitor/apply-status"] > 11 {
		t.Errorf("%v ServiceMonitor status writes for 11 new monitors", d["ServiceMonitor/apply-status"])
	}
	// Prometheus status writes are Reconciled=False and back to True: a reconcile that
	// fails after the restart (its update is conditional on the version its cache held
	// before the outage, refused as a conflict until the cache has relisted) says so.
	for k, v := range d {
		if k != "Secret/update" && k != "ServiceMonitor/apply-status" && k != "Prometheus/apply-status" {
			t.Errorf("needless write after the restart: %s %v", k, v)
		}
	}
	if m, err := op.metrics(); err == nil {
		t.Logf("measured: reconcile failures during and after the outage: %v", failures(m))
	}
	readyz, healthz := probes.between(down, up)
	t.Logf("measured: during the outage /readyz answered %v and /healthz %v (100 ms samples)", readyz, healthz)
	if readyz["200"] > 0 && len(readyz) == 1 {
		t.Errorf("/readyz answered 200 on every sample during the outage: %v", readyz)
	}
	if len(healthz) != 1 || healthz["200"] == 0 {
		t.Errorf("/healthz not 200 throughout the outage (the process is alive): %v", healthz)
	}
	readyzAfter, _ := probes.between(up, time.Now())
	t.Logf("measured: after the outage /readyz answered %v", readyzAfter)
	if readyzAfter["200"] == 0 {
		t.Errorf("/readyz never 200 after the outage: %v", readyzAfter)
	}
	if err := leads(op); err != nil {
		t.Errorf("after the outage: %v", err)
	}

	// An outage longer than the renew deadline: the leader cannot renew its Lease, stops
	// (exit status 1, "leader election lost") rather than risk running beside another
	// leader, and its replacement waits for the unreleased Lease to expire. The operator
	// for this part has the default deadlines; the first one hands its Lease over on a
	// clean stop.
	if err := op.stop(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	op = startOperator(t, rp.controlPlane, "restart-default", "restart", "--leader-elect=true")
	poll(t, "the operator with default deadlines leads", 30*time.Second, []*operator{op}, func() error { return leads(op) })
	pid, err = rp.apiServerPID()
	if err != nil {
		t.Fatal(err)
	}
	down = time.Now()
	if err := rp.stop(pid); err != nil {
		t.Fatal(err)
	}
	exitErr := op.waitExit(renewDeadline + 10*time.Second)
	exited := time.Since(down)
	t.Logf("measured: with the API server down, the leader exited after %s (%v; renew deadline %s)", exited.Round(time.Millisecond), exitErr, renewDeadline)
	if exitErr == nil || !strings.Contains(tail(op.log, 5), "leader election lost") {
		t.Fatalf("the leader did not exit for the lost Lease: %v\n%s", exitErr, tail(op.log, 5))
	}
	if err := rp.start(); err != nil {
		t.Fatal(err)
	}
	up = time.Now()
	rp.mustCreate(t, newServiceMonitor(ns, "after-long", "restart"))
	// What the kubelet does with the exited container.
	next := startOperator(t, rp.controlPlane, "restart-next", "restart", "--leader-elect=true")
	poll(t, "replacement reconciled a change after the long outage", failoverLimit+10*time.Second, []*operator{next}, func() error {
		return rp.configHasMonitors(ns, "p", "after-long")
	})
	t.Logf("measured: after a %s outage, the replacement reconciled %s after the API server was back (it waits for the old Lease, %s)", up.Sub(down).Round(time.Millisecond), time.Since(up).Round(time.Millisecond), leaseDuration)
	w := quiet(t, 2*time.Second, 30*time.Second, next)[0]
	for k, v := range w {
		if k != "Secret/update" && k != "ServiceMonitor/apply-status" {
			t.Errorf("needless write by the replacement: %s %v\n%s", k, v, grepLog(next.log, "status written"))
		}
	}
	if w["Secret/update"] != 1 || w["ServiceMonitor/apply-status"] != 1 {
		t.Errorf("replacement writes %v, want the config Secret and the new monitor's status once", w)
	}
}

// renewDeadline is the operator's default (ADR 15): a leader that could not renew its
// Lease for that long gives up.
const renewDeadline = 6 * time.Second
