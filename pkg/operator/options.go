package operator

import (
	"crypto/tls"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amctrl"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Options is everything the operator can be told at start. cmd/operator fills it from the
// command line (ParseArgs), which accepts every flag of prometheus-operator's operator
// binary; the comment on each field names its flags.
type Options struct {
	// MetricsAddr is the listen address of /metrics ("0" disables it): --metrics-bind-address,
	// or prometheus-operator's --web.listen-address. The listener also answers /healthz and
	// the admission webhook paths prometheus-operator serves there.
	MetricsAddr string
	// Web is the TLS of the MetricsAddr listener (--web.*).
	Web WebOptions
	// ProbeAddr is the listen address of /healthz and /readyz ("0" disables it).
	ProbeAddr string
	// PprofAddr serves net/http/pprof when set (for profiling; off by default).
	PprofAddr string

	// Client says how to reach the API server (--kubeconfig, --apiserver, --cert-file,
	// --key-file, --ca-file, --tls-insecure, --as, --kube-api-qps, --kube-api-burst).
	Client ClientOptions
	// Log is --log-level and --log-format.
	Log LogOptions

	// LeaderElection turns leader election on (the default); the lease lives in
	// LeaderElectionNamespace under LeaderElectionID.
	LeaderElection          bool
	LeaderElectionNamespace string
	LeaderElectionID        string
	// LeaseDuration, RenewDeadline and RetryPeriod tune leader election
	// (--leader-election-lease-duration, ...): a standby takes over a Lease unrenewed
	// for LeaseDuration, the leader gives up after failing to renew for RenewDeadline,
	// and both try every RetryPeriod. See ADR 15 for the defaults.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// LeaderElectionOptional is set when --leader-elect was not given: if the service
	// account may not use Leases (prometheus-operator's RBAC has no rule for them, and
	// prometheus-operator runs without leader election), the operator says so and runs
	// without it instead of waiting for a lease forever.
	LeaderElectionOptional bool

	// Namespaces limits the namespaces whose ServiceMonitors, PodMonitors, Probes,
	// ScrapeConfigs and PrometheusRules are watched, and, without
	// PrometheusInstanceNamespaces, the Prometheus objects too (empty: all): --namespaces.
	Namespaces []string
	// DenyNamespaces are left out when Namespaces is empty (--deny-namespaces; the two are
	// mutually exclusive).
	DenyNamespaces []string
	// PrometheusInstanceNamespaces, when set, are the namespaces whose Prometheus objects
	// are reconciled, whatever Namespaces and DenyNamespaces say
	// (--prometheus-instance-namespaces).
	PrometheusInstanceNamespaces []string
	// AlertmanagerInstanceNamespaces, when set, are the namespaces whose Alertmanager
	// objects are reconciled (--alertmanager-instance-namespaces), and
	// AlertmanagerConfigNamespaces those whose AlertmanagerConfigs may be selected
	// (--alertmanager-config-namespaces); empty means Namespaces/DenyNamespaces.
	AlertmanagerInstanceNamespaces []string
	AlertmanagerConfigNamespaces   []string
	// ThanosRulerInstanceNamespaces, when set, are the namespaces whose ThanosRuler
	// objects are reconciled (--thanos-ruler-instance-namespaces); empty means
	// Namespaces/DenyNamespaces. Their PrometheusRules come from MonitorScope.
	ThanosRulerInstanceNamespaces []string
	// WatchReferencedObjectsInAllNamespaces is --watch-referenced-objects-in-all-namespaces.
	// Lookout always watches the metadata of Secrets and ConfigMaps in the namespaces of
	// both the Prometheus objects and their monitors, because it reads referenced ones
	// through that cache; the field is kept for reporting.
	WatchReferencedObjectsInAllNamespaces bool

	// PrometheusInstanceSelector limits the Prometheus objects this operator manages
	// (--prometheus-instance-selector; never nil).
	PrometheusInstanceSelector labels.Selector
	// AlertmanagerInstanceSelector limits the Alertmanager objects this operator manages
	// (--alertmanager-instance-selector; never nil).
	AlertmanagerInstanceSelector labels.Selector
	// ThanosRulerInstanceSelector limits the ThanosRuler objects this operator manages
	// (--thanos-ruler-instance-selector; never nil).
	ThanosRulerInstanceSelector labels.Selector
	// SecretFieldSelector, SecretLabelSelector, ConfigMapFieldSelector and
	// ConfigMapLabelSelector limit the Secrets and ConfigMaps prometheus-operator watches
	// (--secret-field-selector, ...; never nil). They narrow Lookout's metadata cache;
	// objects outside it are read from the API server (see fallbackClient).
	SecretFieldSelector    fields.Selector
	SecretLabelSelector    labels.Selector
	ConfigMapFieldSelector fields.Selector
	ConfigMapLabelSelector labels.Selector

	// ControllerID is --controller-id: when set, only Prometheus (and Alertmanager,
	// PrometheusAgent, ThanosRuler) objects annotated operator.prometheus.io/controller-id
	// with this value are reconciled; when empty, only objects without that annotation (or
	// with an empty value).
	ControllerID string
	// Labels and Annotations are added to every object the operator creates (--labels,
	// --annotations: "key=value,key=value").
	Labels      map[string]string
	Annotations map[string]string
	// ClusterDomain is --cluster-domain: the DNS domain used to build service FQDNs
	// (empty: rely on the DNS search path); copied to Workload.ClusterDomain for the
	// Alertmanager peers.
	ClusterDomain string
	// LocalHost is --localhost, the host name prometheus-operator's sidecars use to reach
	// Prometheus in the pod. Lookout's reloader always uses 127.0.0.1 (localhost over TLS).
	LocalHost string
	// RepairPolicy is --repair-policy-for-statefulsets: what to do with a StatefulSet
	// whose rollout is stuck.
	RepairPolicy RepairPolicy
	// DefaultVersions is --default-versions: versions.SetUpstream (prometheus-operator
	// v0.93's Prometheus, Alertmanager and Thanos versions for objects that give none) or
	// versions.SetLookout (Lookout's newer ones).
	DefaultVersions string
	// DisableUnmanagedPrometheusConfiguration is
	// --disable-unmanaged-prometheus-configuration. prometheus-operator leaves the config
	// Secret alone when every monitor selector of a Prometheus is nil, unless this is set;
	// Lookout always generates it (as if it were set).
	DisableUnmanagedPrometheusConfiguration bool
	// FeatureGates holds every prometheus-operator feature gate with its value, defaults
	// included (--feature-gates).
	FeatureGates FeatureGates
	// ThanosBaseImage is the image (without tag) used when a ThanosRuler (or Prometheus's
	// Thanos sidecar) sets none (--thanos-default-base-image); the Alertmanager one is
	// Workload.AlertmanagerBaseImage.
	ThanosBaseImage string
	// ConfigReloaderProbes is --enable-config-reloader-probes: liveness, readiness and
	// startup probes on the config-reloader container.
	ConfigReloaderProbes bool
	// Kubelet is the kubelet Endpoints/EndpointSlice controller (--kubelet-*).
	Kubelet KubeletOptions
	// GoMemLimitRatio sets GOMEMLIMIT to this share of the container's memory limit at
	// start (--auto-gomemlimit-ratio; 0 disables it).
	GoMemLimitRatio float64

	// InstallCRDs makes the operator create or upgrade its CRDs at start.
	InstallCRDs bool

	// MaxConcurrentReconciles is the number of objects reconciled in parallel per controller.
	MaxConcurrentReconciles int

	// StatusQPS is the client-side budget of the status writes (--status-api-qps);
	// negative: none, the API server's priority and fairness paces them (ADR 14).
	StatusQPS float32
	// StatusWorkers is the number of status bindings written in parallel per kind
	// (--status-workers).
	StatusWorkers int
	// MaxNamespaceConfigBytes bounds the scrape configuration the monitors of one
	// namespace add to one Prometheus (--max-namespace-config-bytes; 0: no bound).
	MaxNamespaceConfigBytes int

	// Workload holds the images and defaults used for the generated pods
	// (--prometheus-default-base-image, --prometheus-config-reloader, the
	// --config-reloader-* resources, ...).
	Workload workload.Options

	// AlertmanagerConfigGenerator generates the Alertmanager configurations (nil:
	// alertmanager.NewGenerated, pkg/alertmanager/amcfg).
	AlertmanagerConfigGenerator amctrl.ConfigGenerator

	// GracefulShutdown bounds how long runnables get to stop.
	GracefulShutdown time.Duration

	// WebhookPort serves the PrometheusRule admission webhooks over TLS (0 disables them).
	WebhookPort int
	// WebhookCertDir holds tls.crt and tls.key.
	WebhookCertDir string
	// WebhookSelfSigned generates a self-signed certificate into WebhookCertDir when none
	// is there, for WebhookDNSNames (local runs).
	WebhookSelfSigned bool
	WebhookDNSNames   []string

	// SkipControllerNameValidation allows a second operator in one process (tests).
	SkipControllerNameValidation bool

	// AfterStartupGeneration, when set, is called once every Prometheus found at start has
	// been reconciled once (or two minutes after the caches synced, whichever is first),
	// on the leader: cmd/operator then sets the garbage collector for the steady state.
	AfterStartupGeneration func()
	// Registry receives the operator's metrics (nil: controller-runtime's registry, which
	// the metrics endpoint serves). Two operators in one process need two registries.
	Registry prometheus.Registerer

	// ResourceStatus writes status.bindings on the monitors and rules each Prometheus
	// considered (--resource-status, or the StatusForConfigurationResources feature gate
	// when given explicitly).
	ResourceStatus bool
	// TargetHealthInterval is how often the health of the monitors' targets is read from
	// one pod per shard of every Prometheus (--target-health-interval); 0: never, and the
	// bindings carry no TargetsHealthy condition (ADR 0018).
	TargetHealthInterval time.Duration
	// MonitorCost adds to each target health poll one query per shard for the samples
	// and series each monitor's scrapes cost (SampleCost binding condition, TopMonitors
	// Prometheus condition; --monitor-cost, ADR 0034).
	MonitorCost bool

	// watchServices is set at start when the operator may list and watch Services.
	watchServices bool
	// skipAlertmanagers is set at start when the operator may not list and watch
	// Alertmanagers and AlertmanagerConfigs.
	skipAlertmanagers bool
	// skipAgents is set at start when the operator may not list and watch
	// prometheusagents (an RBAC written before PrometheusAgent existed).
	skipAgents bool
	// agentDaemonSets is set at start when the PrometheusAgentDaemonSet gate is on and the
	// operator may list and watch DaemonSets.
	agentDaemonSets bool
	// podZoneLabels is set at start when the API server labels bound pods with their
	// node's zone (Kubernetes 1.35 and later): topology sharding reads the pod label.
	podZoneLabels bool
	// skipThanosRulers is set at start when the operator may not list and watch
	// thanosrulers (an RBAC without them).
	skipThanosRulers bool
	// readStorageClasses is set at start when the operator may get StorageClasses.
	readStorageClasses bool
}

// WebOptions are prometheus-operator's --web.* flags: TLS of the metrics listener.
type WebOptions struct {
	// TLS serves the listener over HTTPS with CertFile and KeyFile (--web.enable-tls).
	TLS bool
	// CertFile, KeyFile: the serving certificate, re-read when it changes
	// (--web.cert-file, --web.key-file).
	CertFile string
	KeyFile  string
	// ClientCAFile, when the file exists, makes the listener require client certificates
	// signed by it (--web.client-ca-file).
	ClientCAFile string
	// MinVersion is the lowest TLS version accepted: tls.VersionTLS12 or
	// tls.VersionTLS13 (--web.tls-min-version).
	MinVersion uint16
	// CipherSuites for TLS 1.2 (empty: Go's defaults; --web.tls-cipher-suites).
	CipherSuites []uint16
	// Curves offered for key exchange (empty: Go's defaults; --web.tls-curves).
	Curves []tls.CurveID
	// ReloadInterval is how often the certificate files are checked for changes
	// (--web.tls-reload-interval).
	ReloadInterval time.Duration
	// HTTP2 allows HTTP/2 on the TLS listener (--web.enable-http2; off by default, as a
	// mitigation of CVE-2023-44487).
	HTTP2 bool
	// Pprof serves net/http/pprof under /debug/pprof/ on the listener, as
	// prometheus-operator always does (--web.enable-pprof, Lookout's, on by default).
	Pprof bool
}

// ClientOptions say how the operator reaches the API server.
type ClientOptions struct {
	// Kubeconfig is an explicit kubeconfig path (--kubeconfig).
	Kubeconfig string
	// APIServer is the API server URL used when neither Kubeconfig nor $KUBECONFIG is
	// set (--apiserver); without it the in-cluster configuration is used.
	APIServer string
	// CertFile, KeyFile and CAFile are client TLS files for an https APIServer
	// (--cert-file, --key-file, --ca-file); Insecure skips verifying the server
	// (--tls-insecure).
	CertFile string
	KeyFile  string
	CAFile   string
	Insecure bool
	// Impersonate is the user to act as (--as).
	Impersonate string
	// QPS and Burst are the client rate limits (--kube-api-qps, --kube-api-burst).
	QPS   float32
	Burst int
}

// LogOptions are --log-level (all, debug, info, warn, error, none) and --log-format
// (logfmt, json).
type LogOptions struct {
	Level  string
	Format string
}

// KubeletOptions are prometheus-operator's --kubelet-* flags: a controller that keeps an
// Endpoints and/or EndpointSlice object listing every node's kubelet, so that a
// ServiceMonitor can scrape the kubelets through a Service.
type KubeletOptions struct {
	// Service is the Service (and Endpoints/EndpointSlices) to maintain; an empty Name
	// turns the controller off (--kubelet-service "namespace/name").
	Service types.NamespacedName
	// Selector limits the nodes listed (--kubelet-selector; never nil).
	Selector labels.Selector
	// NodeAddressPriority is "internal" or "external": which node address comes first
	// (--kubelet-node-address-priority).
	NodeAddressPriority string
	// Endpoints and EndpointSlice say which objects to write (--kubelet-endpoints,
	// --kubelet-endpointslice).
	Endpoints     bool
	EndpointSlice bool
	// SyncPeriod is how often the objects are rewritten from the node list
	// (--kubelet-sync-period).
	SyncPeriod time.Duration
	// HTTPMetrics includes the kubelet's read-only HTTP port 10255
	// (--kubelet-http-metrics).
	HTTPMetrics bool
}

// RepairPolicy says what to do with a StatefulSet whose rollout is stuck.
type RepairPolicy string

// The repair policies of --repair-policy-for-statefulsets.
const (
	RepairNone   RepairPolicy = "none"
	RepairEvict  RepairPolicy = "evict"
	RepairDelete RepairPolicy = "delete"
)

// FeatureGates maps a prometheus-operator feature gate name to whether it is on.
type FeatureGates map[string]bool

// The feature gates prometheus-operator v0.93 knows.
const (
	GatePrometheusAgentDaemonSet            = "PrometheusAgentDaemonSet"
	GatePrometheusTopologySharding          = "PrometheusTopologySharding"
	GatePrometheusShardRetentionPolicy      = "PrometheusShardRetentionPolicy"
	GateStatusForConfigurationResources     = "StatusForConfigurationResources"
	GateRemoteWriteCustomResourceDefinition = "RemoteWriteCustomResourceDefinition"
)

// DefaultFeatureGates returns prometheus-operator's gates with their default values.
func DefaultFeatureGates() FeatureGates {
	return FeatureGates{
		GatePrometheusAgentDaemonSet:            false,
		GatePrometheusTopologySharding:          true,
		GatePrometheusShardRetentionPolicy:      true,
		GateStatusForConfigurationResources:     false,
		GateRemoteWriteCustomResourceDefinition: false,
	}
}

// Enabled reports whether a gate is on.
func (g FeatureGates) Enabled(name string) bool { return g[name] }

// String lists the gates as "name=bool,..." sorted by name.
func (g FeatureGates) String() string {
	names := make([]string, 0, len(g))
	for n := range g {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = fmt.Sprintf("%s=%t", n, g[n])
	}
	return strings.Join(names, ",")
}

// WorkloadOptions are the operator-level defaults for the pods it generates.
type WorkloadOptions = workload.Options

// WorkloadOptions are o's pod options with the operator's --labels, which go into every
// StatefulSet selector as prometheus-operator puts them there.
func (o Options) WorkloadOptions() workload.Options {
	w := o.Workload
	w.OperatorLabels = o.Labels
	return w
}

// Leader election defaults, shorter than client-go's 15 s/10 s/2 s so that a standby
// replica has taken over and reconciled within 15 s of the leader's death (ADR 15).
const (
	DefaultLeaseDuration = 8 * time.Second
	DefaultRenewDeadline = 6 * time.Second
	DefaultRetryPeriod   = 1 * time.Second
)

// DefaultOptions returns the defaults the flags also use.
func DefaultOptions() Options {
	return Options{
		MetricsAddr: ":8080",
		Web: WebOptions{
			CertFile:       "/etc/tls/private/tls.crt",
			KeyFile:        "/etc/tls/private/tls.key",
			ClientCAFile:   "/etc/tls/private/tls-ca.crt",
			MinVersion:     tls.VersionTLS13,
			ReloadInterval: time.Minute,
			Pprof:          true,
		},
		ProbeAddr:                    ":8081",
		Client:                       ClientOptions{QPS: 100, Burst: 200},
		Log:                          LogOptions{Level: "info", Format: "logfmt"},
		LeaderElection:               true,
		LeaderElectionID:             "lookout-operator",
		LeaseDuration:                DefaultLeaseDuration,
		RenewDeadline:                DefaultRenewDeadline,
		RetryPeriod:                  DefaultRetryPeriod,
		PrometheusInstanceSelector:   labels.Everything(),
		AlertmanagerInstanceSelector: labels.Everything(),
		ThanosRulerInstanceSelector:  labels.Everything(),
		SecretFieldSelector:          fields.Everything(),
		SecretLabelSelector:          labels.Everything(),
		ConfigMapFieldSelector:       fields.Everything(),
		ConfigMapLabelSelector:       labels.Everything(),
		LocalHost:                    "localhost",
		RepairPolicy:                 RepairNone,
		DefaultVersions:              versions.SetUpstream,
		FeatureGates:                 DefaultFeatureGates(),
		ThanosBaseImage:              "quay.io/thanos/thanos",
		Kubelet: KubeletOptions{
			Selector:            labels.Everything(),
			NodeAddressPriority: "internal",
			Endpoints:           true,
			SyncPeriod:          3 * time.Minute,
			HTTPMetrics:         true,
		},
		MaxConcurrentReconciles: 2,
		StatusQPS:               -1,
		StatusWorkers:           2,
		MaxNamespaceConfigBytes: promcfg.DefaultMaxNamespaceBytes,
		GracefulShutdown:        30 * time.Second,
		Workload:                workload.DefaultOptions(),
		WebhookPort:             0,
		WebhookCertDir:          "/tmp/lookout-webhook-certs",
		WebhookDNSNames:         []string{"lookout-operator.lookout.svc", "localhost", "127.0.0.1"},
		ResourceStatus:          true,
		TargetHealthInterval:    time.Minute,
		MonitorCost:             true,
	}
}

// ParseNamespaces splits a comma-separated namespace list, dropping empty entries.
func ParseNamespaces(s string) []string {
	var out []string
	for _, ns := range strings.Split(s, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			out = append(out, ns)
		}
	}
	return out
}

// Validate reports options that cannot work together.
func (o Options) Validate() error {
	if o.StatusWorkers < 1 {
		return fmt.Errorf("status workers must be at least 1, got %d", o.StatusWorkers)
	}
	if o.TargetHealthInterval < 0 {
		return fmt.Errorf("--target-health-interval must not be negative (0 turns target health off), got %s", o.TargetHealthInterval)
	}
	if o.MaxConcurrentReconciles < 1 {
		return fmt.Errorf("max concurrent reconciles must be at least 1, got %d", o.MaxConcurrentReconciles)
	}
	if o.LeaderElection && o.LeaderElectionID == "" {
		return fmt.Errorf("leader election needs a lease name")
	}
	if o.LeaderElection && !(o.RetryPeriod > 0 && o.RetryPeriod < o.RenewDeadline && o.RenewDeadline < o.LeaseDuration) {
		return fmt.Errorf("leader election needs 0 < --leader-election-retry-period (%s) < --leader-election-renew-deadline (%s) < --leader-election-lease-duration (%s)", o.RetryPeriod, o.RenewDeadline, o.LeaseDuration)
	}
	if len(o.Namespaces) > 0 && len(o.DenyNamespaces) > 0 {
		return fmt.Errorf("--namespaces and --deny-namespaces are mutually exclusive, give only one")
	}
	switch o.RepairPolicy {
	case RepairNone, RepairEvict, RepairDelete, "":
	default:
		return fmt.Errorf("unknown StatefulSet repair policy %q (none, evict, delete)", o.RepairPolicy)
	}
	switch o.Kubelet.NodeAddressPriority {
	case "internal", "external", "":
	default:
		return fmt.Errorf("kubelet node address priority must be internal or external, got %q", o.Kubelet.NodeAddressPriority)
	}
	known := DefaultFeatureGates()
	for g := range o.FeatureGates {
		if _, ok := known[g]; !ok {
			return fmt.Errorf("feature gate %q is unknown (known: %s)", g, known)
		}
	}
	return nil
}

// MonitorScope is the set of namespaces whose monitors and rules are watched:
// Namespaces, or every namespace but DenyNamespaces.
func (o Options) MonitorScope() selection.Scope {
	return selection.NewScopeExcept(o.Namespaces, o.DenyNamespaces)
}

// PrometheusScope is the set of namespaces whose Prometheus objects are reconciled:
// PrometheusInstanceNamespaces when set, otherwise MonitorScope.
func (o Options) PrometheusScope() selection.Scope { return o.scopeOr(o.PrometheusInstanceNamespaces) }

// AlertmanagerScope is the set of namespaces whose Alertmanager objects are reconciled:
// AlertmanagerInstanceNamespaces when set, otherwise MonitorScope.
func (o Options) AlertmanagerScope() selection.Scope {
	return o.scopeOr(o.AlertmanagerInstanceNamespaces)
}

// AlertmanagerConfigScope is the set of namespaces whose AlertmanagerConfigs may be
// selected: AlertmanagerConfigNamespaces when set, otherwise MonitorScope.
func (o Options) AlertmanagerConfigScope() selection.Scope {
	return o.scopeOr(o.AlertmanagerConfigNamespaces)
}

// ThanosRulerScope is the set of namespaces whose ThanosRuler objects are reconciled:
// ThanosRulerInstanceNamespaces when set, otherwise MonitorScope.
func (o Options) ThanosRulerScope() selection.Scope {
	return o.scopeOr(o.ThanosRulerInstanceNamespaces)
}

// scopeOr is the set of namespaces when it is not empty, otherwise MonitorScope.
func (o Options) scopeOr(namespaces []string) selection.Scope {
	if len(namespaces) > 0 {
		return selection.NewScope(namespaces)
	}
	return o.MonitorScope()
}

// WatchScope is every namespace the operator reads anything in: all scopes together.
func (o Options) WatchScope() selection.Scope {
	return o.PrometheusScope().Union(o.MonitorScope()).Union(o.AlertmanagerScope()).Union(o.AlertmanagerConfigScope()).Union(o.ThanosRulerScope())
}
