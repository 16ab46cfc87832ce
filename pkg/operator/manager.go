package operator

import (
	"context"
	"fmt"
	"net/http"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/lookout-operator/lookout/pkg/crds"
)

// New builds a manager with every Lookout controller registered. It installs the CRDs
// first when Options.InstallCRDs is set.
func New(ctx context.Context, cfg *rest.Config, opts Options) (manager.Manager, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	log := ctrl.Log.WithName("setup")
	scheme := NewScheme()

	if opts.InstallCRDs {
		c, err := client.New(cfg, client.Options{Scheme: scheme})
		if err != nil {
			return nil, fmt.Errorf("creating client for CRD install: %w", err)
		}
		if err := crds.Install(ctx, c); err != nil {
			return nil, err
		}
		log.Info("CRDs installed or upgraded")
	}

	cacheOpts := cache.Options{}
	if len(opts.Namespaces) > 0 {
		cacheOpts.DefaultNamespaces = map[string]cache.Config{}
		for _, ns := range opts.Namespaces {
			cacheOpts.DefaultNamespaces[ns] = cache.Config{}
		}
	}

	mopts := manager.Options{
		Scheme:                        scheme,
		Cache:                         cacheOpts,
		Metrics:                       metricsserver.Options{BindAddress: opts.MetricsAddr},
		HealthProbeBindAddress:        opts.ProbeAddr,
		LeaderElection:                opts.LeaderElection,
		LeaderElectionID:              opts.LeaderElectionID,
		LeaderElectionNamespace:       leaderElectionNamespace(opts, cfg),
		LeaderElectionReleaseOnCancel: true,
		GracefulShutdownTimeout:       &opts.GracefulShutdown,
		Client: client.Options{Cache: &client.CacheOptions{
			// Secrets and ConfigMaps are read straight from the API server, only when
			// referenced: the operator never holds every Secret of the cluster in memory.
			// Their changes are watched through metadata-only informers.
			DisableFor: []client.Object{&corev1.Secret{}, &corev1.ConfigMap{}},
		}},
	}
	mgr, err := ctrl.NewManager(cfg, mopts)
	if err != nil {
		return nil, fmt.Errorf("creating manager: %w", err)
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return nil, err
	}
	if err := mgr.AddReadyzCheck("readyz", func(req *http.Request) error {
		if !mgr.GetCache().WaitForCacheSync(req.Context()) {
			return fmt.Errorf("informer caches are not synced")
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return mgr, nil
}

// leaderElectionNamespace picks the lease namespace: the flag, then $POD_NAMESPACE, then
// the in-cluster service account's namespace, then "default" for out-of-cluster runs.
func leaderElectionNamespace(opts Options, _ *rest.Config) string {
	if opts.LeaderElectionNamespace != "" {
		return opts.LeaderElectionNamespace
	}
	if ns := os.Getenv("POD_NAMESPACE"); ns != "" {
		return ns
	}
	if data, err := os.ReadFile("/var/run/secrets/kubernetes.io/serviceaccount/namespace"); err == nil && len(data) > 0 {
		return string(data)
	}
	return "default"
}
