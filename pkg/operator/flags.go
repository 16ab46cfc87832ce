package operator

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Parsed is the operator's command line: the Options, and what only the process needs.
type Parsed struct {
	Options Options
	// Command is the word after the flags, as in prometheus-operator's
	// "operator [flags] [command]" ("" when none).
	Command string
	// Args are the words after Command.
	Args []string
	// PrintVersion and PrintShortVersion are --version and --short-version.
	PrintVersion      bool
	PrintShortVersion bool
	// Given are the names of the flags on the command line, sorted.
	Given []string

	gatesGiven map[string]bool
}

// IsGiven reports whether the flag was on the command line.
func (p *Parsed) IsGiven(name string) bool {
	i := sort.SearchStrings(p.Given, name)
	return i < len(p.Given) && p.Given[i] == name
}

// runFlags holds the flag values that need work after parsing.
type runFlags struct {
	o *Options

	reloaderCPURequest, reloaderCPULimit   *quantityValue
	reloaderMemory                         *quantityValue
	reloaderMemRequest, reloaderMemLimit   *quantityValue
	kubeletService, kubeletSelector        string
	webMinVersion                          string
	webCipherSuites, webCurves, webhookDNS []string
	qps                                    float64
	statusQPS                              float64
	gates                                  *gatesValue
	version, shortVersion                  bool
}

// NewFlagSet returns the run flags (prometheus-operator's, then Lookout's own) bound to
// a fresh Options, with the defaults of DefaultOptions. Errors go to output; the caller
// prints the usage.
func NewFlagSet(name string, output io.Writer) (*flag.FlagSet, func() (*Parsed, error)) {
	o := DefaultOptions()
	f := &runFlags{
		o:                  &o,
		reloaderCPURequest: newQuantity("10m"),
		reloaderCPULimit:   newQuantity("0"),
		reloaderMemory:     newQuantity("50Mi"),
		reloaderMemRequest: newQuantity("50Mi"),
		reloaderMemLimit:   newQuantity("50Mi"),
		webhookDNS:         o.WebhookDNSNames,
		qps:                float64(o.Client.QPS),
		statusQPS:          float64(o.StatusQPS),
		gates:              &gatesValue{p: &o.FeatureGates, given: map[string]bool{}},
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(output)
	fs.Usage = func() {} // the caller prints the usage for -h; errors stay one line
	f.register(fs)
	return fs, func() (*Parsed, error) { return f.finish(fs) }
}

// ParseArgs parses the operator's command line. flag.ErrHelp is returned for -h/--help;
// any other error is a bad flag or value (exit code 2).
func ParseArgs(args []string, output io.Writer) (*Parsed, error) {
	fs, finish := NewFlagSet("lookout-operator", output)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	p, err := finish()
	if err != nil {
		fmt.Fprintln(output, err)
		return nil, err
	}
	return p, nil
}

func (f *runFlags) register(fs *flag.FlagSet) {
	o := f.o

	// The web listener (prometheus-operator's --web.*): /metrics, /healthz and the
	// admission webhooks.
	for _, n := range []string{"web.listen-address", "metrics-bind-address"} {
		fs.StringVar(&o.MetricsAddr, n, o.MetricsAddr, "listen address of /metrics, /healthz and the admission webhook paths (0 disables it); --web.listen-address and --metrics-bind-address are the same flag")
	}
	fs.BoolVar(&o.Web.TLS, "web.enable-tls", o.Web.TLS, "serve the web listener over TLS")
	fs.StringVar(&o.Web.CertFile, "web.cert-file", o.Web.CertFile, "TLS certificate of the web listener (re-read when it changes)")
	fs.StringVar(&o.Web.KeyFile, "web.key-file", o.Web.KeyFile, "TLS private key of the web listener")
	fs.StringVar(&o.Web.ClientCAFile, "web.client-ca-file", o.Web.ClientCAFile, "CA of the client certificates the web listener requires; client certificates are not asked for when the file does not exist")
	fs.DurationVar(&o.Web.ReloadInterval, "web.tls-reload-interval", o.Web.ReloadInterval, "how often the web listener's certificate files are checked for changes")
	f.webMinVersion = "VersionTLS13"
	fs.StringVar(&f.webMinVersion, "web.tls-min-version", f.webMinVersion, "lowest TLS version of the web listener: VersionTLS12 or VersionTLS13")
	fs.Var(listValue{&f.webCipherSuites}, "web.tls-cipher-suites", "comma-separated TLS 1.2 cipher suites of the web listener, by Go name (default: Go's; TLS 1.3 suites are not configurable)")
	fs.Var(listValue{&f.webCurves}, "web.tls-curves", "comma-separated key exchange curves of the web listener: "+curveNames())
	fs.BoolVar(&o.Web.HTTP2, "web.enable-http2", o.Web.HTTP2, "allow HTTP/2 on the TLS web listener")
	fs.BoolVar(&o.Web.Pprof, "web.enable-pprof", o.Web.Pprof, "serve net/http/pprof under /debug/pprof/ on the web listener, as prometheus-operator does (false: not served; see --pprof-bind-address for a listener of its own)")

	// The API server connection.
	fs.StringVar(&o.Client.Kubeconfig, "kubeconfig", "", "kubeconfig path; default: $KUBECONFIG, then --apiserver, then the in-cluster configuration, then ~/.kube/config")
	fs.StringVar(&o.Client.APIServer, "apiserver", "", "API server URL, used when no kubeconfig is given (not recommended in production: the in-cluster configuration is)")
	fs.StringVar(&o.Client.CertFile, "cert-file", "", "client certificate for an https --apiserver")
	fs.StringVar(&o.Client.KeyFile, "key-file", "", "client key for an https --apiserver")
	fs.StringVar(&o.Client.CAFile, "ca-file", "", "CA of an https --apiserver")
	fs.BoolVar(&o.Client.Insecure, "tls-insecure", false, "do not verify the certificate of an https --apiserver")
	fs.StringVar(&o.Client.Impersonate, "as", "", "user (or system:serviceaccount:NAMESPACE:NAME) to impersonate")
	fs.Float64Var(&f.qps, "kube-api-qps", f.qps, "queries per second to the API server")
	fs.IntVar(&o.Client.Burst, "kube-api-burst", o.Client.Burst, "burst of queries to the API server")

	// What is watched and managed.
	fs.Var(listValue{&o.Namespaces}, "namespaces", "comma-separated namespaces whose objects are watched (default: all); mutually exclusive with --deny-namespaces")
	fs.Var(listValue{&o.DenyNamespaces}, "deny-namespaces", "comma-separated namespaces left out when --namespaces is empty")
	fs.Var(listValue{&o.PrometheusInstanceNamespaces}, "prometheus-instance-namespaces", "comma-separated namespaces whose Prometheus objects are reconciled, whatever --namespaces and --deny-namespaces say (default: those)")
	fs.Var(listValue{&o.AlertmanagerInstanceNamespaces}, "alertmanager-instance-namespaces", "comma-separated namespaces whose Alertmanager objects are reconciled, whatever --namespaces and --deny-namespaces say (default: those)")
	fs.Var(listValue{&o.AlertmanagerConfigNamespaces}, "alertmanager-config-namespaces", "comma-separated namespaces whose AlertmanagerConfig objects an Alertmanager may select (default: --namespaces/--deny-namespaces)")
	fs.Var(listValue{&o.ThanosRulerInstanceNamespaces}, "thanos-ruler-instance-namespaces", "comma-separated namespaces whose ThanosRuler objects are reconciled, whatever --namespaces and --deny-namespaces say (default: those)")
	fs.BoolVar(&o.WatchReferencedObjectsInAllNamespaces, "watch-referenced-objects-in-all-namespaces", false, "watch Secrets and ConfigMaps in the namespaces of the monitors too (Lookout always does)")
	fs.Var(labelSelectorValue(&o.PrometheusInstanceSelector), "prometheus-instance-selector", "label selector of the Prometheus objects this operator reconciles (default: all)")
	fs.Var(labelSelectorValue(&o.AlertmanagerInstanceSelector), "alertmanager-instance-selector", "label selector of the Alertmanager objects this operator reconciles (default: all)")
	fs.Var(labelSelectorValue(&o.ThanosRulerInstanceSelector), "thanos-ruler-instance-selector", "label selector of the ThanosRuler objects this operator reconciles (default: all)")
	fs.Var(fieldSelectorValue(&o.SecretFieldSelector), "secret-field-selector", "field selector of the Secrets whose metadata is cached (referenced and generated Secrets outside it are read from the API server)")
	fs.Var(labelSelectorValue(&o.SecretLabelSelector), "secret-label-selector", "label selector of the Secrets whose metadata is cached (referenced and generated Secrets outside it are read from the API server)")
	fs.Var(fieldSelectorValue(&o.ConfigMapFieldSelector), "configmap-field-selector", "field selector of the ConfigMaps whose metadata is cached (as for Secrets)")
	fs.Var(labelSelectorValue(&o.ConfigMapLabelSelector), "configmap-label-selector", "label selector of the ConfigMaps whose metadata is cached (as for Secrets)")
	fs.StringVar(&o.ControllerID, "controller-id", "", "reconcile only Prometheus and Alertmanager objects whose operator.prometheus.io/controller-id annotation has this value (empty: only objects without it)")
	fs.BoolVar(&o.DisableUnmanagedPrometheusConfiguration, "disable-unmanaged-prometheus-configuration", false, "generate the configuration even for a Prometheus whose monitor selectors are all nil (Lookout always does)")
	fs.Var(f.gates, "feature-gates", "prometheus-operator feature gates, name=bool,... ("+DefaultFeatureGates().String()+"); StatusForConfigurationResources sets --resource-status, PrometheusShardRetentionPolicy honours spec.shardRetentionPolicy, PrometheusTopologySharding spec.shardingStrategy.mode Topology, the others are accepted")

	// The generated objects and pods.
	fs.Var(oneOfValue{p: &o.DefaultVersions, allowed: []string{versions.SetUpstream, versions.SetLookout}}, "default-versions", "versions of Prometheus, Alertmanager and Thanos run by objects without spec.version (spec.thanos.version): upstream (prometheus-operator v0.93's: Prometheus "+versions.UpstreamPrometheus+", Alertmanager "+versions.UpstreamAlertmanager+", Thanos "+versions.UpstreamThanos+"; a bare object keeps its image when Lookout replaces prometheus-operator) or lookout (Lookout's newer defaults)")
	fs.StringVar(&o.Workload.PrometheusBaseImage, "prometheus-default-base-image", o.Workload.PrometheusBaseImage, "Prometheus image (without tag) used when spec.image is empty; the tag comes from spec.version")
	fs.StringVar(&o.Workload.AlertmanagerBaseImage, "alertmanager-default-base-image", o.Workload.AlertmanagerBaseImage, "Alertmanager image (without tag) used when spec.image is empty; the tag comes from spec.version")
	fs.StringVar(&o.ThanosBaseImage, "thanos-default-base-image", o.ThanosBaseImage, "Thanos image (without tag) of the Prometheus thanos-sidecar when spec.thanos.image and spec.thanos.baseImage are empty, and of a ThanosRuler when spec.image is empty; the tag comes from the version")
	for _, n := range []string{"prometheus-config-reloader", "config-reloader-image"} {
		fs.StringVar(&o.Workload.ConfigReloaderImage, n, o.Workload.ConfigReloaderImage, "image of the config-reloader sidecar and init container; --prometheus-config-reloader and --config-reloader-image are the same flag")
	}
	fs.Var(f.reloaderCPURequest, "config-reloader-cpu-request", "CPU request of the config-reloader containers (0: none)")
	fs.Var(f.reloaderCPULimit, "config-reloader-cpu-limit", "CPU limit of the config-reloader containers (0: none)")
	fs.Var(f.reloaderMemRequest, "config-reloader-memory-request", "memory request of the config-reloader containers (0: none)")
	fs.Var(f.reloaderMemLimit, "config-reloader-memory-limit", "memory limit of the config-reloader containers (0: none)")
	fs.Var(f.reloaderMemory, "config-reloader-memory", "memory request and limit of the config-reloader containers; --config-reloader-memory-request and -limit override it")
	fs.BoolVar(&o.ConfigReloaderProbes, "enable-config-reloader-probes", false, "startup, readiness and liveness probes on the config-reloader sidecar (/healthz)")
	fs.DurationVar(&o.Workload.ReloaderWatchInterval, "config-reloader-watch-interval", o.Workload.ReloaderWatchInterval, "how often the config-reloader re-reads its inputs without a change notification")
	fs.BoolVar(&o.Workload.ReloaderWatchAPI, "reloader-watch-api", false, "make the config-reloader read the config Secret and rule ConfigMaps through the API (seconds) instead of the kubelet volume (minutes); needs Lookout's config-reloader image")
	fs.BoolVar(&o.Workload.ReloaderReportConfig, "reloader-report-config", false, "make the config-reloader write the hash of each configuration it loaded on its pod's status, and set the ConfigLoaded condition of Prometheus, PrometheusAgent, Alertmanager and ThanosRuler objects from it (turning it on rolls the pods once); needs Lookout's config-reloader image")
	fs.Var(mapValue{p: &o.Labels, labels: true}, "labels", "labels added to every object the operator generates (Secrets, ConfigMaps, StatefulSets, Services, Roles, the kubelet Service and Endpoints), key=value,...; the operator's own labels win")
	fs.Var(mapValue{p: &o.Annotations}, "annotations", "annotations added to every object the operator generates, as --labels, key=value,...")
	fs.StringVar(&o.ClusterDomain, "cluster-domain", "", "cluster DNS domain: when set, Alertmanager --cluster.peer addresses are fully qualified (<pod>.alertmanager-operated.<namespace>.svc.<domain>.)")
	fs.StringVar(&o.LocalHost, "localhost", o.LocalHost, "host the config-reloader uses to reach Prometheus in the pod, and listens on with spec.listenLocal (when not given: 127.0.0.1, or localhost when Prometheus serves TLS)")
	fs.Var(oneOfValue{p: (*string)(&o.RepairPolicy), allowed: []string{"none", "evict", "delete"}}, "repair-policy-for-statefulsets", "what to do with a Prometheus StatefulSet whose rollout is stuck (a pod of an old revision not ready): none, evict or delete that pod")

	// The kubelet endpoints controller.
	fs.StringVar(&f.kubeletService, "kubelet-service", "", "namespace/name of the Service whose Endpoints/EndpointSlices list the kubelets (the kubelet controller keeps that Service, its Endpoints and EndpointSlices)")
	fs.StringVar(&f.kubeletSelector, "kubelet-selector", "", "label selector of the nodes the kubelet controller lists (empty: every node)")
	fs.Var(oneOfValue{p: &o.Kubelet.NodeAddressPriority, allowed: []string{"internal", "external"}}, "kubelet-node-address-priority", "which address of a node the kubelet controller lists: internal or external (the other is the fallback)")
	fs.BoolVar(&o.Kubelet.Endpoints, "kubelet-endpoints", o.Kubelet.Endpoints, "write an Endpoints object listing the kubelets")
	fs.BoolVar(&o.Kubelet.EndpointSlice, "kubelet-endpointslice", o.Kubelet.EndpointSlice, "write EndpointSlice objects listing the kubelets")
	fs.DurationVar(&o.Kubelet.SyncPeriod, "kubelet-sync-period", o.Kubelet.SyncPeriod, "how often the kubelet controller checks its objects when no change was seen (it also follows node changes)")
	fs.BoolVar(&o.Kubelet.HTTPMetrics, "kubelet-http-metrics", o.Kubelet.HTTPMetrics, "list the kubelet's read-only HTTP port 10255 (http-metrics) beside 10250; false where that port is off")

	// The process.
	fs.StringVar(&o.Log.Level, "log-level", o.Log.Level, "log level: all, debug, info, warn, error, none")
	fs.StringVar(&o.Log.Format, "log-format", o.Log.Format, "log format: logfmt, json")
	fs.Float64Var(&o.GoMemLimitRatio, "auto-gomemlimit-ratio", 0, "set GOMEMLIMIT to this share (0 to 1) of the container's memory limit (0: off)")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.BoolVar(&f.shortVersion, "short-version", false, "print just the version number and exit")
	fs.BoolVar(&o.LeaderElection, "leader-elect", o.LeaderElection, "elect a leader so that only one replica reconciles; when not given, the operator runs without it if it may not use Leases")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", "", "namespace of the leader election Lease (default: $POD_NAMESPACE, then the pod's namespace, then default)")
	fs.StringVar(&o.LeaderElectionID, "leader-election-id", o.LeaderElectionID, "name of the leader election Lease")
	fs.DurationVar(&o.LeaseDuration, "leader-election-lease-duration", o.LeaseDuration, "how long a standby waits on an unrenewed Lease before taking it over (the failover time after a leader dies without releasing it)")
	fs.DurationVar(&o.RenewDeadline, "leader-election-renew-deadline", o.RenewDeadline, "how long the leader keeps trying to renew its Lease before it stops leading (and exits); below the lease duration")
	fs.DurationVar(&o.RetryPeriod, "leader-election-retry-period", o.RetryPeriod, "how often the leader renews and a standby checks the Lease")
	fs.StringVar(&o.ProbeAddr, "health-probe-bind-address", o.ProbeAddr, "listen address of /healthz and /readyz (0 disables it)")
	fs.StringVar(&o.PprofAddr, "pprof-bind-address", "", "listen address of net/http/pprof (empty: off)")
	fs.BoolVar(&o.InstallCRDs, "install-crds", false, "create or upgrade the CRDs at start with server-side apply")
	fs.IntVar(&o.MaxConcurrentReconciles, "max-concurrent-reconciles", o.MaxConcurrentReconciles, "objects reconciled in parallel per controller")
	fs.Float64Var(&f.statusQPS, "status-api-qps", f.statusQPS, "queries per second of the status writes (bindings on monitors and rules), a budget of their own; negative: no client-side limit, the API server's priority and fairness paces them")
	fs.IntVar(&o.StatusWorkers, "status-workers", o.StatusWorkers, "status bindings written in parallel per kind")
	fs.IntVar(&o.MaxNamespaceConfigBytes, "max-namespace-config-bytes", o.MaxNamespaceConfigBytes, "bytes of scrape configuration the monitors of one namespace may add to one Prometheus together; the monitors past the bound (in the order they are written) are refused with a condition that says so (0: no bound)")
	fs.BoolVar(&o.ResourceStatus, "resource-status", o.ResourceStatus, "write status.bindings (an Accepted condition per Prometheus) on ServiceMonitors, PodMonitors, Probes, ScrapeConfigs and PrometheusRules")
	fs.DurationVar(&o.TargetHealthInterval, "target-health-interval", o.TargetHealthInterval, "how often the TargetsHealthy condition of each monitor's status binding, and the RulesHealthy condition of each PrometheusRule's, is refreshed from the targets and rules APIs of one pod per shard of its Prometheus or ThanosRuler (0: off)")
	fs.BoolVar(&o.MonitorCost, "monitor-cost", o.MonitorCost, "with target health, also query one pod per shard for the samples and series each monitor's scrapes add (the SampleCost condition of its binding, the TopMonitors condition of the Prometheus)")
	fs.DurationVar(&o.GracefulShutdown, "graceful-shutdown-timeout", o.GracefulShutdown, "how long controllers get to stop on SIGTERM")
	fs.IntVar(&o.WebhookPort, "webhook-port", 0, "port of a separate TLS listener for the PrometheusRule admission webhooks; 0: none (the web listener serves them too)")
	fs.StringVar(&o.WebhookCertDir, "webhook-cert-dir", o.WebhookCertDir, "directory holding tls.crt and tls.key for --webhook-port")
	fs.BoolVar(&o.WebhookSelfSigned, "webhook-self-signed", false, "generate a self-signed certificate in --webhook-cert-dir when none is there (local runs)")
	fs.Var(listValue{&f.webhookDNS}, "webhook-dns-names", "DNS names and IPs of the self-signed webhook certificate")
}

// finish turns the parsed flags into Options and checks them together.
func (f *runFlags) finish(fs *flag.FlagSet) (*Parsed, error) {
	o := f.o
	p := &Parsed{PrintVersion: f.version, PrintShortVersion: f.shortVersion, gatesGiven: f.gates.given}
	fs.Visit(func(fl *flag.Flag) { p.Given = append(p.Given, fl.Name) })
	sort.Strings(p.Given)
	if fs.NArg() > 0 {
		p.Command, p.Args = fs.Arg(0), fs.Args()[1:]
	}
	var errs []error

	o.Client.QPS = float32(f.qps)
	o.StatusQPS = float32(f.statusQPS)
	o.WebhookDNSNames = f.webhookDNS
	if !p.IsGiven("leader-elect") {
		o.LeaderElectionOptional = o.LeaderElection
	}
	if p.IsGiven("feature-gates") && f.gates.given[GateStatusForConfigurationResources] && !p.IsGiven("resource-status") {
		o.ResourceStatus = o.FeatureGates.Enabled(GateStatusForConfigurationResources)
	}

	o.Workload.ConfigReloaderResources = f.reloaderResources(p)
	o.Workload.ReloaderProbes = o.ConfigReloaderProbes
	if p.IsGiven("localhost") {
		o.Workload.LocalHost = o.LocalHost
	}
	o.Workload.ClusterDomain = o.ClusterDomain
	o.Workload.ThanosBaseImage = o.ThanosBaseImage

	if f.kubeletService != "" {
		ns, name, ok := strings.Cut(f.kubeletService, "/")
		if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			errs = append(errs, fmt.Errorf("--kubelet-service: %q is not namespace/name", f.kubeletService))
		} else {
			o.Kubelet.Service = types.NamespacedName{Namespace: ns, Name: name}
		}
	}
	if f.kubeletSelector != "" {
		v := labelSelectorValue(&o.Kubelet.Selector)
		if err := v.Set(f.kubeletSelector); err != nil {
			errs = append(errs, fmt.Errorf("--kubelet-selector: %w", err))
		}
	}

	// Like prometheus-operator, the web TLS settings are only checked when TLS is on.
	if o.Web.TLS {
		var err error
		if o.Web.MinVersion, err = parseTLSVersion(f.webMinVersion); err != nil {
			errs = append(errs, fmt.Errorf("--web.tls-min-version: %w", err))
		}
		if o.Web.CipherSuites, err = parseCipherSuites(f.webCipherSuites); err != nil {
			errs = append(errs, fmt.Errorf("--web.tls-cipher-suites: %w", err))
		}
		if o.Web.Curves, err = parseCurves(f.webCurves); err != nil {
			errs = append(errs, fmt.Errorf("--web.tls-curves: %w", err))
		}
		if o.Web.CertFile == "" && o.Web.KeyFile == "" && o.Web.ClientCAFile != "" && p.IsGiven("web.client-ca-file") {
			errs = append(errs, errors.New("--web.client-ca-file needs --web.cert-file and --web.key-file"))
		}
		if (o.Web.CertFile == "") != (o.Web.KeyFile == "") {
			errs = append(errs, errors.New("--web.cert-file and --web.key-file go together"))
		}
	}

	switch strings.ToLower(o.Log.Level) {
	case "all", "debug", "info", "warn", "error", "none":
		o.Log.Level = strings.ToLower(o.Log.Level)
	default:
		errs = append(errs, fmt.Errorf("--log-level: unknown level %q (all, debug, info, warn, error, none)", o.Log.Level))
	}
	switch o.Log.Format {
	case "logfmt", "json":
	default:
		errs = append(errs, fmt.Errorf("--log-format: unknown format %q (logfmt, json)", o.Log.Format))
	}
	if o.Workload.ReloaderReportConfig && workload.UpstreamReloaderImage(o.Workload.ConfigReloaderImage) {
		errs = append(errs, fmt.Errorf("--reloader-report-config needs Lookout's config-reloader, but the reloader image is %q (prometheus-operator's does not report what it loaded)", o.Workload.ConfigReloaderImage))
	}
	if o.Workload.ReloaderWatchAPI && workload.UpstreamReloaderImage(o.Workload.ConfigReloaderImage) {
		errs = append(errs, fmt.Errorf("--reloader-watch-api needs Lookout's config-reloader, but the reloader image is %q (prometheus-operator's does not read the API)", o.Workload.ConfigReloaderImage))
	}
	if err := o.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	p.Options = *o
	return p, nil
}

// reloaderResources builds the config-reloader's resources: --config-reloader-memory
// first, then the request and limit flags, "0" leaving the entry out (as
// prometheus-operator does).
func (f *runFlags) reloaderResources(p *Parsed) corev1.ResourceRequirements {
	memReq, memLim := f.reloaderMemRequest.q, f.reloaderMemLimit.q
	if p.IsGiven("config-reloader-memory") {
		if !p.IsGiven("config-reloader-memory-request") {
			memReq = f.reloaderMemory.q
		}
		if !p.IsGiven("config-reloader-memory-limit") {
			memLim = f.reloaderMemory.q
		}
	}
	r := corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}
	put := func(l corev1.ResourceList, name corev1.ResourceName, q resource.Quantity) {
		if !q.IsZero() {
			l[name] = q
		}
	}
	put(r.Requests, corev1.ResourceCPU, f.reloaderCPURequest.q)
	put(r.Limits, corev1.ResourceCPU, f.reloaderCPULimit.q)
	put(r.Requests, corev1.ResourceMemory, memReq)
	put(r.Limits, corev1.ResourceMemory, memLim)
	if len(r.Requests) == 0 {
		r.Requests = nil
	}
	if len(r.Limits) == 0 {
		r.Limits = nil
	}
	return r
}
