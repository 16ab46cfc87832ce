package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/localpods"
)

// The end-to-end mode (-e2e): the operator's StatefulSet pods run as local processes
// (pkg/localpods) with real Prometheus and config-reloader binaries, Prometheus discovers
// its targets in the harness's API server in-cluster style, and every change is timed
// until each replica has loaded it.

// e2eRun is the end-to-end machinery of one size: the pods, their logs, the Prometheus
// object's ConfigLoaded condition.
type e2eRun struct {
	o      e2eOptions
	cl     *cluster
	dir    string
	runner *localpods.Runner
	cancel context.CancelFunc
	done   chan struct{}
	conds  *condLog
	podLog *os.File

	mu sync.Mutex
	// inputs are the pods' volume updates (file modes), by pod name.
	inputs map[string][]time.Time
	// logs tail each pod's container logs.
	logs map[string]*podLogs
}

// podLogs are one pod's parsed log events.
type podLogs struct {
	prom, reloader *logTail
	// reloads are Prometheus's completed configuration loads.
	reloads []promReload
	// mirrored are the API-watch reloader's updates of the config Secret's directory.
	mirrored []time.Time
}

// e2eResult is what the end-to-end mode measured at one size.
type e2eResult struct {
	mode string
	// firstLive is the time from the operator's start to every replica having loaded
	// the complete config (and, with Lookout, ConfigLoaded True).
	firstLive time.Duration
	// firstLoads are Prometheus's durations of its first configuration load, per replica.
	firstLoads []time.Duration
	edits      []e2eEdit
	failed     int
	// promRSS and reloaderRSS are per replica after the edits: VmRSS and VmHWM.
	promRSS, reloaderRSS []procSample
	pods                 []string
}

// prepare creates the service account the pods run as (token, CA and namespace at the
// in-cluster path) and sets the mode on the bench Prometheus, before the operator starts.
func prepareE2E(ctx context.Context, o e2eOptions, cl *cluster, dir string) (*e2eRun, error) {
	cs := cl.cs
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: benchServiceAccount, Namespace: promNamespace}}
	if _, err := cs.CoreV1().ServiceAccounts(promNamespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	read := []string{"get", "list", "watch"}
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "lookout-bench-prometheus"},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"nodes", "namespaces", "services", "endpoints", "pods", "secrets", "configmaps"}, Verbs: read},
			{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: read},
			{APIGroups: []string{""}, Resources: []string{"pods/status"}, Verbs: []string{"get", "patch", "update"}},
			{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}},
		},
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: role.Name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: benchServiceAccount, Namespace: promNamespace}},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	tr, err := cs.CoreV1().ServiceAccounts(promNamespace).CreateToken(ctx, benchServiceAccount,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](24 * 3600)}}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("token of service account %s: %w", benchServiceAccount, err)
	}
	cfg := cl.env.Config
	if len(cfg.CAData) == 0 {
		return nil, fmt.Errorf("the control plane's client config has no CA")
	}
	for name, data := range map[string][]byte{"token": []byte(tr.Status.Token), "ca.crt": cfg.CAData, "namespace": []byte(promNamespace)} {
		if err := os.WriteFile(filepath.Join(saDir, name), data, 0o644); err != nil {
			return nil, err
		}
	}

	var p monitoringv1.Prometheus
	key := types.NamespacedName{Namespace: promNamespace, Name: promName}
	if err := cl.c.Get(ctx, key, &p); err != nil {
		return nil, err
	}
	p.Spec.Replicas = ptr.To(int32(o.replicas))
	p.Spec.Shards = ptr.To(int32(o.shards))
	p.Spec.Version = "v" + o.version
	p.Spec.ServiceAccountName = benchServiceAccount
	// The harness creates EndpointSlices only (no endpoints controller runs): discovery
	// must read those.
	p.Spec.ServiceDiscoveryRole = ptr.To(monitoringv1.EndpointSliceRole)
	if err := cl.c.Update(ctx, &p); err != nil {
		return nil, err
	}
	podLog, err := os.Create(filepath.Join(dir, "pods.log"))
	if err != nil {
		return nil, err
	}
	e := &e2eRun{o: o, cl: cl, dir: dir, podLog: podLog, inputs: map[string][]time.Time{}, logs: map[string]*podLogs{}}
	if e.conds, err = watchConditions(ctx, cl); err != nil {
		return nil, err
	}
	return e, nil
}

// apiServerEnv is what the kubelet gives every container for in-cluster clients.
func apiServerEnv(host string) ([]localpods.EnvVar, error) {
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, err
	}
	return []localpods.EnvVar{{Name: "KUBERNETES_SERVICE_HOST", Value: u.Hostname()}, {Name: "KUBERNETES_SERVICE_PORT", Value: u.Port()},
		{Name: "KUBERNETES_SERVICE_PORT_HTTPS", Value: u.Port()}}, nil
}

// startPods waits for the operator's StatefulSets, runs their pods and waits until
// every replica has loaded the config (and, with Lookout, ConfigLoaded is True).
func (e *e2eRun) startPods(ctx context.Context, op *operatorProc, limit time.Duration, r *e2eResult) error {
	deadline := time.Now().Add(limit)
	for {
		list, err := e.cl.cs.AppsV1().StatefulSets(promNamespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		if len(list.Items) >= e.o.shards {
			break
		}
		if err := op.alive(); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the operator made %d of %d StatefulSets within %s", len(list.Items), e.o.shards, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
	env, err := apiServerEnv(e.cl.env.Config.Host)
	if err != nil {
		return err
	}
	sync := time.Second
	if e.o.reloader != reloaderAPI {
		sync = e.o.kubeletSync
	}
	e.runner = localpods.New(localpods.Options{
		Client: e.cl.c, Dir: filepath.Join(e.dir, "pods"), Images: e.o.images, SyncPeriod: sync,
		PodSubnet: "10.244.0.0/24", Env: env, VerbatimConfigs: true, Logf: e.logf, KeepLogs: e.o.keepLogs,
	})
	rctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.done = cancel, make(chan struct{})
	go func() {
		defer close(e.done)
		_ = e.runner.Run(rctx)
	}()
	want := e.o.shards * e.o.replicas
	for {
		pods := e.pods()
		loaded := 0
		for _, name := range pods {
			if len(e.poll(name).reloads) > 0 {
				loaded++
			}
		}
		cond := e.o.upstream() || e.conds.trueSince(op.started, "")
		if len(pods) == want && loaded == want && cond {
			r.firstLive = time.Since(op.started)
			r.pods = pods
			for _, name := range pods {
				r.firstLoads = append(r.firstLoads, e.poll(name).reloads[0].took)
			}
			return nil
		}
		if err := op.alive(); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d pods running, %d loaded a config, ConfigLoaded true: %v, within %s; pods: %s", len(pods), want, loaded, cond, limit, filepath.Join(e.dir, "pods"))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// logf records the runner's lines (in pods.log) and the volume updates, which are the
// file modes' reloader input.
func (e *e2eRun) logf(format string, args ...any) {
	now := time.Now()
	fmt.Fprintf(e.podLog, "%s "+format+"\n", append([]any{now.Format("15:04:05.000")}, args...)...)
	if strings.HasSuffix(format, "volume %s updated from the API") && len(args) >= 3 {
		e.mu.Lock()
		name := fmt.Sprint(args[1])
		e.inputs[name] = append(e.inputs[name], now)
		e.mu.Unlock()
	}
}

// pods are the names of the running Prometheus pods.
func (e *e2eRun) pods() []string {
	var out []string
	for _, p := range e.runner.Pods() {
		for _, c := range p.Containers {
			if c == "prometheus" {
				out = append(out, p.Name)
			}
		}
	}
	return out
}

// poll reads what a pod's logs gained and returns its events so far.
func (e *e2eRun) poll(name string) *podLogs {
	e.mu.Lock()
	defer e.mu.Unlock()
	pl := e.logs[name]
	if pl == nil {
		dir := filepath.Join(e.dir, "pods", promNamespace, name)
		pl = &podLogs{prom: &logTail{path: filepath.Join(dir, "prometheus.log")}, reloader: &logTail{path: filepath.Join(dir, "config-reloader.log")}}
		e.logs[name] = pl
	}
	for _, line := range pl.prom.lines() {
		if ev, ok := parsePromReload(line); ok {
			pl.reloads = append(pl.reloads, ev)
		}
	}
	for _, line := range pl.reloader.lines() {
		if at, ok := parseMirrored(line, promNamespace+"/"+serviceMonitorKind.configSecret); ok {
			pl.mirrored = append(pl.mirrored, at)
		}
	}
	return pl
}

// change makes one edit, like change, and follows it to every replica and ConfigLoaded.
// It returns the operator's part (update to Secret), which the operator-only table shows.
func (e *e2eRun) change(ctx context.Context, k *benchKind, sc scenario, i, c int, events <-chan configEvent, limit time.Duration, r *e2eResult) (time.Duration, error) {
	// The kubelet's volume sync runs on its own clock: in the file modes an edit made right
	// after the previous one went live would always fall at the same point of the sync
	// period (just after a sync: nearly the whole period to wait). A random wait within
	// the period (seeded by the edit's number, so runs repeat) spreads the edits over it,
	// as in a cluster where edits come at any time.
	if e.o.reloader != reloaderAPI {
		wait := time.Duration(rand.New(rand.NewPCG(uint64(c), 37)).Int64N(int64(e.o.kubeletSync)))
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(wait):
		}
	}
	var written, inSecret time.Time
	var hash string
	lat, err := change(ctx, e.cl, k, sc, i, c, events, limit, func(w time.Time, ev configEvent) {
		written, inSecret, hash = w, ev.at, ev.hash
	})
	if err != nil {
		return 0, err
	}
	ed := e2eEdit{written: written, inSecret: inSecret}
	deadline := time.Now().Add(e.o.editTimeout)
	for {
		done := true
		ed.pods = ed.pods[:0]
		for _, name := range r.pods {
			pl := e.poll(name)
			e.mu.Lock()
			inputs := append([]time.Time(nil), e.inputs[name]...)
			e.mu.Unlock()
			if e.o.reloader == reloaderAPI {
				inputs = pl.mirrored
			}
			pt := podEdit{pod: name, input: firstAfter(inputs, written)}
			if rl, ok := firstReloadAfter(pl.reloads, written); ok {
				pt.loaded, pt.took = rl.at, rl.took
			} else {
				done = false
			}
			ed.pods = append(ed.pods, pt)
		}
		if !e.o.upstream() {
			if at, ok := e.conds.firstTrue(written, shortHash(hash)); ok {
				ed.configLoaded = at
			} else {
				done = false
			}
		}
		if done {
			r.edits = append(r.edits, ed)
			return lat, nil
		}
		if time.Now().After(deadline) {
			r.failed++
			return lat, fmt.Errorf("not live in every replica (and ConfigLoaded) within %s of the write: %s", e.o.editTimeout, ed.pending())
		}
		select {
		case <-ctx.Done():
			return lat, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// finish reads the pods' memory after the edits.
func (e *e2eRun) finish(r *e2eResult) {
	for _, p := range e.runner.Pods() {
		if pid := p.PIDs["prometheus"]; pid != 0 {
			if s, err := readProc(pid); err == nil {
				r.promRSS = append(r.promRSS, s)
			}
		}
		if pid := p.PIDs["config-reloader"]; pid != 0 {
			if s, err := readProc(pid); err == nil {
				r.reloaderRSS = append(r.reloaderRSS, s)
			}
		}
	}
}

// stop stops the pods (their directories go with them; with -keep their logs stay).
func (e *e2eRun) stop() {
	if e.cancel != nil {
		e.cancel()
		<-e.done
	}
	e.conds.stop()
	e.podLog.Close()
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// firstAfter is the first time in ts not before t (zero when none).
func firstAfter(ts []time.Time, t time.Time) time.Time {
	for _, x := range ts {
		if !x.Before(t) {
			return x
		}
	}
	return time.Time{}
}

// logTail reads the complete lines a growing file gained since the last call.
type logTail struct {
	path    string
	off     int64
	partial string
}

func (t *logTail) lines() []string {
	f, err := os.Open(t.path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return nil
	}
	b, err := io.ReadAll(bufio.NewReader(f))
	if err != nil || len(b) == 0 {
		return nil
	}
	t.off += int64(len(b))
	s := t.partial + string(b)
	parts := strings.Split(s, "\n")
	t.partial = parts[len(parts)-1]
	return parts[:len(parts)-1]
}
