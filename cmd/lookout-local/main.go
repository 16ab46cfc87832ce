// Command lookout-local runs a program against a local Kubernetes control plane.
//
//	lookout-local [-state-dir DIR] [-no-demo] -- COMMAND [ARGS...]
//
// It starts etcd and kube-apiserver from bin/ (envtest), installs the monitoring.coreos.com
// CRDs, applies the demo manifests of example/demo, writes an admin kubeconfig and prints
// its path, then runs COMMAND in the foreground with --kubeconfig appended. Ctrl-C (or the
// command exiting) stops the command, the API server and etcd, and removes their data.
// `make run` uses it to run the operator when no KUBECONFIG is given.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/example"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/test/testenv"
)

func main() {
	os.Exit(run())
}

func run() int {
	stateDir := flag.String("state-dir", "", "directory for the kubeconfig (default: a new temporary directory, removed at exit)")
	noDemo := flag.Bool("no-demo", false, "do not apply the demo manifests of example/demo")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: lookout-local [-state-dir DIR] [-no-demo] -- COMMAND [ARGS...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	cmdline := flag.Args()
	if len(cmdline) == 0 {
		flag.Usage()
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	dir := *stateDir
	if dir == "" {
		d, err := os.MkdirTemp("", "lookout-local-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local:", err)
			return 1
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "lookout-local:", err)
		return 1
	}

	logf("starting etcd and kube-apiserver")
	start := time.Now()
	env, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "lookout-local:", err)
		return 1
	}
	defer func() {
		logf("stopping kube-apiserver and etcd")
		if err := env.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local: stopping control plane:", err)
		}
	}()
	logf("control plane ready with CRDs installed in %s", time.Since(start).Round(100*time.Millisecond))

	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "lookout-local:", err)
		return 1
	}
	if !*noDemo {
		if err := applyDemo(ctx, env.Client); err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local: applying demo manifests:", err)
			return 1
		}
		logf("applied example/demo (namespace demo: Prometheus, ServiceMonitor, PrometheusRule, Service, EndpointSlice)")
	}
	logf("kubeconfig: %s", kubeconfig)
	logf("try: kubectl --kubeconfig %s get prometheus,servicemonitors -A", kubeconfig)
	logf("press Ctrl-C to stop everything")

	cmd := exec.Command(cmdline[0], append(cmdline[1:], "--kubeconfig", kubeconfig, "--leader-election-namespace", "default")...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "lookout-local:", err)
		return 1
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local: command exited:", err)
			return 1
		}
		return 0
	case <-ctx.Done():
		logf("stopping %s", filepath.Base(cmdline[0]))
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		return 0
	}
}

func applyDemo(ctx context.Context, c client.Client) error {
	objs, err := manifest.ReadFS(example.Demo)
	if err != nil {
		return err
	}
	for _, o := range objs {
		if err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(o.Unstructured), client.FieldOwner("lookout-local"), client.ForceOwnership); err != nil {
			return fmt.Errorf("%s (%s %s): %w", o.Source, o.GetKind(), o.GetName(), err)
		}
	}
	return nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "lookout-local: "+format+"\n", args...)
}
