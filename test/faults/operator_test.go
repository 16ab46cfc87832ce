package faults

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// instanceLabel assigns a Prometheus to the operators of one test
// (--prometheus-instance-selector), so tests never reconcile each other's objects.
const instanceLabel = "faults.lookout.dev/test"

// operator is a lookout-operator child process. It is killed when the test process dies
// (Pdeathsig) and stopped when its test ends.
type operator struct {
	name        string
	cmd         *exec.Cmd
	log         string
	metricsAddr string
	probeAddr   string
	done        chan struct{}
	err         error // the result of Wait, valid once done is closed
	ended       atomic.Bool
}

// startOperator runs the operator under test against cp, managing the Prometheus objects
// labelled instanceLabel=group, and waits until its /readyz answers 200.
func startOperator(t *testing.T, cp *controlPlane, name, group string, args ...string) *operator {
	t.Helper()
	o, err := launchOperator(cp, name, group, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := o.stop(30 * time.Second); err != nil {
			t.Errorf("operator %s: %v", name, err)
		}
	})
	if err := o.waitReady(60 * time.Second); err != nil {
		t.Fatal(err)
	}
	return o
}

// launchOperator starts the process without waiting for it.
func launchOperator(cp *controlPlane, name, group string, args ...string) (*operator, error) {
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	o := &operator{
		name:        name,
		log:         filepath.Join(workDir, cp.name+"-"+name+".log"),
		metricsAddr: fmt.Sprintf("127.0.0.1:%d", ports[0]),
		probeAddr:   fmt.Sprintf("127.0.0.1:%d", ports[1]),
		done:        make(chan struct{}),
	}
	all := append([]string{"run",
		"--kubeconfig=" + cp.kubeconfig,
		"--leader-election-namespace=default",
		"--leader-election-id=lookout-faults-" + group,
		"--prometheus-instance-selector=" + instanceLabel + "=" + group,
		"--metrics-bind-address=" + o.metricsAddr,
		"--health-probe-bind-address=" + o.probeAddr,
		"--log-format=logfmt",
		// No Prometheus pods run here: target health (ADR 18) would turn every binding
		// Unknown two minutes in and add status writes to the counted ones. It is tested
		// in test/integration and test/e2e.
		"--target-health-interval=0",
	}, args...)
	f, err := os.OpenFile(o.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(f, "=== %s %s\n", time.Now().Format(time.RFC3339Nano), strings.Join(all, " "))
	o.cmd = exec.Command(operatorBin, all...)
	o.cmd.Stdout, o.cmd.Stderr = f, f
	o.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := o.cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting operator %s: %w", name, err)
	}
	go func() {
		o.err = o.cmd.Wait()
		f.Close()
		close(o.done)
	}()
	return o, nil
}

// freePorts returns n loopback ports nothing listens on right now.
func freePorts(n int) ([]int, error) {
	var out []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

var httpc = &http.Client{Timeout: 5 * time.Second}

// waitReady polls /readyz until it answers 200, failing early when the process exits.
func (o *operator) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		code, err := o.readyz()
		if err == nil && code == http.StatusOK {
			return nil
		}
		if aerr := o.alive(); aerr != nil {
			return aerr
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("operator %s not ready after %s (%d, %v); log %s", o.name, timeout, code, err, o.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readyz returns the status code of /readyz.
func (o *operator) readyz() (int, error) {
	resp, err := httpc.Get("http://" + o.probeAddr + "/readyz")
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// alive returns an error, with the end of the log, once the process exited without the
// test ending it.
func (o *operator) alive() error {
	select {
	case <-o.done:
		if o.ended.Load() {
			return nil
		}
		return fmt.Errorf("operator %s exited unexpectedly (%v); last lines of %s:\n%s", o.name, o.err, o.log, tail(o.log, 20))
	default:
		return nil
	}
}

// waitExit waits for the process to exit on its own, which the test expects, and
// returns its exit error.
func (o *operator) waitExit(timeout time.Duration) error {
	o.ended.Store(true)
	select {
	case <-o.done:
		return o.err
	case <-time.After(timeout):
		o.ended.Store(false)
		return fmt.Errorf("operator %s still running after %s", o.name, timeout)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (o *operator) kill() {
	o.ended.Store(true)
	_ = o.cmd.Process.Kill()
	<-o.done
}

// stop sends SIGTERM and waits up to grace; it reports an unclean exit. Stopping a
// process that already ended (killed by the test) is not an error.
func (o *operator) stop(grace time.Duration) error {
	already := o.ended.Swap(true)
	select {
	case <-o.done:
		if already {
			return nil
		}
		return fmt.Errorf("exited before the end of the test (%v); last lines of %s:\n%s", o.err, o.log, tail(o.log, 20))
	default:
	}
	_ = o.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-o.done:
		if o.err != nil {
			return fmt.Errorf("exited with %v on SIGTERM; last lines of %s:\n%s", o.err, o.log, tail(o.log, 20))
		}
		return nil
	case <-time.After(grace):
		_ = o.cmd.Process.Kill()
		<-o.done
		return fmt.Errorf("did not stop within %s of SIGTERM", grace)
	}
}

// metrics scrapes /metrics: the value of each series by name{label="value",...} (labels
// sorted), or by name for series without labels.
func (o *operator) metrics() (map[string]float64, error) {
	resp, err := httpc.Get("http://" + o.metricsAddr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics of %s: %s", o.name, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for name, f := range families {
		for _, m := range f.Metric {
			key := name
			if len(m.Label) > 0 {
				var ls []string
				for _, l := range m.Label {
					ls = append(ls, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
				}
				sort.Strings(ls)
				key += "{" + strings.Join(ls, ",") + "}"
			}
			switch {
			case m.Counter != nil:
				out[key] = m.Counter.GetValue()
			case m.Gauge != nil:
				out[key] = m.Gauge.GetValue()
			case m.Untyped != nil:
				out[key] = m.Untyped.GetValue()
			}
		}
	}
	return out, nil
}

// writes returns lookout_api_writes_total by "Kind/verb".
func (o *operator) writes() (map[string]float64, error) {
	m, err := o.metrics()
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, "lookout_api_writes_total{"); ok {
			out[label(rest, "kind")+"/"+label(rest, "verb")] = v
		}
	}
	return out, nil
}

// isLeader reports whether the operator holds its Lease (leader_election_master_status).
func (o *operator) isLeader() (bool, error) {
	m, err := o.metrics()
	if err != nil {
		return false, err
	}
	for k, v := range m {
		if strings.HasPrefix(k, "leader_election_master_status{") && v == 1 {
			return true, nil
		}
	}
	return false, nil
}

// idle returns nil once no controller of the operator has work queued or in progress.
func (o *operator) idle() error {
	m, err := o.metrics()
	if err != nil {
		return err
	}
	for k, v := range m {
		if (strings.HasPrefix(k, "workqueue_depth{") || strings.HasPrefix(k, "controller_runtime_active_workers{")) && v != 0 {
			return fmt.Errorf("operator %s busy: %s = %v", o.name, k, v)
		}
	}
	return nil
}

func label(series, name string) string {
	_, rest, ok := strings.Cut(series, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func sum(m map[string]float64) float64 {
	t := 0.0
	for _, v := range m {
		t += v
	}
	return t
}

// diff returns after-before per key, leaving out zeros.
func diff(before, after map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// tail returns the last n lines of a file.
// grepLog returns the lines of the log at path that contain s, indented.
func grepLog(path, s string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			out = append(out, "    "+l)
		}
	}
	return strings.Join(out, "\n")
}

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + string(bytes.Join(lines, []byte("\n    ")))
}
