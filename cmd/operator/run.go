package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/client/config"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// runOperator parses the run flags and runs the manager until SIGINT/SIGTERM.
func runOperator(args []string) int {
	o := operator.DefaultOptions()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", "path to a kubeconfig; default: $KUBECONFIG, in-cluster config, then ~/.kube/config")
	fs.StringVar(&o.MetricsAddr, "metrics-bind-address", o.MetricsAddr, "listen address of /metrics (0 disables it)")
	fs.StringVar(&o.ProbeAddr, "health-probe-bind-address", o.ProbeAddr, "listen address of /healthz and /readyz (0 disables it)")
	fs.StringVar(&o.PprofAddr, "pprof-bind-address", "", "listen address of net/http/pprof (empty: off)")
	fs.BoolVar(&o.LeaderElection, "leader-elect", o.LeaderElection, "elect a leader so that only one replica reconciles")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", "", "namespace of the leader election lease (default: $POD_NAMESPACE, then the pod's namespace, then default)")
	fs.StringVar(&o.LeaderElectionID, "leader-election-id", o.LeaderElectionID, "name of the leader election lease")
	namespaces := fs.String("namespaces", "", "comma-separated namespaces to watch (default: all)")
	instanceSelector := fs.String("prometheus-instance-selector", "", "label selector of the Prometheus objects this operator manages (default: all)")
	fs.BoolVar(&o.InstallCRDs, "install-crds", false, "create or upgrade the CRDs at start with server-side apply")
	fs.IntVar(&o.MaxConcurrentReconciles, "max-concurrent-reconciles", o.MaxConcurrentReconciles, "objects reconciled in parallel per controller")
	fs.StringVar(&o.Workload.PrometheusBaseImage, "prometheus-default-base-image", o.Workload.PrometheusBaseImage, "Prometheus image used when spec.image is empty (the tag comes from spec.version)")
	fs.StringVar(&o.Workload.ConfigReloaderImage, "config-reloader-image", o.Workload.ConfigReloaderImage, "image of the config-reloader sidecar and init container")
	fs.BoolVar(&o.Workload.ReloaderWatchAPI, "reloader-watch-api", false, "make the config-reloader read the config Secret and rule ConfigMaps through the API (seconds) instead of the kubelet volume (minutes)")
	fs.DurationVar(&o.Workload.ReloaderWatchInterval, "config-reloader-watch-interval", o.Workload.ReloaderWatchInterval, "how often the config-reloader re-reads its inputs without a change notification")
	reloaderCPU := fs.String("config-reloader-cpu-request", "10m", "CPU request of the config-reloader containers")
	reloaderMem := fs.String("config-reloader-memory", "50Mi", "memory request and limit of the config-reloader containers")
	fs.IntVar(&o.WebhookPort, "webhook-port", 0, "port of the PrometheusRule admission webhooks (TLS); 0 disables them")
	fs.StringVar(&o.WebhookCertDir, "webhook-cert-dir", o.WebhookCertDir, "directory holding tls.crt and tls.key for the webhooks")
	fs.BoolVar(&o.WebhookSelfSigned, "webhook-self-signed", false, "generate a self-signed webhook certificate in --webhook-cert-dir when none is there (local runs)")
	dnsNames := fs.String("webhook-dns-names", strings.Join(o.WebhookDNSNames, ","), "DNS names and IPs of the self-signed webhook certificate")
	fs.BoolVar(&o.ResourceStatus, "resource-status", o.ResourceStatus, "write status.bindings (Accepted condition per Prometheus) on ServiceMonitors, PodMonitors and PrometheusRules")
	fs.DurationVar(&o.GracefulShutdown, "graceful-shutdown-timeout", o.GracefulShutdown, "how long controllers get to stop on SIGTERM")
	qps := fs.Float64("kube-api-qps", 100, "queries per second to the API server")
	burst := fs.Int("kube-api-burst", 200, "burst of queries to the API server")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	logFormat := fs.String("log-format", "json", "log format: json, logfmt")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}

	log, err := newLogger(*logLevel, *logFormat)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lookout-operator:", err)
		return 2
	}
	ctrl.SetLogger(log)
	setup := log.WithName("setup")

	o.Namespaces = operator.ParseNamespaces(*namespaces)
	o.WebhookDNSNames = operator.ParseNamespaces(*dnsNames)
	if err := setReloaderResources(&o, *reloaderCPU, *reloaderMem); err != nil {
		setup.Error(err, "invalid config-reloader resources")
		return 2
	}
	if *instanceSelector != "" {
		sel, err := labels.Parse(*instanceSelector)
		if err != nil {
			setup.Error(err, "invalid --prometheus-instance-selector")
			return 2
		}
		o.PrometheusInstanceSelector = sel
	}

	cfg, err := restConfig(*kubeconfig)
	if err != nil {
		setup.Error(err, "cannot build a Kubernetes client configuration")
		return 1
	}
	cfg.QPS, cfg.Burst = float32(*qps), *burst
	cfg.UserAgent = "lookout-operator/" + version

	ctx := ctrl.SetupSignalHandler()
	mgr, err := operator.New(ctx, cfg, o)
	if err != nil {
		setup.Error(err, "cannot set up the operator")
		return 1
	}
	setup.Info("starting operator", "version", version, "namespaces", o.Namespaces, "leaderElection", o.LeaderElection)
	if err := mgr.Start(ctx); err != nil {
		setup.Error(err, "operator stopped with an error")
		return 1
	}
	setup.Info("operator stopped")
	return 0
}

// restConfig loads an explicit kubeconfig, or falls back to controller-runtime's lookup
// ($KUBECONFIG, in-cluster, ~/.kube/config).
func restConfig(path string) (*rest.Config, error) {
	if path != "" {
		return clientcmd.BuildConfigFromFlags("", path)
	}
	return ctrlconfig.GetConfig()
}

// setReloaderResources parses the config-reloader resource flags.
func setReloaderResources(o *operator.Options, cpu, mem string) error {
	c, err := resource.ParseQuantity(cpu)
	if err != nil {
		return fmt.Errorf("--config-reloader-cpu-request: %w", err)
	}
	m, err := resource.ParseQuantity(mem)
	if err != nil {
		return fmt.Errorf("--config-reloader-memory: %w", err)
	}
	o.Workload.ConfigReloaderResources = corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: c, corev1.ResourceMemory: m},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: m},
	}
	return nil
}
