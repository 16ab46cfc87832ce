package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	promconfig "github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery"
	"golang.org/x/sys/unix"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/test/testenv"
)

// What the operator generated is checked with Prometheus's own tools:
//
//   - promtool check config --syntax-only on every configuration as the config-reloader
//     writes it ($(POD_NAME) and $(SHARD) substituted), paths as generated;
//   - promtool check config, without --syntax-only, on the same configurations with
//     /etc/prometheus/ rewritten to a directory holding what the pod mounts there (the
//     rule ConfigMaps and the TLS assets), so every referenced rule file and certificate
//     exists and the rule files are checked too;
//   - promtool check rules on every key of every rule ConfigMap;
//   - real Prometheus processes, with the rewritten configurations: one started before the
//     corpus with the std profile's configuration, which must then reload the std
//     configuration generated after the corpus (edits of jobs it already runs included);
//     one started with each of the legacy and tenant configurations; one started with the
//     first Prometheus case's configuration and reloaded with each other one. Each must
//     report prometheus_config_last_reload_successful 1 and create every static job's
//     scrape pool (its HTTP client, TLS material included) without failure.
//
// The Prometheus processes run in a network namespace of their own that has only a
// loopback interface, so the targets, discovery and remote endpoints in the corpus are
// unreachable: nothing they do leaves the machine, or even loopback. That needs
// CAP_SYS_ADMIN (root, as CI runs the suite). The test talks to them from a thread that
// joined the namespace; inside it every port is free, so each process listens on its own
// fixed loopback port.

// netns is a network namespace with loopback only, held by one locked OS thread that runs
// what needs to be inside it.
type netns struct {
	do chan func()
}

func newNetns(t *testing.T) *netns {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("the corpus runs Prometheus in a network namespace of its own, which needs root (CAP_SYS_ADMIN); CI runs the suite as root")
	}
	n := &netns{do: make(chan func())}
	errc := make(chan error, 1)
	go func() {
		// The thread is never unlocked: when this goroutine returns, the thread exits and
		// takes the namespace with it (once the processes inside have exited).
		runtime.LockOSThread()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("unshare(CLONE_NEWNET): %w", err)
			return
		}
		if err := loopbackUp(); err != nil {
			errc <- err
			return
		}
		errc <- nil
		for f := range n.do {
			f()
		}
	}()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { close(n.do) })
	// The namespace has no route anywhere but loopback.
	if _, err := n.dial("tcp", "192.0.2.1:80"); err == nil {
		t.Fatal("the Prometheus network namespace reaches 192.0.2.1: it is not isolated")
	}
	return n
}

// run runs f on the namespace's thread.
func (n *netns) run(f func()) {
	done := make(chan struct{})
	n.do <- func() { defer close(done); f() }
	<-done
}

// dial connects from inside the namespace (the socket is created on its thread).
func (n *netns) dial(network, addr string) (net.Conn, error) {
	var c net.Conn
	var err error
	n.run(func() { c, err = (&net.Dialer{Timeout: 2 * time.Second}).Dial(network, addr) })
	return c, err
}

func (n *netns) httpClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext:       func(_ context.Context, network, addr string) (net.Conn, error) { return n.dial(network, addr) },
	}}
}

// loopbackUp brings lo up in the calling thread's network namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("reading the flags of lo: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bringing lo up: %w", err)
	}
	return nil
}

// materialize writes what a Prometheus pod would see under /etc/prometheus (the rule
// ConfigMaps and the TLS assets) below root, and the configuration with /etc/prometheus/
// rewritten to that place; it returns the configuration's path.
func materialize(g *generated, root string) (string, error) {
	etc := filepath.Join(root, "etc", "prometheus")
	for key, content := range g.rules {
		dir := filepath.Join(etc, strings.TrimPrefix(layout.RulesDir, "/etc/prometheus/"), g.ruleDirs[key])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, key), []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	certs := filepath.Join(etc, strings.TrimPrefix(layout.TLSAssetsDir, "/etc/prometheus/"))
	if err := os.MkdirAll(certs, 0o755); err != nil {
		return "", err
	}
	for key, data := range g.tls {
		if err := os.WriteFile(filepath.Join(certs, key), data, 0o600); err != nil {
			return "", err
		}
	}
	path := filepath.Join(root, "prometheus.yaml")
	text := strings.ReplaceAll(g.text, "/etc/prometheus/", etc+"/")
	return path, os.WriteFile(path, []byte(text), 0o644)
}

// promProc is a Prometheus process in the namespace.
type promProc struct {
	n       *netns
	name    string
	dir     string
	port    int
	cfgPath string
	cmd     *exec.Cmd
	logPath string
	client  *http.Client
	exited  chan error
}

func toolPath(t *testing.T, tool string) string {
	t.Helper()
	dir, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, tool)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s: run `make tools` first (%v)", p, err)
	}
	return p
}

// startPrometheus starts Prometheus with the configuration of g in its own directory.
func startPrometheus(t *testing.T, n *netns, name string, port int, g *generated) *promProc {
	t.Helper()
	bin := toolPath(t, "prometheus")
	dir := t.TempDir()
	p := &promProc{n: n, name: name, dir: dir, port: port, logPath: filepath.Join(dir, "prometheus.log"), client: n.httpClient(), exited: make(chan error, 1)}
	path, err := materialize(g, filepath.Join(dir, "files-0"))
	if err != nil {
		t.Fatal(err)
	}
	p.cfgPath = filepath.Join(dir, "prometheus.yaml")
	if err := copyFile(path, p.cfgPath); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(p.logPath)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(bin, "--config.file="+p.cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+strconv.Itoa(port), "--web.enable-lifecycle", "--log.level=info")
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	p.cmd.Dir = dir
	var startErr error
	n.run(func() { startErr = p.cmd.Start() }) // forked from the namespace's thread: the child is inside
	if startErr != nil {
		t.Fatal(startErr)
	}
	go func() { p.exited <- p.cmd.Wait(); logf.Close() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			b, _ := os.ReadFile(p.logPath)
			t.Logf("log of Prometheus %s:\n%s", name, lastLines(string(b), 60))
		}
	})
	return p
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func lastLines(s string, lines int) string {
	ls := strings.Split(s, "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n")
}

func (p *promProc) url(path string) string { return fmt.Sprintf("http://127.0.0.1:%d%s", p.port, path) }

func (p *promProc) get(path string) (int, string, error) {
	resp, err := p.client.Get(p.url(path))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// waitReady waits for /-/ready and a successful configuration load.
func (p *promProc) waitReady(deadline time.Time) error {
	for {
		select {
		case err := <-p.exited:
			p.exited <- err
			return fmt.Errorf("Prometheus %s exited: %v", p.name, err)
		default:
		}
		code, _, err := p.get("/-/ready")
		if err == nil && code == http.StatusOK {
			return p.reloadSuccessful()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("Prometheus %s not ready: %d %v", p.name, code, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// metric returns the value of a metric without labels.
func (p *promProc) metric(name string) (float64, error) {
	code, body, err := p.get("/metrics")
	if err != nil || code != http.StatusOK {
		return 0, fmt.Errorf("metrics: %d %v", code, err)
	}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == name {
			return strconv.ParseFloat(f[1], 64)
		}
	}
	return 0, fmt.Errorf("no metric %s", name)
}

func (p *promProc) reloadSuccessful() error {
	v, err := p.metric("prometheus_config_last_reload_successful")
	if err != nil {
		return err
	}
	if v != 1 {
		return fmt.Errorf("Prometheus %s: prometheus_config_last_reload_successful %v", p.name, v)
	}
	return nil
}

// reload makes p load the configuration of g (materialized in a new directory).
func (p *promProc) reload(g *generated, i int) error {
	path, err := materialize(g, filepath.Join(p.dir, fmt.Sprintf("files-%d", i)))
	if err != nil {
		return err
	}
	if err := copyFile(path, p.cfgPath); err != nil {
		return err
	}
	resp, err := p.client.Post(p.url("/-/reload"), "", nil)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("Prometheus %s refused the configuration of %s/%s: %d %s", p.name, g.ns, g.prom, resp.StatusCode, body)
	}
	return p.reloadSuccessful()
}

// scrapePools returns the scrape pools p runs.
func (p *promProc) scrapePools() (map[string]bool, error) {
	code, body, err := p.get("/api/v1/scrape_pools")
	if err != nil || code != http.StatusOK {
		return nil, fmt.Errorf("scrape pools: %d %v", code, err)
	}
	var r struct {
		Data struct {
			ScrapePools []string `json:"scrapePools"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, s := range r.Data.ScrapePools {
		out[s] = true
	}
	return out, nil
}

// staticJobs lists the jobs of cfg with static targets: Prometheus creates their scrape
// pools, HTTP clients included, once discovery reports them.
func staticJobs(cfg *promconfig.Config) []string {
	var out []string
	for _, j := range cfg.ScrapeConfigs {
		for _, sd := range j.ServiceDiscoveryConfigs {
			if st, ok := sd.(discovery.StaticConfig); ok && len(st) > 0 {
				out = append(out, j.JobName)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// waitPools waits until p runs a scrape pool for every static job of g, and checks that no
// scrape pool failed to be created or reloaded.
func (p *promProc) waitPools(g *generated, deadline time.Time) error {
	want := staticJobs(g.cfg)
	for {
		pools, err := p.scrapePools()
		var missing []string
		if err == nil {
			for _, j := range want {
				if !pools[j] {
					missing = append(missing, j)
				}
			}
		}
		for _, m := range []string{"prometheus_target_scrape_pools_failed_total", "prometheus_target_scrape_pool_reloads_failed_total"} {
			v, merr := p.metric(m)
			if merr != nil {
				return merr
			}
			if v != 0 {
				return fmt.Errorf("Prometheus %s: %s %v", p.name, m, v)
			}
		}
		if err == nil && len(missing) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("Prometheus %s: no scrape pool for %v (%v)", p.name, missing, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// promRuns are the Prometheus processes of a corpus run.
type promRuns struct {
	n   *netns
	std *promProc
	// victim is the static job the corpus breaks by an edit, which std must run before.
	victim string
}

// startPrometheusRuns starts the Prometheus that loads the std configuration from before
// the corpus.
func startPrometheusRuns(t *testing.T, stdBefore *generated) *promRuns {
	t.Helper()
	n := newNetns(t)
	r := &promRuns{n: n, victim: "scrapeConfig/" + stdBefore.ns + "/sc-edit-ca-garbage"}
	if stdBefore.job(r.victim) == nil {
		t.Fatalf("the std configuration before the corpus has no job %s", r.victim)
	}
	r.std = startPrometheus(t, n, "std", 9090, stdBefore)
	if err := r.std.waitReady(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	return r
}

// checkGenerated runs promtool and Prometheus over what the corpus run generated: the
// profiles' configurations (std first) and the Prometheus cases' ones.
func checkGenerated(t *testing.T, pr *promRuns, profiles, promCases []*generated) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs <- promtoolChecks(t, append(append([]*generated(nil), profiles...), promCases...))
	}()

	deadline := time.Now().Add(45 * time.Second)
	// The std Prometheus first runs the job the corpus breaks, then reloads.
	wg.Add(1)
	go func() {
		defer wg.Done()
		std := profiles[0]
		for {
			pools, err := pr.std.scrapePools()
			if err == nil && pools[pr.victim] {
				break
			}
			if time.Now().After(deadline) {
				errs <- fmt.Errorf("the std Prometheus never ran %s before the corpus's edit: %v", pr.victim, err)
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err := pr.std.reload(std, 1); err != nil {
			errs <- err
			return
		}
		errs <- pr.std.waitPools(std, deadline)
	}()
	for i, g := range profiles[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := startPrometheus(t, pr.n, g.ns, 9091+i, g)
			if err := p.waitReady(deadline); err != nil {
				errs <- err
				return
			}
			errs <- p.waitPools(g, deadline)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		p := startPrometheus(t, pr.n, "prometheus-cases", 9095, promCases[0])
		if err := p.waitReady(deadline); err != nil {
			errs <- err
			return
		}
		for i, g := range promCases[1:] {
			if err := p.reload(g, i+1); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// promtoolChecks runs promtool over every configuration and rule file.
func promtoolChecks(t *testing.T, gens []*generated) error {
	promtool := toolPath(t, "promtool")
	dir := t.TempDir()
	var plain, rewritten, ruleFiles []string
	for i, g := range gens {
		p := filepath.Join(dir, fmt.Sprintf("as-generated-%d.yaml", i))
		if err := os.WriteFile(p, []byte(g.text), 0o644); err != nil {
			return err
		}
		plain = append(plain, p)
		root := filepath.Join(dir, fmt.Sprintf("pod-%d", i))
		rp, err := materialize(g, root)
		if err != nil {
			return err
		}
		rewritten = append(rewritten, rp)
		for key, cm := range g.ruleDirs {
			ruleFiles = append(ruleFiles, filepath.Join(root, "etc", "prometheus", "rules", cm, key))
		}
	}
	sort.Strings(ruleFiles)
	run := func(args ...string) error {
		out, err := exec.Command(promtool, args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("promtool %s: %v\n%s", strings.Join(args[:2], " "), err, lastLines(string(out), 40))
		}
		return nil
	}
	if err := run(append([]string{"check", "config", "--syntax-only"}, plain...)...); err != nil {
		return err
	}
	if err := run(append([]string{"check", "config"}, rewritten...)...); err != nil {
		return err
	}
	if len(ruleFiles) == 0 {
		return fmt.Errorf("no rule files to check")
	}
	return run(append([]string{"check", "rules"}, ruleFiles...)...)
}
