package explain

import (
	"context"
	"fmt"
	"sync"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

func liveScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(monitoringv1.AddToScheme(s))
	utilruntime.Must(monitoringv1alpha1.AddToScheme(s))
	return s
}

// Live reads explain's input from the cluster of cfg, with cfg's credentials: the
// Prometheus and PrometheusAgent objects (of opts.PrometheusScope, or the one
// opts.Prometheus names), the subject and the monitors that may reach it, namespace
// labels when a selector needs them, and referenced Secrets and ConfigMaps when
// generation reads them. Everything is read-only. Reads the user may not make are
// returned as notes (a missing PrometheusAgent CRD or permission) or as the error.
func Live(ctx context.Context, cfg *rest.Config, subject Subject, opts Options) (Input, error) {
	in := Input{Notes: &Notes{}}
	c, err := client.New(cfg, client.Options{Scheme: liveScheme()})
	if err != nil {
		return in, err
	}
	api, err := NewClusterAPI(cfg)
	if err != nil {
		return in, err
	}
	in.API = api
	in.Assets = assets.NewAPIStore(c, c).For(ctx)
	in.NamespaceLabels = liveNamespaces(ctx, c, in.Notes)

	// The Prometheus objects.
	nss := []string{""}
	if !opts.PrometheusScope.All() && len(opts.PrometheusScope.Namespaces()) > 0 {
		nss = opts.PrometheusScope.Namespaces()
	}
	if ns, _, ok := splitName(opts.Prometheus); ok {
		nss = []string{ns}
	}
	for _, ns := range nss {
		var pl monitoringv1.PrometheusList
		if err := c.List(ctx, &pl, client.InNamespace(ns)); err != nil {
			hint := ""
			if apierrors.IsForbidden(err) && ns == "" {
				hint = " (give --prometheus NAMESPACE/NAME to read only that namespace's)"
			}
			return in, fmt.Errorf("reading Prometheus objects: %w%s", err, hint)
		}
		for i := range pl.Items {
			in.Prometheuses = append(in.Prometheuses, promserver.Of(&pl.Items[i]))
		}
		var al monitoringv1alpha1.PrometheusAgentList
		switch err := c.List(ctx, &al, client.InNamespace(ns)); {
		case meta.IsNoMatchError(err) || apierrors.IsNotFound(err):
		case err != nil:
			in.Notes.Add(fmt.Sprintf("PrometheusAgents not read: %v", err))
		default:
			for i := range al.Items {
				in.Prometheuses = append(in.Prometheuses, promserver.Of(&al.Items[i]))
			}
		}
	}
	SortPrometheuses(in.Prometheuses)

	// The subject and the monitors that may reach it.
	key := client.ObjectKey{Namespace: subject.Namespace, Name: subject.Name}
	switch subject.Kind {
	case KindServiceMonitor:
		sm := &monitoringv1.ServiceMonitor{}
		if err := c.Get(ctx, key, sm); err != nil {
			return in, fmt.Errorf("reading ServiceMonitor %s: %w", key, err)
		}
		in.Candidates.ServiceMonitors = append(in.Candidates.ServiceMonitors, sm)
	case KindPodMonitor:
		pm := &monitoringv1.PodMonitor{}
		if err := c.Get(ctx, key, pm); err != nil {
			return in, fmt.Errorf("reading PodMonitor %s: %w", key, err)
		}
		in.Candidates.PodMonitors = append(in.Candidates.PodMonitors, pm)
	case KindProbe:
		pr := &monitoringv1.Probe{}
		if err := c.Get(ctx, key, pr); err != nil {
			return in, fmt.Errorf("reading Probe %s: %w", key, err)
		}
		in.Candidates.Probes = append(in.Candidates.Probes, pr)
	case KindScrapeConfig:
		sc := &monitoringv1alpha1.ScrapeConfig{}
		if err := c.Get(ctx, key, sc); err != nil {
			return in, fmt.Errorf("reading ScrapeConfig %s: %w", key, err)
		}
		in.Candidates.ScrapeConfigs = append(in.Candidates.ScrapeConfigs, sc)
	case KindService, KindPod:
		if subject.Kind == KindService {
			svc := &corev1.Service{}
			if err := c.Get(ctx, key, svc); err != nil {
				return in, fmt.Errorf("reading Service %s: %w", key, err)
			}
			in.Service = svc
		} else {
			pod := &corev1.Pod{}
			if err := c.Get(ctx, key, pod); err != nil {
				return in, fmt.Errorf("reading Pod %s: %w", key, err)
			}
			in.Pod = pod
			var sl corev1.ServiceList
			if err := c.List(ctx, &sl, client.InNamespace(subject.Namespace)); err != nil {
				return in, fmt.Errorf("reading the Services of namespace %s: %w", subject.Namespace, err)
			}
			in.Services = sl.Items
		}
		// Monitors of every namespace may reach it (spec.namespaceSelector); a user who
		// may not list them cluster-wide gets those of the subject's namespace.
		sms, pms, note, err := listMonitors(ctx, c, subject.Namespace, subject.Kind == KindPod)
		if err != nil {
			return in, err
		}
		if note != "" {
			in.Notes.Add(note)
		}
		in.Candidates.ServiceMonitors, in.Candidates.PodMonitors = sms, pms
	default:
		return in, fmt.Errorf("cannot explain a %s", subject.Kind)
	}
	return in, nil
}

func listMonitors(ctx context.Context, c client.Client, ns string, pods bool) ([]*monitoringv1.ServiceMonitor, []*monitoringv1.PodMonitor, string, error) {
	note := ""
	list := func(ns string) ([]*monitoringv1.ServiceMonitor, []*monitoringv1.PodMonitor, error) {
		var sl monitoringv1.ServiceMonitorList
		if err := c.List(ctx, &sl, client.InNamespace(ns)); err != nil {
			return nil, nil, err
		}
		var pl monitoringv1.PodMonitorList
		if pods {
			if err := c.List(ctx, &pl, client.InNamespace(ns)); err != nil {
				return nil, nil, err
			}
		}
		sms := make([]*monitoringv1.ServiceMonitor, len(sl.Items))
		for i := range sl.Items {
			sms[i] = &sl.Items[i]
		}
		pms := make([]*monitoringv1.PodMonitor, len(pl.Items))
		for i := range pl.Items {
			pms[i] = &pl.Items[i]
		}
		return sms, pms, nil
	}
	sms, pms, err := list("")
	if apierrors.IsForbidden(err) {
		note = fmt.Sprintf("monitors of other namespaces not read (%v); those of namespace %s are", err, ns)
		sms, pms, err = list(ns)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading monitors: %w", err)
	}
	return sms, pms, note, nil
}

// liveNamespaces returns namespace labels read on demand (a namespace selector needs
// them); a namespace the user may not read is a note and counts as absent.
func liveNamespaces(ctx context.Context, c client.Client, notes *Notes) func(string) (map[string]string, bool) {
	var mu sync.Mutex
	cache := map[string]*corev1.Namespace{}
	return func(name string) (map[string]string, bool) {
		mu.Lock()
		defer mu.Unlock()
		if ns, ok := cache[name]; ok {
			if ns == nil {
				return nil, false
			}
			return ns.Labels, true
		}
		ns := &corev1.Namespace{}
		if err := c.Get(ctx, client.ObjectKey{Name: name}, ns); err != nil {
			if !apierrors.IsNotFound(err) {
				notes.Add(fmt.Sprintf("namespace %s not read, so no namespace selector matches it: %v", name, err))
			}
			cache[name] = nil
			return nil, false
		}
		cache[name] = ns
		return ns.Labels, true
	}
}

// splitName splits "namespace/name".
func splitName(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return "", s, false
}

// Notes collects what explain could not read, for the report.
type Notes struct {
	mu   sync.Mutex
	list []string
}

// Add records a note once.
func (n *Notes) Add(s string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, x := range n.list {
		if x == s {
			return
		}
	}
	n.list = append(n.list, s)
}

func (n *Notes) all() []string {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.list...)
}
