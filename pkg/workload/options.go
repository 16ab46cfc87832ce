package workload

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/lookout-operator/lookout/pkg/buildinfo"
)

// DefaultReloaderWatchInterval is how often the config-reloader re-reads its inputs even
// without a change notification.
const DefaultReloaderWatchInterval = 3 * time.Minute

// Options are the operator-level settings the builders need. The controller fills them
// from the operator's flags (operator.WorkloadOptions).
type Options struct {
	// PrometheusBaseImage is the Prometheus image without tag, used when neither
	// spec.image nor spec.baseImage is set ("quay.io/prometheus/prometheus").
	PrometheusBaseImage string
	// AlertmanagerBaseImage is the Alertmanager image without tag, used when neither
	// spec.image nor spec.baseImage is set (--alertmanager-default-base-image).
	AlertmanagerBaseImage string
	// ThanosBaseImage is the Thanos image without tag of the Prometheus thanos-sidecar,
	// used when neither spec.thanos.image nor spec.thanos.baseImage is set
	// (--thanos-default-base-image).
	ThanosBaseImage string
	// ClusterDomain, when set, makes Alertmanager peers fully qualified
	// (<pod>.<service>.<namespace>.svc.<ClusterDomain>.); --cluster-domain.
	ClusterDomain string
	// ConfigReloaderImage is the full image of the config-reloader sidecar and init
	// container; the default is the reloader of the operator's own release
	// (buildinfo.ReloaderImage), its "latest" tag for a dev build.
	ConfigReloaderImage string
	// ConfigReloaderResources are the resources of the config-reloader containers.
	ConfigReloaderResources corev1.ResourceRequirements
	// ReloaderWatchAPI makes the config-reloader read the config Secret and the rule
	// ConfigMaps through the API instead of kubelet-projected volumes.
	ReloaderWatchAPI bool
	// ReloaderReportConfig makes the Prometheus config-reloader sidecar write the hash of
	// each configuration it loaded as a condition of its own pod (--report-pod), which
	// the operator turns into the ConfigLoaded condition (--reloader-report-config).
	ReloaderReportConfig bool
	// OperatorLabels are the operator's --labels. prometheus-operator puts them into the
	// StatefulSet selector and the pod labels of every Prometheus, PrometheusAgent and
	// Alertmanager (winning over the operator's own on a clash) and of every ThanosRuler
	// (with spec.podMetadata's labels, the operator's own winning), so Lookout does too:
	// either operator then takes over the other's StatefulSets in place.
	OperatorLabels map[string]string
	// ReloaderWatchInterval is passed as --watch-interval to the sidecar; zero means
	// DefaultReloaderWatchInterval.
	ReloaderWatchInterval time.Duration
	// ReloaderProbes adds startup, readiness and liveness probes on /healthz to the
	// config-reloader sidecar (--enable-config-reloader-probes).
	ReloaderProbes bool
	// LocalHost, when set, is the host the config-reloader uses to reach Prometheus in
	// the pod, and listens on with spec.listenLocal (--localhost); empty: 127.0.0.1, or
	// localhost when Prometheus serves TLS.
	LocalHost string
}

// DefaultOptions returns the options the operator uses when no flag overrides them.
func DefaultOptions() Options {
	return Options{
		PrometheusBaseImage:   "quay.io/prometheus/prometheus",
		AlertmanagerBaseImage: "quay.io/prometheus/alertmanager",
		ThanosBaseImage:       "quay.io/thanos/thanos",
		ConfigReloaderImage:   buildinfo.ReloaderImage(),
		ConfigReloaderResources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("10m"),
				corev1.ResourceMemory: resource.MustParse("50Mi"),
			},
			Limits: corev1.ResourceList{
				corev1.ResourceMemory: resource.MustParse("50Mi"),
			},
		},
		ReloaderWatchInterval: DefaultReloaderWatchInterval,
	}
}

func (o Options) watchInterval() time.Duration {
	if o.ReloaderWatchInterval <= 0 {
		return DefaultReloaderWatchInterval
	}
	return o.ReloaderWatchInterval
}

// ManagesReloaderRoles reports whether the operator makes config-reloader Roles (API-watch
// mode, reports of the loaded configuration), and so also removes the one an instance no
// longer needs.
func (o Options) ManagesReloaderRoles() bool { return o.ReloaderWatchAPI || o.ReloaderReportConfig }
