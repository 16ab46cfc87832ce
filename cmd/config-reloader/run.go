package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/exporter-toolkit/web"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/apiwatch"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
)

// hooks let tests observe a run in process.
type hooks struct {
	// observe receives every check result.
	observe func(reloader.Result)
	// listening receives the address of the metrics server.
	listening func(net.Addr)
	// installLogger makes log the process-wide logger of the libraries (client-go's
	// klog); only main sets it, as it changes global state.
	installLogger func(*slog.Logger)
}

// installKlog routes client-go's logs through log.
func installKlog(log *slog.Logger) { klog.SetSlogLogger(log.With("component", "client-go")) }

// run is the whole program; it returns the exit code.
func run(ctx context.Context, args []string, stderr io.Writer, h hooks) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "config-reloader: %v\n", err)
		return exitUsage
	}
	if c.shortVersion {
		fmt.Fprintln(stderr, version)
		return exitOK
	}
	if c.version {
		fmt.Fprintln(stderr, versionFlagLine())
		return exitOK
	}
	log, err := newLogger(stderr, c.logLevel, c.logFormat)
	if err != nil {
		fmt.Fprintf(stderr, "config-reloader: %v\n", err)
		return exitUsage
	}
	if err := web.Validate(c.webConfigFile); err != nil {
		fmt.Fprintf(stderr, "config-reloader: --web-config-file: %v\n", err)
		return exitUsage
	}
	if h.installLogger != nil {
		h.installLogger(log)
	}
	setMemLimit(c.memlimitRatio, log)

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), buildInfo())
	metrics, err := reloader.NewMetrics(reg)
	if err != nil {
		return fatalf(stderr, "%v", err)
	}
	metrics.SetReloadMethod(c.reloadMethod)
	var report *podreport.Reporter
	observe := h.observe
	if c.reportPod != "" && c.watchInterval != 0 {
		if report, err = newReporter(c, log); err != nil {
			return fatalf(stderr, "%v", err)
		}
		observe = func(res reloader.Result) {
			report.Observe(res)
			if h.observe != nil {
				h.observe(res)
			}
		}
	}
	rl, err := reloader.New(reloader.Options{
		ConfigFile:      c.configFile,
		ConfigPartFiles: c.configParts,
		ConfigOutFile:   c.configOutFile,
		WatchedDirs:     c.watchedDirs,
		WatchInterval:   c.watchInterval,
		DelayInterval:   c.delayInterval,
		RetryInterval:   c.retryInterval,
		ReloadTimeout:   c.reloadTimeout,
		Trigger:         trigger(c),
		Metrics:         metrics,
		Logger:          log,
		LookupEnv:       withOrdinal(os.LookupEnv, c.ordinalFrom),
		Observe:         observe,
	})
	if err != nil {
		return fatalf(stderr, "%v", err)
	}
	var mirror *apiwatch.Mirror
	if len(c.targets) > 0 {
		if mirror, err = newMirror(c, reg, log); err != nil {
			return fatalf(stderr, "%v", err)
		}
	}

	if c.watchInterval == 0 {
		return renderOnce(ctx, rl, mirror, log)
	}
	return watch(ctx, c, rl, mirror, report, reg, log, h)
}

// renderOnce is the init container: mirror the API objects (waiting for a config Secret
// that does not exist yet), render, exit.
func renderOnce(ctx context.Context, rl *reloader.Reloader, mirror *apiwatch.Mirror, log *slog.Logger) int {
	if mirror != nil {
		mctx, cancel := context.WithCancel(ctx)
		mirrored := make(chan error, 1)
		go func() { mirrored <- mirror.Run(mctx) }()
		defer func() {
			cancel()
			<-mirrored
		}()
		select {
		case <-mirror.Synced():
		case <-ctx.Done():
			log.Error("stopped before the watched objects were read")
			return exitError
		}
	}
	if err := rl.RenderOnce(ctx); err != nil {
		log.Error("rendering the config failed", "err", err)
		return exitError
	}
	return exitOK
}

// watch is the sidecar: serve metrics, mirror the API objects, reload on changes.
func watch(ctx context.Context, c config, rl *reloader.Reloader, mirror *apiwatch.Mirror,
	report *podreport.Reporter, reg *prometheus.Registry, log *slog.Logger, h hooks) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if report != nil {
		// Its writes never hold up a reload: the reloader only offers it hashes.
		reported := make(chan struct{})
		go func() { report.Run(ctx); close(reported) }()
		defer func() { cancel(); <-reported }()
	}
	var served <-chan error
	if c.listenAddress != "" {
		l, err := net.Listen("tcp", c.listenAddress)
		if err != nil {
			log.Error("listening for metrics", "address", c.listenAddress, "err", err)
			return exitError
		}
		if h.listening != nil {
			h.listening(l.Addr())
		}
		served = serve(ctx, l, c.webConfigFile, reg, log)
	}
	mirrored := make(chan error, 1)
	if mirror != nil {
		go func() { mirrored <- mirror.Run(ctx) }()
		// Start from the API's state rather than from what an earlier run left in the
		// directories, unless the API server cannot be reached for a while.
		wait := time.NewTimer(c.reloadTimeout)
		select {
		case <-mirror.Synced():
		case <-wait.C:
			log.Warn("API objects not synced yet; starting with the files on disk", "waited", c.reloadTimeout.String())
		case <-ctx.Done():
		}
		wait.Stop()
	}
	log.Info("config-reloader started", "version", version, "config_file", c.configFile,
		"watched_dirs", c.watchedDirs, "api_objects", len(c.targets), "reload_method", c.reloadMethod)
	reloaded := make(chan error, 1)
	go func() { reloaded <- rl.Run(ctx) }()

	code := exitOK
	select {
	case <-ctx.Done():
	case err := <-reloaded:
		reloaded <- err
		log.Error("reloader stopped", "err", err)
		code = exitError
	case err := <-served:
		log.Error("metrics server stopped", "err", err)
		code = exitError
	case err := <-mirrored:
		mirrored <- err
		log.Error("API watch stopped", "err", err)
		code = exitError
	}
	cancel()
	if err := <-reloaded; err != nil {
		code = exitError
	}
	if mirror != nil {
		<-mirrored
	}
	if served != nil {
		<-served
	}
	log.Info("config-reloader stopped")
	return code
}

// trigger builds the reload trigger the flags ask for.
func trigger(c config) reloader.Trigger {
	client := localClient()
	if c.reloadMethod == "signal" {
		return &reloader.SignalTrigger{ProcessName: c.processName, RuntimeInfoURL: c.confirmURL(), Client: client}
	}
	return &reloader.HTTPTrigger{ReloadURL: c.reloadURL, Client: client}
}

// withOrdinal adds STATEFULSET_ORDINAL_NUMBER to lookup, as prometheus-config-reloader
// does: the trailing digits of the variable from (the StatefulSet pod's name by default,
// "prometheus-k8s-1" giving "1"), empty when it has none. It shadows a variable of that
// name in the environment, as upstream's os.Setenv does.
func withOrdinal(lookup func(string) (string, bool), from string) func(string) (string, bool) {
	v, _ := lookup(from)
	ordinal := v[len(strings.TrimRightFunc(v, func(r rune) bool { return r >= '0' && r <= '9' })):]
	return func(name string) (string, bool) {
		if name == ordinalEnv {
			return ordinal, true
		}
		return lookup(name)
	}
}

// restConfig is the API client configuration: --kubeconfig, or the in-cluster one.
func restConfig(c config) (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	if c.kubeconfig != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	} else {
		cfg, err = rest.InClusterConfig()
	}
	if err != nil {
		return nil, fmt.Errorf("API client configuration: %w", err)
	}
	return cfg, nil
}

// newReporter connects to the API server for --report-pod.
func newReporter(c config, log *slog.Logger) (*podreport.Reporter, error) {
	cfg, err := restConfig(c)
	if err != nil {
		return nil, err
	}
	ns, name, err := c.reportPodName()
	if err != nil {
		return nil, err
	}
	w, err := podreport.NewPodWriter(cfg, ns, name, "lookout-config-reloader/"+version)
	if err != nil {
		return nil, err
	}
	return podreport.New(w, podreport.Options{Logger: log}), nil
}

// newMirror connects to the API server for --watch-secret/--watch-configmap.
func newMirror(c config, reg *prometheus.Registry, log *slog.Logger) (*apiwatch.Mirror, error) {
	cfg, err := restConfig(c)
	if err != nil {
		return nil, err
	}
	m, err := apiwatch.NewMetrics(reg)
	if err != nil {
		return nil, err
	}
	return apiwatch.New(cfg, c.targets, apiwatch.Options{
		Logger:    log,
		Metrics:   m,
		UserAgent: "lookout-config-reloader/" + version,
	})
}
