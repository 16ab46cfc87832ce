package operator

import (
	"fmt"
	"github.com/prometheus/client_golang/prometheus"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// Options is everything the operator can be told at start.
type Options struct {
	// MetricsAddr is the listen address of /metrics ("0" disables it).
	MetricsAddr string
	// ProbeAddr is the listen address of /healthz and /readyz ("0" disables it).
	ProbeAddr string
	// PprofAddr serves net/http/pprof when set (for profiling; off by default).
	PprofAddr string

	// LeaderElection turns leader election on (the default); the lease lives in
	// LeaderElectionNamespace under LeaderElectionID.
	LeaderElection          bool
	LeaderElectionNamespace string
	LeaderElectionID        string

	// Namespaces limits the namespaces whose objects are watched (empty: all).
	Namespaces []string
	// PrometheusInstanceSelector limits the Prometheus objects this operator manages.
	PrometheusInstanceSelector labels.Selector

	// InstallCRDs makes the operator create or upgrade its CRDs at start.
	InstallCRDs bool

	// MaxConcurrentReconciles is the number of objects reconciled in parallel per controller.
	MaxConcurrentReconciles int

	// Workload holds the images and defaults used for the generated pods.
	Workload workload.Options

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

	// Registry receives the operator's metrics (nil: controller-runtime's registry, which
	// the metrics endpoint serves). Two operators in one process need two registries.
	Registry prometheus.Registerer

	// ResourceStatus writes status.bindings on the monitors and rules each Prometheus
	// considered.
	ResourceStatus bool
}

// WorkloadOptions are the operator-level defaults for the pods it generates.
type WorkloadOptions = workload.Options

// DefaultOptions returns the defaults the flags also use.
func DefaultOptions() Options {
	return Options{
		MetricsAddr:                ":8080",
		ProbeAddr:                  ":8081",
		LeaderElection:             true,
		LeaderElectionID:           "lookout-operator",
		MaxConcurrentReconciles:    2,
		GracefulShutdown:           30 * time.Second,
		PrometheusInstanceSelector: labels.Everything(),
		Workload:                   workload.DefaultOptions(),
		WebhookPort:                0,
		WebhookCertDir:             "/tmp/lookout-webhook-certs",
		WebhookDNSNames:            []string{"lookout-operator.lookout.svc", "localhost", "127.0.0.1"},
		ResourceStatus:             true,
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
	if o.MaxConcurrentReconciles < 1 {
		return fmt.Errorf("max concurrent reconciles must be at least 1, got %d", o.MaxConcurrentReconciles)
	}
	if o.LeaderElection && o.LeaderElectionID == "" {
		return fmt.Errorf("leader election needs a lease name")
	}
	return nil
}
