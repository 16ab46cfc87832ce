package reloadertest

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/localpods"
	"github.com/lookout-operator/lookout/test/testenv"
)

// readyLine is what Prometheus logs once it serves requests, reload included.
const readyLine = "Server is ready to receive web requests."

// startTimeout bounds how long a start may take before the test fails.
const startTimeout = 60 * time.Second

// Binary returns the path of bin/prometheus, or an error telling how to build it.
func Binary() (string, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, "bin", "prometheus")
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("prometheus binary missing at %s: run `make tools` (or `make test`) first: %w", path, err)
	}
	return path, nil
}

// Options tune a Prometheus process.
type Options struct {
	// Binary runs instead of bin/prometheus (for example a symlink with another name).
	Binary string
	// RoutePrefix is passed as --web.route-prefix ("/prom"); URL includes it.
	RoutePrefix string
	// TLS serves HTTPS with a self-signed certificate for localhost (the way
	// spec.web.tlsConfig makes Prometheus serve); URL is then https://localhost:PORT.
	TLS bool
}

// Prometheus is a running Prometheus process.
type Prometheus struct {
	// URL is the base URL, http://127.0.0.1:PORT or https://localhost:PORT, followed by
	// the route prefix.
	URL string
	// ConfigFile is the --config.file path.
	ConfigFile string

	t       testing.TB
	binary  string
	addr    string
	storage string
	args    []string
	client  *http.Client

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}

	logMu sync.Mutex
	log   strings.Builder
}

// Start runs Prometheus with configFile, which must exist and be valid, and returns once
// it is ready. The process is stopped when the test ends.
func Start(t testing.TB, configFile string, o Options) *Prometheus {
	t.Helper()
	bin := o.Binary
	if bin == "" {
		var err error
		if bin, err = Binary(); err != nil {
			t.Fatal(err)
		}
	}
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	p := &Prometheus{
		URL:        "http://" + addr + strings.TrimSuffix(o.RoutePrefix, "/"),
		ConfigFile: configFile,
		t:          t,
		binary:     bin,
		addr:       addr,
		storage:    t.TempDir(),
		client:     http.DefaultClient,
	}
	if o.RoutePrefix != "" {
		p.args = append(p.args, "--web.route-prefix="+o.RoutePrefix)
	}
	if o.TLS {
		webConfig, err := selfSignedWebConfig(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		p.args = append(p.args, "--web.config.file="+webConfig)
		_, port, _ := net.SplitHostPort(addr)
		p.URL = "https://localhost:" + port + strings.TrimSuffix(o.RoutePrefix, "/")
		// The test reads its own server: no CA to trust.
		p.client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // test's own loopback server
	}
	t.Cleanup(p.Stop)
	p.Restart()
	return p
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Restart starts the process again (after Stop) on the same address and storage, and
// waits until it is ready.
func (p *Prometheus) Restart() {
	p.t.Helper()
	p.mu.Lock()
	if p.cmd != nil {
		p.mu.Unlock()
		p.t.Fatal("prometheus is already running")
	}
	cmd := exec.Command(p.binary, append([]string{
		"--config.file=" + p.ConfigFile,
		"--storage.tsdb.path=" + p.storage,
		"--web.listen-address=" + p.addr,
		"--web.enable-lifecycle",
		"--log.level=info",
	}, p.args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		p.mu.Unlock()
		p.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		p.t.Fatalf("starting prometheus: %v", err)
	}
	ready := make(chan struct{})
	done := make(chan struct{})
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
	p.logMu.Lock()
	p.log.Reset()
	p.logMu.Unlock()

	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		signalled := false
		for sc.Scan() {
			p.logMu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.logMu.Unlock()
			if !signalled && strings.Contains(sc.Text(), readyLine) {
				close(ready)
				signalled = true
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-ready:
	case <-done:
		p.mu.Lock()
		p.cmd = nil
		p.mu.Unlock()
		p.t.Fatalf("prometheus exited before it was ready:\n%s", p.Log())
	case <-time.After(startTimeout):
		p.Stop()
		p.t.Fatalf("prometheus not ready after %s", startTimeout)
	}
}

// Stop terminates the process and waits for it to exit; it is a no-op when stopped.
func (p *Prometheus) Stop() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.cmd = nil
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	localpods.Terminate(cmd.Process, done, 30*time.Second)
}

// PID is the process id while running, 0 otherwise.
func (p *Prometheus) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// ReloadURL and RuntimeInfoURL are the endpoints the reloader uses.
func (p *Prometheus) ReloadURL() string      { return p.URL + "/-/reload" }
func (p *Prometheus) RuntimeInfoURL() string { return p.URL + "/api/v1/status/runtimeinfo" }

// getJSON decodes the data field of an API response.
func (p *Prometheus) getJSON(path string, data any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+path, nil)
	if err != nil {
		return err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", path, resp.Status, body)
	}
	env := struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
	}{}
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	if env.Status != "success" {
		return fmt.Errorf("GET %s: status %q", path, env.Status)
	}
	return json.Unmarshal(env.Data, data)
}

// LoadedConfig returns the config Prometheus has loaded (/api/v1/status/config).
func (p *Prometheus) LoadedConfig() (string, error) {
	var data struct {
		YAML string `json:"yaml"`
	}
	if err := p.getJSON("/api/v1/status/config", &data); err != nil {
		return "", err
	}
	return data.YAML, nil
}

// RuleGroups returns the names of the loaded rule groups (/api/v1/rules).
func (p *Prometheus) RuleGroups() ([]string, error) {
	var data struct {
		Groups []struct {
			Name string `json:"name"`
		} `json:"groups"`
	}
	if err := p.getJSON("/api/v1/rules", &data); err != nil {
		return nil, err
	}
	var names []string
	for _, g := range data.Groups {
		names = append(names, g.Name)
	}
	return names, nil
}

// ReloadRequests returns how many /-/reload requests Prometheus has served, from its own
// prometheus_http_requests_total.
func (p *Prometheus) ReloadRequests() (float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var total float64
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "prometheus_http_requests_total{") || !strings.Contains(line, `handler="/-/reload"`) {
			continue
		}
		var v float64
		if _, err := fmt.Sscanf(line[strings.LastIndexByte(line, ' ')+1:], "%g", &v); err != nil {
			return 0, fmt.Errorf("parsing %q: %w", line, err)
		}
		total += v
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return total, nil
}

// Log returns what the current (or last) process logged so far.
func (p *Prometheus) Log() string {
	p.logMu.Lock()
	defer p.logMu.Unlock()
	return p.log.String()
}
