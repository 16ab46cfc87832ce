package operator

import (
	"context"
	"fmt"
	"net/http"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amctrl"
	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/crds"
	"github.com/lookout-operator/lookout/pkg/listdecode"
	"github.com/lookout-operator/lookout/pkg/opmetrics"
	"github.com/lookout-operator/lookout/pkg/priority"
	"github.com/lookout-operator/lookout/pkg/prometheus/promctrl"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trctrl"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/webhook"
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

	// Permission checks (SelfSubjectAccessReviews) decide which optional parts run.
	checker, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("creating client for the permission checks: %w", err)
	}
	leNamespace := leaderElectionNamespace(opts, cfg)
	if opts.LeaderElection && opts.LeaderElectionOptional {
		ok, err := mayUseLeases(ctx, checker, leNamespace)
		if err != nil {
			return nil, err
		}
		if !ok {
			log.Info("running without leader election: the service account may not get, create and update Leases (prometheus-operator's RBAC has no rule for them); run one replica, or grant them and pass --leader-elect=true", "namespace", leNamespace)
			opts.LeaderElection = false
		}
	}
	// A deleted governing Service is restored as soon as it goes when the operator may
	// watch Services (Lookout's RBAC); with prometheus-operator's RBAC it comes back with
	// the next reconcile of a Prometheus in its namespace.
	if opts.watchServices, err = mayWatch(ctx, checker, opts, "", "services"); err != nil {
		log.Error(err, "checking the Service watch permission; not watching Services")
	}
	if !opts.watchServices {
		log.Info("not watching Services: the service account may not list and watch them (prometheus-operator's RBAC has no rule for it); a deleted prometheus-operated or alertmanager-operated Service comes back with the next reconcile of an object in its namespace")
	}
	// As prometheus-operator: a storage spec naming a missing StorageClass is refused when
	// the operator may read StorageClasses, and not checked otherwise.
	if opts.readStorageClasses, err = allowed(ctx, checker, "storage.k8s.io", "storageclasses", []string{"get"}, []string{""}); err != nil {
		log.Error(err, "checking the StorageClass permission; not checking storage classes")
	}
	am, err := mayWatch(ctx, checker, opts, monitoringv1.SchemeGroupVersion.Group, monitoringv1.AlertmanagerName, monitoringv1alpha1.AlertmanagerConfigName)
	if err != nil {
		log.Error(err, "checking the Alertmanager permissions; not reconciling Alertmanagers")
	}
	opts.skipAlertmanagers = !am
	agents, err := mayWatch(ctx, checker, opts, monitoringv1alpha1.SchemeGroupVersion.Group, monitoringv1alpha1.PrometheusAgentName)
	if err != nil {
		log.Error(err, "checking the PrometheusAgent permissions; not reconciling PrometheusAgents")
	}
	opts.skipAgents = !agents
	if opts.FeatureGates.Enabled(GatePrometheusAgentDaemonSet) {
		// prometheus-operator's RBAC grants no DaemonSets: the mode then stays off rather
		// than the manager waiting forever for an informer it may not start.
		ds, err := mayWatch(ctx, checker, opts, "apps", "daemonsets")
		if err != nil {
			log.Error(err, "checking the DaemonSet permission; PrometheusAgent DaemonSet mode off")
		}
		opts.agentDaemonSets = ds
		if !ds {
			log.Info("PrometheusAgentDaemonSet is on but the service account may not list and watch daemonsets (apps): agents with spec.mode DaemonSet are refused until it may")
		}
	}
	if opts.FeatureGates.Enabled(GatePrometheusTopologySharding) {
		ok, kv, err := podZoneLabels(cfg)
		if err != nil {
			log.Error(err, "reading the Kubernetes version; topology sharding reads the zone from node labels")
		}
		opts.podZoneLabels = ok
		log.Info("Kubernetes API capabilities", "version", kv, "pod_topology_labels", ok)
	}
	if !agents {
		log.Info("PrometheusAgent controller disabled: the service account may not list and watch prometheusagents (monitoring.coreos.com)")
	}
	rulers, err := mayWatch(ctx, checker, opts, monitoringv1.SchemeGroupVersion.Group, monitoringv1.ThanosRulerName)
	if err != nil {
		log.Error(err, "checking the ThanosRuler permissions; not reconciling ThanosRulers")
	}
	opts.skipThanosRulers = !rulers
	if !rulers {
		log.Info("ThanosRuler controller disabled: the service account may not list and watch thanosrulers (monitoring.coreos.com)")
	}
	if !am {
		log.Info("Alertmanager controller disabled: the service account may not list and watch alertmanagers and alertmanagerconfigs (monitoring.coreos.com)")
	}

	if opts.Registry == nil {
		opts.Registry = ctrlmetrics.Registry
	}
	// prometheus-operator's list and watch counters see every request of the manager's
	// client, informers included.
	requests, err := opmetrics.NewRequestCounter(opts.Registry)
	if err != nil {
		return nil, err
	}
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(requests.Wrap)
	cfg.Wrap(listdecode.Wrap)
	// Build information, feature gates, client and work queue families (the queues'
	// from controller-runtime's registry, where its controllers report them).
	if err := opmetrics.RegisterOperator(opts.Registry, opts.FeatureGates, ctrlmetrics.Registry); err != nil {
		return nil, err
	}

	web, webRunnables, err := webServer(opts, log)
	if err != nil {
		return nil, err
	}
	mopts := manager.Options{
		Scheme:                        scheme,
		Cache:                         cacheOptions(opts),
		Metrics:                       web,
		HealthProbeBindAddress:        opts.ProbeAddr,
		PprofBindAddress:              opts.PprofAddr,
		LeaderElection:                opts.LeaderElection,
		LeaderElectionID:              opts.LeaderElectionID,
		LeaseDuration:                 &opts.LeaseDuration,
		RenewDeadline:                 &opts.RenewDeadline,
		RetryPeriod:                   &opts.RetryPeriod,
		LeaderElectionNamespace:       leNamespace,
		LeaderElectionReleaseOnCancel: true,
		GracefulShutdownTimeout:       &opts.GracefulShutdown,
		Controller:                    ctrlconfig.Controller{SkipNameValidation: &opts.SkipControllerNameValidation},
		// Secrets and ConfigMaps are only watched through metadata-only informers; their
		// data is read from the API server when referenced (see pkg/assets), so the
		// operator never holds every Secret of the cluster in memory.
		//
		// Services are read from the API server rather than a cache: there are few, and
		// prometheus-operator's RBAC (kube-prometheus, the Helm chart) grants get but not
		// list and watch on them.
		Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Service{}}}},
	}
	if opts.WebhookPort > 0 {
		if opts.WebhookSelfSigned {
			if err := webhook.EnsureSelfSignedCert(opts.WebhookCertDir, opts.WebhookDNSNames); err != nil {
				return nil, fmt.Errorf("creating a self-signed webhook certificate: %w", err)
			}
		}
		mopts.WebhookServer = ctrlwebhook.NewServer(ctrlwebhook.Options{Port: opts.WebhookPort, CertDir: opts.WebhookCertDir})
	}
	mgr, err := ctrl.NewManager(cfg, mopts)
	if err != nil {
		return nil, fmt.Errorf("creating manager: %w", err)
	}
	for _, r := range webRunnables {
		if err := mgr.Add(r); err != nil {
			return nil, err
		}
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return nil, err
	}
	if opts.WebhookPort > 0 {
		if err := webhook.Register(mgr.GetWebhookServer(), webhook.Options{}); err != nil {
			return nil, err
		}
		if err := webhook.RegisterAlertmanagerConfig(mgr.GetWebhookServer(), &webhook.AlertmanagerConfigValidator{}); err != nil {
			return nil, err
		}
		if err := mgr.AddReadyzCheck("webhook", mgr.GetWebhookServer().StartedChecker()); err != nil {
			return nil, err
		}
	}
	if err := mgr.AddReadyzCheck("readyz", func(req *http.Request) error {
		if !mgr.GetCache().WaitForCacheSync(req.Context()) {
			return fmt.Errorf("informer caches are not synced")
		}
		return nil
	}); err != nil {
		return nil, err
	}
	apiCheck, err := apiServerReachable(cfg, 2*time.Second)
	if err != nil {
		return nil, err
	}
	if err := mgr.AddReadyzCheck("apiserver", apiCheck); err != nil {
		return nil, err
	}
	if err := setupControllers(mgr, opts); err != nil {
		return nil, err
	}
	return mgr, nil
}

// setupControllers registers the Prometheus, PrometheusAgent, Alertmanager and
// ThanosRuler controllers and the status controllers, with their dependencies built here: one Applier and one set of metrics for
// the instance.
func setupControllers(mgr manager.Manager, opts Options) error {
	reg := opts.Registry
	upstream, err := controllerMetrics(mgr, reg, "prometheus")
	if err != nil {
		return err
	}
	writeMetrics, err := apply.NewMetrics(reg)
	if err != nil {
		return err
	}
	// With --secret-* or --configmap-* selectors, objects outside the cache are read from
	// the API server.
	cl := newFallbackClient(mgr.GetClient(), mgr.GetAPIReader(), opts)
	recorder := mgr.GetEventRecorder("lookout-operator")
	sh := shared{client: cl, applier: apply.New(cl, writeMetrics, nil), recorder: recorder, gate: &priority.Gate{Linger: priority.DefaultLinger}}
	if opts.ResourceStatus {
		sh.store = resourcestatus.NewStore()
	}
	applier, store := sh.applier, sh.store
	pr, err := setupPrometheusKind(mgr, opts, promctrl.PrometheusKind, upstream, sh)
	if err != nil {
		return err
	}
	if f := opts.AfterStartupGeneration; f != nil {
		if err := pr.AfterFirstPass(mgr, startupGenerationLimit, func(bool) { f() }); err != nil {
			return err
		}
	}
	var agents *promctrl.Reconciler
	if !opts.skipAgents {
		agentUpstream, err := controllerMetrics(mgr, reg, "prometheus-agent")
		if err != nil {
			return err
		}
		if agents, err = setupPrometheusKind(mgr, opts, promctrl.AgentKind, agentUpstream, sh); err != nil {
			return err
		}
	}
	am, err := setupAlertmanager(mgr, opts, sh)
	if err != nil {
		return err
	}
	rulers, err := setupThanosRuler(mgr, opts, sh)
	if err != nil {
		return err
	}
	if err := setupKubelet(mgr, opts, writeMetrics, recorder); err != nil {
		return err
	}
	if store != nil {
		statusClient, err := statusWriter(mgr, opts.StatusQPS)
		if err != nil {
			return err
		}
		owners := func(ctx context.Context, o resourcestatus.Owner) (resourcestatus.OwnerState, error) {
			if am != nil && o.Resource == monitoringv1.AlertmanagerName {
				return am.OwnerState(ctx, o)
			}
			if agents != nil && o.Resource == monitoringv1alpha1.PrometheusAgentName {
				return agents.OwnerState(ctx, o)
			}
			if rulers != nil && o.Resource == monitoringv1.ThanosRulerName {
				return rulers.OwnerState(ctx, o)
			}
			return pr.OwnerState(ctx, o)
		}
		// AlertmanagerConfigs get status only when their controller runs.
		var kinds []resourcestatus.Kind
		for _, k := range resourcestatus.Kinds {
			if k.Name != monitoringv1alpha1.AlertmanagerConfigKind || am != nil {
				kinds = append(kinds, k)
			}
		}
		deps := resourcestatus.Deps{Client: statusClient, Store: store, Owners: owners, Recorder: recorder, Applier: applier, Gate: sh.gate}
		if err := resourcestatus.SetupWithManager(mgr, deps, opts.StatusWorkers, kinds); err != nil {
			return err
		}
		if err := setupTargetHealth(mgr, opts, store, pr, agents, statusClient); err != nil {
			return err
		}
		if err := setupRuleHealth(mgr, opts, store, pr, rulers != nil); err != nil {
			return err
		}
	}
	return nil
}

// setupPrometheusKind registers the controller of one of the kinds Prometheus's pipeline
// serves (Prometheus, PrometheusAgent), with metrics of its own.
// shared are what the controllers writing generated objects get from the manager: the
// client, the write counter, the event recorder, the status store (nil with
// --resource-status=false) and the gate status writes wait on.
type shared struct {
	client   client.Client
	applier  *apply.Applier
	recorder events.EventRecorder
	store    *resourcestatus.Store
	gate     *priority.Gate
}

// startupGenerationLimit bounds the wait for the first reconcile of every Prometheus
// (Options.AfterStartupGeneration).
const startupGenerationLimit = 2 * time.Minute

func setupPrometheusKind(mgr manager.Manager, opts Options, kind *promctrl.Kind, upstream *opmetrics.Controller, sh shared) (*promctrl.Reconciler, error) {
	deps, err := sh.deps(mgr, opts, kind.Kind, upstream)
	if err != nil {
		return nil, err
	}
	r := promctrl.New(promctrl.Deps{Deps: deps, Informers: mgr.GetCache()}, promctrl.Config{
		Config:                        sh.config(opts, opts.WatchScope(), opts.PrometheusInstanceSelector),
		Kind:                          kind,
		DisableUnmanagedConfiguration: opts.DisableUnmanagedPrometheusConfiguration,
		ShardRetention:                opts.FeatureGates.Enabled(GatePrometheusShardRetentionPolicy),
		TopologySharding:              opts.FeatureGates.Enabled(GatePrometheusTopologySharding),
		PodZoneLabels:                 opts.podZoneLabels,
		AgentDaemonSet:                kind == promctrl.AgentKind && opts.agentDaemonSets,
		MaxNamespaceConfigBytes:       opts.MaxNamespaceConfigBytes,
	})
	if err := r.SetupWithManager(mgr); err != nil {
		return nil, fmt.Errorf("setting up the %s controller: %w", kind.Kind, err)
	}
	return r, nil
}

// controllerDeps are the collaborators of the controller of one instance kind with its
// own prometheus-operator metrics, labelled controller=name (see controllerMetrics).
func (sh shared) controllerDeps(mgr manager.Manager, opts Options, kind, name string) (instance.Deps, error) {
	upstream, err := controllerMetrics(mgr, opts.Registry, name)
	if err != nil {
		return instance.Deps{}, err
	}
	return sh.deps(mgr, opts, kind, upstream)
}

// deps are the collaborators of the controller of one instance kind, with its lookout_*
// metrics registered.
func (sh shared) deps(mgr manager.Manager, opts Options, kind string, upstream *opmetrics.Controller) (instance.Deps, error) {
	metrics, err := instance.NewMetrics(opts.Registry, kind)
	if err != nil {
		return instance.Deps{}, err
	}
	return instance.Deps{
		Client:         sh.client,
		APIReader:      mgr.GetAPIReader(),
		StorageClasses: storageClassReader(mgr, opts),
		Applier:        sh.applier,
		Recorder:       sh.recorder,
		Statuses:       sh.store,
		Gate:           sh.gate,
		Metrics:        metrics,
		Upstream:       upstream,
	}, nil
}

// config is the configuration every instance controller shares, with the kind's scope
// and instance selector.
func (sh shared) config(opts Options, scope selection.Scope, instances labels.Selector) instance.Config {
	return instance.Config{
		Workload:                opts.WorkloadOptions(),
		Scope:                   scope,
		InstanceSelector:        instances,
		ControllerID:            opts.ControllerID,
		Labels:                  opts.Labels,
		Annotations:             opts.Annotations,
		RepairPolicy:            string(opts.RepairPolicy),
		MaxConcurrentReconciles: opts.MaxConcurrentReconciles,
		WatchGoverningServices:  opts.watchServices,
		DefaultVersions:         versions.For(opts.DefaultVersions),
	}
}

// setupAlertmanager registers the Alertmanager controller unless its permissions are
// missing (then it returns nil).
func setupAlertmanager(mgr manager.Manager, opts Options, sh shared) (*amctrl.Reconciler, error) {
	if opts.skipAlertmanagers {
		return nil, nil
	}
	deps, err := sh.controllerDeps(mgr, opts, monitoringv1.AlertmanagersKind, "alertmanager")
	if err != nil {
		return nil, err
	}
	am := amctrl.New(amctrl.Deps{Deps: deps, Generator: opts.AlertmanagerConfigGenerator}, amctrl.Config{
		Config:      sh.config(opts, opts.AlertmanagerScope(), opts.AlertmanagerInstanceSelector),
		ConfigScope: opts.AlertmanagerConfigScope(),
	})
	if err := am.SetupWithManager(mgr); err != nil {
		return nil, fmt.Errorf("setting up the Alertmanager controller: %w", err)
	}
	return am, nil
}

// setupThanosRuler registers the ThanosRuler controller unless its permissions are
// missing (then it returns nil).
func setupThanosRuler(mgr manager.Manager, opts Options, sh shared) (*trctrl.Reconciler, error) {
	if opts.skipThanosRulers {
		return nil, nil
	}
	// prometheus-operator labels this controller's metrics controller="thanos".
	deps, err := sh.controllerDeps(mgr, opts, monitoringv1.ThanosRulerKind, "thanos")
	if err != nil {
		return nil, err
	}
	r := trctrl.New(deps, trctrl.Config{
		Config:    sh.config(opts, opts.ThanosRulerScope(), opts.ThanosRulerInstanceSelector),
		RuleScope: opts.MonitorScope(),
	})
	if err := r.SetupWithManager(mgr); err != nil {
		return nil, fmt.Errorf("setting up the ThanosRuler controller: %w", err)
	}
	return r, nil
}

// storageClassReader is what the controllers read StorageClasses with: the API server
// (they are not cached), or nil when the operator may not read them.
func storageClassReader(mgr manager.Manager, opts Options) client.Reader {
	if !opts.readStorageClasses {
		return nil
	}
	return mgr.GetAPIReader()
}
