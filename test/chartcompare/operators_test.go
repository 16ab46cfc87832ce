package chartcompare

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/webhook"
	"github.com/lookout-operator/lookout/test/testenv"
)

// operatorFiles writes what the chart's arguments need on this machine: a kubeconfig for
// the test control plane and the web listener's certificate (the chart mounts /cert).
type operatorFiles struct {
	kubeconfig, cert, key string
}

func newOperatorFiles(t *testing.T) operatorFiles {
	t.Helper()
	dir := t.TempDir()
	f := operatorFiles{kubeconfig: filepath.Join(dir, "kubeconfig"), cert: filepath.Join(dir, "cert", "tls.crt"), key: filepath.Join(dir, "cert", "tls.key")}
	if err := os.WriteFile(f.kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := webhook.EnsureSelfSignedCert(filepath.Dir(f.cert), []string{"localhost", "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	return f
}

func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startUpstream runs bin/prometheus-operator with the chart's arguments (web listener and
// certificate made local); stop kills it and, when the test failed, logs its output's end.
func startUpstream(t *testing.T, chartArgs []string, f operatorFiles) (stop func()) {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	args := localArgs(chartArgs, freeAddress(t), f.cert, f.key)
	logFile, err := os.Create(filepath.Join(t.TempDir(), "prometheus-operator.log"))
	if err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(pctx, filepath.Join(root, "bin", "prometheus-operator"), args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+f.kubeconfig)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting prometheus-operator (make tools builds it into bin/): %v", err)
	}
	t.Logf("prometheus-operator %s", strings.Join(args, " "))
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			logFile.Close()
			if t.Failed() {
				b, _ := os.ReadFile(logFile.Name())
				if len(b) > 6000 {
					b = b[len(b)-6000:]
				}
				t.Logf("prometheus-operator log (end):\n%s", b)
			}
		})
	}
	t.Cleanup(stop) // also when the test stops early
	return stop
}

// startLookout runs Lookout in this process, from the same arguments parsed by the
// binary's own flag code (no subcommand, as a swapped image runs). Only what the test
// process needs is added: the kubeconfig, no health probe listener, no leader election
// (one operator at a time), a registry of its own.
func startLookout(t *testing.T, chartArgs []string, f operatorFiles) (stop func()) {
	t.Helper()
	args := append(localArgs(chartArgs, freeAddress(t), f.cert, f.key),
		"--kubeconfig="+f.kubeconfig, "--health-probe-bind-address=0")
	var out strings.Builder
	p, err := operator.ParseArgs(args, &out)
	if err != nil {
		t.Fatalf("parsing %q: %v\n%s", args, err, out.String())
	}
	if p.Command != "" {
		t.Fatalf("unexpected command %q", p.Command)
	}
	t.Logf("lookout-operator %s", strings.Join(args, " "))
	opts := p.Options
	opts.LeaderElection = false
	opts.Registry = prometheus.NewRegistry()
	opts.GracefulShutdown = 5 * time.Second
	opts.SkipControllerNameValidation = true // one Lookout per case in this process
	cfg, err := opts.Client.RESTConfig("lookout-operator/chartcompare")
	if err != nil {
		t.Fatal(err)
	}
	mctx, mcancel := context.WithCancel(ctx)
	mgr, err := operator.New(mctx, cfg, opts)
	if err != nil {
		mcancel()
		t.Fatalf("building the operator from %q: %v", args, err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			mcancel()
			if err := <-done; err != nil {
				t.Errorf("lookout-operator: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}
