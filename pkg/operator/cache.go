package operator

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	lselection "github.com/lookout-operator/lookout/pkg/selection"
)

// reportingPods selects the pods whose reloaders report the configuration they loaded:
// those of Prometheus, PrometheusAgent, Alertmanager and ThanosRuler StatefulSets.
var reportingPods = func() labels.Selector {
	managed, _ := labels.NewRequirement(layout.ManagedByLabel, selection.Equals, []string{layout.ManagedByValue})
	kinds, _ := labels.NewRequirement(layout.NameLabel, selection.In, []string{
		promplan.PrometheusNameValue, promplan.AgentNameValue, amplan.AlertmanagerNameValue, trplan.ThanosRulerNameValue})
	return labels.NewSelector().Add(*managed, *kinds)
}()

// ownServices selects the Services the operator generates (the governing Services of
// every kind carry the label).
var ownServices = labels.SelectorFromSet(labels.Set{layout.ManagedByLabel: layout.ManagedByValue})

// cacheOptions turns the namespace flags into the informer cache's namespaces, with
// prometheus-operator's semantics:
//   - Prometheus and PrometheusAgent objects are watched in PrometheusScope (--prometheus-instance-namespaces,
//     or else --namespaces / --deny-namespaces), Alertmanager objects in
//     AlertmanagerScope, AlertmanagerConfigs in AlertmanagerConfigScope and ThanosRulers
//     in ThanosRulerScope, likewise;
//   - monitors and rules in MonitorScope (--namespaces, or every namespace but
//     --deny-namespaces);
//   - everything else (the generated StatefulSets, Services, Secrets and ConfigMaps, and
//     the metadata of the Secrets and ConfigMaps monitors reference) in both.
//
// A deny list becomes a field selector (metadata.namespace!=...) on an all-namespaces
// informer, so denied namespaces are never listed at all.
func cacheOptions(o Options) cache.Options {
	// Managed fields are never read: dropping them halves the memory of the caches.
	opts := cache.Options{DefaultTransform: cache.TransformStripManagedFields(), NewInformer: newInformer}
	watch := o.WatchScope()
	opts.DefaultNamespaces = cacheNamespaces(watch)
	byObject := map[client.Object]cache.ByObject{}
	if s := o.PrometheusScope(); !s.Equal(watch) {
		byObject[&monitoringv1.Prometheus{}] = cache.ByObject{Namespaces: cacheNamespaces(s)}
		byObject[&monitoringv1alpha1.PrometheusAgent{}] = cache.ByObject{Namespaces: cacheNamespaces(s)}
	}
	if s := o.AlertmanagerScope(); !s.Equal(watch) {
		byObject[&monitoringv1.Alertmanager{}] = cache.ByObject{Namespaces: cacheNamespaces(s)}
	}
	if s := o.ThanosRulerScope(); !s.Equal(watch) {
		byObject[&monitoringv1.ThanosRuler{}] = cache.ByObject{Namespaces: cacheNamespaces(s)}
	}
	if s := o.AlertmanagerConfigScope(); !s.Equal(watch) {
		byObject[&monitoringv1alpha1.AlertmanagerConfig{}] = cache.ByObject{Namespaces: cacheNamespaces(s)}
	}
	// Monitors and rules: their namespaces, labels and status words interned
	// (internMonitor), in MonitorScope.
	monitors := cache.ByObject{Transform: internMonitor(opts.DefaultTransform)}
	if s := o.MonitorScope(); !s.Equal(watch) {
		monitors.Namespaces = cacheNamespaces(s)
	}
	for _, k := range monitorkind.All {
		byObject[k.New()] = monitors
	}
	byObject[&monitoringv1.PrometheusRule{}] = monitors
	if o.Workload.ReloaderReportConfig {
		// The pods of every instance kind, for the ConfigLoaded condition: only those
		// pods, and only their metadata and reported configuration (StripPod).
		byObject[&corev1.Pod{}] = cache.ByObject{
			Namespaces: cacheNamespaces(o.PrometheusScope().Union(o.AlertmanagerScope()).Union(o.ThanosRulerScope())),
			Label:      reportingPods,
			Transform:  instance.StripPod,
		}
	}
	// The Services informer only triggers the restoration of a deleted governing Service
	// (Services are read from the API server): it holds the operator's own, not every
	// Service of the cluster (20,000 Services cost a second of start-up and 20 MB).
	byObject[&corev1.Service{}] = cache.ByObject{Namespaces: withSelectors(cacheNamespaces(watch), ownServices, nil)}
	// --secret-* and --configmap-* selectors narrow what the metadata informers list, in
	// every watched namespace (see fallbackClient for the objects they leave out).
	for _, n := range narrowedKinds(o) {
		byObject[n.obj] = cache.ByObject{Namespaces: withSelectors(cacheNamespaces(watch), n.label, n.field)}
	}
	opts.ByObject = byObject
	return opts
}

// cacheNamespaces is a scope as the cache's per-namespace configuration; nil is every
// namespace.
func cacheNamespaces(s lselection.Scope) map[string]cache.Config {
	if allow := s.Namespaces(); len(allow) > 0 {
		m := make(map[string]cache.Config, len(allow))
		for _, ns := range allow {
			m[ns] = cache.Config{}
		}
		return m
	}
	deny := s.Denied()
	if len(deny) == 0 {
		return nil
	}
	sels := make([]fields.Selector, 0, len(deny))
	for _, ns := range deny {
		sels = append(sels, fields.OneTermNotEqualSelector("metadata.namespace", ns))
	}
	return map[string]cache.Config{cache.AllNamespaces: {FieldSelector: fields.AndSelectors(sels...)}}
}
