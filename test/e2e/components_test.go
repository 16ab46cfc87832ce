//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"
)

// The operator and Alertmanager run as plain processes in the suite's network namespace.

// The main operator manages the Prometheus and Alertmanager objects without
// operatorLabel; one labelled operatorLabel=NAME belongs to the operator a scenario starts
// as NAME (--prometheus-instance-selector, --alertmanager-instance-selector), so that two
// operators never reconcile one object.
const operatorLabel = "e2e.lookout.dev/operator"

// mainOperator is the operator every scenario uses.
var mainOperator *proc

func startMainOperator(st *suite) error {
	p, err := startOperator(st, "operator", "127.0.0.1:18080", "127.0.0.1:18081",
		"--prometheus-instance-selector=!"+operatorLabel, "--alertmanager-instance-selector=!"+operatorLabel, "--thanos-ruler-instance-selector=!"+operatorLabel)
	if err != nil {
		return err
	}
	mainOperator = p
	st.stops = append(st.stops, func() {
		if err := p.Stop(30 * time.Second); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: the operator did not stop cleanly:", err)
		}
	})
	return nil
}

// operatorAlive reports the main operator's unexpected exit.
func operatorAlive() error {
	if mainOperator == nil {
		return nil
	}
	return mainOperator.Alive()
}

// startOperator runs bin/lookout-operator against the control plane and waits until it
// is ready (its /readyz reports synced caches).
func startOperator(st *suite, name, metricsAddr, probeAddr string, args ...string) (*proc, error) {
	bin, err := binaryPath(st.bin, "lookout-operator")
	if err != nil {
		return nil, err
	}
	all := append([]string{"run",
		"--kubeconfig=" + st.kubeconfig,
		"--leader-election-namespace=default",
		"--metrics-bind-address=" + metricsAddr,
		"--health-probe-bind-address=" + probeAddr,
		"--config-reloader-image=" + reloaderImage,
		// The suite's image store holds the versions built into bin/, Lookout's
		// defaults; objects without a version run them.
		"--default-versions=lookout",
		"--log-format=logfmt",
	}, args...)
	cmd := exec.Command(bin, all...)
	cmd.Env = os.Environ()
	p, err := startProc(name, filepath.Join(st.artifacts, name+".log"), cmd)
	if err != nil {
		return nil, err
	}
	if err := waitHTTP(p, "http://"+probeAddr+"/readyz", 60*time.Second); err != nil {
		_ = p.Stop(5 * time.Second)
		return nil, err
	}
	return p, nil
}

var operatorPorts atomic.Int32

// startOperator starts an operator of the scenario's own, named name, that manages the
// Prometheus and Alertmanager objects labelled operatorLabel=name, and stops it when the
// test ends.
func (sc *scenario) startOperator(name string, args ...string) *proc {
	sc.t.Helper()
	port := 18100 + 2*int(operatorPorts.Add(1))
	args = append([]string{
		"--prometheus-instance-selector=" + operatorLabel + "=" + name,
		"--alertmanager-instance-selector=" + operatorLabel + "=" + name,
		"--thanos-ruler-instance-selector=" + operatorLabel + "=" + name,
		"--leader-election-id=lookout-operator-" + name,
	}, args...)
	p, err := startOperator(s, "operator-"+name, fmt.Sprintf("127.0.0.1:%d", port), fmt.Sprintf("127.0.0.1:%d", port+1), args...)
	if err != nil {
		sc.t.Fatal(err)
	}
	sc.procs = append(sc.procs, p)
	sc.t.Cleanup(func() {
		if err := p.Stop(30 * time.Second); err != nil {
			sc.t.Errorf("operator %s: %v", name, err)
		}
	})
	return p
}

// waitHTTP polls url until it answers 200, failing early when p exits.
func waitHTTP(p *proc, url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		resp, err := httpc.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
			err = fmt.Errorf("%s: %s", url, resp.Status)
		}
		if aerr := p.Alive(); aerr != nil {
			return aerr
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s: %v (log: %s)", p.Name(), timeout, err, p.Log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// alertmanager is a real Alertmanager on its own pod-network address, behind the
// Service alertmanagerNamespace/alertmanagerService (port "web") that Prometheus objects
// name in spec.alerting.
type alertmanager struct {
	url  string
	proc *proc
}

const (
	alertmanagerNamespace = "e2e-alertmanager"
	alertmanagerService   = "alertmanager-main"
)

func startAlertmanager(ctx context.Context, st *suite) (*alertmanager, error) {
	bin, err := binaryPath(st.bin, "alertmanager")
	if err != nil {
		return nil, err
	}
	ip := st.ips.allocate()
	if err := addHostAddress(ip); err != nil {
		return nil, err
	}
	dir := filepath.Join(st.artifacts, "alertmanager")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Alerts are kept and listed whatever the route does with them; a receiver without
	// integrations sends nothing anywhere.
	config := "route:\n  receiver: none\n  group_wait: 0s\nreceivers:\n- name: none\n"
	if err := os.WriteFile(filepath.Join(dir, "alertmanager.yml"), []byte(config), 0o644); err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(ip, "9093")
	cmd := exec.Command(bin,
		"--config.file="+filepath.Join(dir, "alertmanager.yml"),
		"--storage.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr,
		"--cluster.listen-address=", // no peers: no gossip
	)
	p, err := startProc("alertmanager", filepath.Join(st.artifacts, "alertmanager.log"), cmd)
	if err != nil {
		return nil, err
	}
	st.stops = append(st.stops, func() { _ = p.Stop(10 * time.Second) })
	am := &alertmanager{url: "http://" + addr, proc: p}
	if err := waitHTTP(p, am.url+"/-/ready", 60*time.Second); err != nil {
		return nil, err
	}
	// The Service Prometheus discovers it through.
	if err := createNamespace(ctx, alertmanagerNamespace, nil); err != nil {
		return nil, err
	}
	if err := createService(ctx, alertmanagerNamespace, alertmanagerService, map[string]string{"app": "alertmanager"}, "web", 9093, []endpoint{{ip: ip}}); err != nil {
		return nil, err
	}
	return am, nil
}
