// Command lookout-local runs a program against a local Kubernetes control plane.
//
//	lookout-local [-state-dir DIR] [-no-demo] [-no-pods] [-prometheus PATH] [-config-reloader PATH] -- COMMAND [ARGS...]
//
// It starts etcd and kube-apiserver from bin/ (envtest), installs the monitoring.coreos.com
// CRDs, applies the demo manifests of example/demo, writes an admin kubeconfig and prints
// its path, then runs COMMAND in the foreground with --kubeconfig appended. `make run`
// uses it to run the operator when no KUBECONFIG is given.
//
// Unless -no-pods is given it also plays the kubelet for the pods the operator generates
// (pkg/localpods): every StatefulSet's pods run as local processes on 127.0.0.1 with the
// real prometheus and config-reloader binaries, their Secrets and ConfigMaps projected
// into per-pod directories. The demo's sample application is served by lookout-local
// itself, one instance on a free loopback port for each address of the demo's
// EndpointSlice, and Prometheus's discovery finds those addresses and scrapes the local
// instances. When a pod is ready lookout-local prints its URLs and commands to try.
//
// Ctrl-C (or the command exiting) stops the command, the pods, the sample application,
// the API server and etcd, and removes their data.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/example"
	"github.com/lookout-operator/lookout/pkg/localpods"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/test/testenv"
)

func main() {
	os.Exit(run())
}

func run() int {
	stateDir := flag.String("state-dir", "", "directory for the kubeconfig and the pods' files (default: a new temporary directory, removed at exit)")
	noDemo := flag.Bool("no-demo", false, "do not apply the demo manifests of example/demo")
	noPods := flag.Bool("no-pods", false, "do not run the generated pods as local processes (nor the demo's sample app)")
	promBin := flag.String("prometheus", "", "the prometheus binary the pods run (default: prometheus in $KUBEBUILDER_ASSETS or the repository's bin/)")
	reloaderBin := flag.String("config-reloader", "", "the config-reloader binary the pods run (default: config-reloader next to this program)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: lookout-local [-state-dir DIR] [-no-demo] [-no-pods] [-prometheus PATH] [-config-reloader PATH] -- COMMAND [ARGS...]")
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

	var images *imageStore
	if !*noPods {
		var err error
		if images, err = newImageStore(*promBin, *reloaderBin); err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local:", err)
			fmt.Fprintln(os.Stderr, "lookout-local: build the binaries (make build, make tools) or run with -no-pods")
			return 1
		}
	}

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
	var demo []manifest.Object
	if !*noDemo {
		if demo, err = manifest.ReadFS(example.Demo); err == nil {
			err = applyDemo(ctx, env.Client, demo)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local: applying demo manifests:", err)
			return 1
		}
		logf("applied example/demo (namespace demo: Prometheus, Alertmanager, ServiceMonitor, PrometheusRule, sample-app Service and EndpointSlice)")
	}

	// The pods and the sample app stop after the command (deferred calls run last first).
	if !*noPods {
		apps, err := startDemoApps(demoEndpoints(demo))
		if err != nil {
			fmt.Fprintln(os.Stderr, "lookout-local: sample app:", err)
			return 1
		}
		defer stopDemoApps(apps)
		addresses := map[string]string{}
		for _, a := range apps {
			addresses[a.endpoint] = a.local
			logf("sample app endpoint %s is served at http://%s/metrics", a.endpoint, a.local)
		}
		podsCtx, stopPods := context.WithCancel(context.Background())
		runner := localpods.New(localpods.Options{
			Client:     env.Client,
			Dir:        filepath.Join(dir, "pods"),
			Images:     images.lookup,
			Kubeconfig: kubeconfig,
			Addresses:  addresses,
			PodSubnet:  podSubnet,
			Logf:       logf,
			OnReady:    func(p localpods.PodInfo) { announce(p, kubeconfig) },
		})
		podsDone := make(chan struct{})
		go func() {
			defer close(podsDone)
			_ = runner.Run(podsCtx)
		}()
		defer func() {
			logf("stopping the pods")
			stopPods()
			<-podsDone
		}()
		logf("running the generated pods as local processes (files under %s; -no-pods turns this off)", filepath.Join(dir, "pods"))
	}
	logf("kubeconfig: %s", kubeconfig)
	logf("try: kubectl --kubeconfig %s get prometheus,servicemonitors,statefulsets -A", kubeconfig)
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
		localpods.Terminate(cmd.Process, done, 30*time.Second)
		return 0
	}
}

// podSubnet is where the local pods' addresses come from: what EndpointSlices show and
// discovery finds, mapped to their loopback ports in the Prometheus configurations.
const podSubnet = "10.244.0.0/24"

var tryOnce sync.Once

// announce prints what to open once a pod is ready: a Prometheus's or an Alertmanager's
// UI, and the first time, two changes to try.
func announce(p localpods.PodInfo, kubeconfig string) {
	web, ok := p.Ports["web"]
	if !ok {
		logf("pod %s/%s is ready (ports %v)", p.Namespace, p.Name, p.Ports)
		return
	}
	lines := []string{fmt.Sprintf("pod %s/%s is ready (logs: %s/*.log)", p.Namespace, p.Name, p.Dir)}
	switch {
	case slices.Contains(p.Containers, "alertmanager"):
		lines = append(lines, fmt.Sprintf("  open http://127.0.0.1:%d/#/alerts   (Alertmanager)", web))
	case slices.Contains(p.Containers, "prometheus"):
		lines = append(lines, fmt.Sprintf("  open http://127.0.0.1:%d/targets   (and /alerts, /rules, /config)", web))
		if p.Namespace == "demo" {
			tryOnce.Do(func() {
				k := "kubectl --kubeconfig " + kubeconfig + " -n " + p.Namespace
				lines = append(lines,
					"  try: change the scrape interval; the operator rewrites the config Secret, the reloader reloads Prometheus:",
					"    "+k+` patch servicemonitor sample-app --type=json -p '[{"op":"replace","path":"/spec/endpoints/0/interval","value":"30s"}]'`,
					"  try: break a rule; the status says why and Prometheus keeps the last good version:",
					"    "+k+` patch prometheusrule sample-app --type=json -p '[{"op":"replace","path":"/spec/groups/0/rules/1/expr","value":"sum(("}]'`,
					"    "+k+` get prometheusrule sample-app -o jsonpath='{range .status.bindings[*].conditions[*]}{.type}={.status} {.reason}: {.message}{"\n"}{end}'`,
				)
			})
		}
	default:
		lines = append(lines, fmt.Sprintf("  open http://127.0.0.1:%d/", web))
	}
	logf("%s", strings.Join(lines, "\n"))
}

func applyDemo(ctx context.Context, c client.Client, objs []manifest.Object) error {
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
