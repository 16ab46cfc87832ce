package prometheus

import (
	"context"
	"errors"
	"fmt"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Reasons of the Reconciled condition.
const (
	ReasonReconciled           = "ReconcileSucceeded"
	ReasonInvalidConfiguration = "InvalidConfiguration"
	ReasonApplyFailed          = "ApplyFailed"
	ReasonPaused               = "Paused"
)

// reconcileError is a failure with the reason the Reconciled condition shows.
type reconcileError struct {
	reason string
	err    error
}

func (e *reconcileError) Error() string { return e.err.Error() }
func (e *reconcileError) Unwrap() error { return e.err }

func invalid(err error) error { return &reconcileError{ReasonInvalidConfiguration, err} }
func applyFailed(err error) error {
	if err == nil {
		return nil
	}
	return &reconcileError{ReasonApplyFailed, err}
}

// Reconcile brings one Prometheus's objects in line with its spec and inputs.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	logger := log.FromContext(ctx)
	p := &monitoringv1.Prometheus{}
	if err := r.Client.Get(ctx, req.NamespacedName, p); err != nil {
		if apierrors.IsNotFound(err) {
			r.forget(req.NamespacedName)
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, err
	}
	if !r.managed(p) {
		r.forget(req.NamespacedName)
		return reconcile.Result{}, nil
	}
	if p.DeletionTimestamp != nil {
		return reconcile.Result{}, nil
	}
	st := r.stateFor(req.NamespacedName)
	st.mu.Lock()
	defer st.mu.Unlock()

	var err error
	if p.Spec.Paused {
		err = &reconcileError{ReasonPaused, errors.New("spec.paused is set: the operator leaves the StatefulSets and configuration as they are")}
	} else {
		err = r.reconcileObjects(ctx, p, st)
	}
	if serr := r.updateStatus(ctx, p, err); serr != nil {
		if apierrors.IsConflict(serr) && err == nil {
			// The cached object was older than the live one: a newer event is queued.
			return reconcile.Result{Requeue: true}, nil
		}
		logger.Error(serr, "updating Prometheus status")
		if err == nil {
			err = serr
		}
	}
	ok := 0.0
	if err == nil {
		ok = 1
	}
	var re *reconcileError
	if errors.As(err, &re) && re.reason == ReasonPaused {
		ok = 1
	}
	reconciled.WithLabelValues(p.Namespace, p.Name).Set(ok)
	if errors.As(err, &re) {
		if re.reason == ReasonPaused {
			return reconcile.Result{}, nil
		}
		reconcileFailures.WithLabelValues(p.Namespace, p.Name, re.reason).Inc()
		r.Recorder.Eventf(p, corev1.EventTypeWarning, re.reason, "%s", truncate(re.Error(), 1024))
	}
	return reconcile.Result{}, err
}

// managed reports whether this operator is responsible for p.
func (r *Reconciler) managed(p *monitoringv1.Prometheus) bool {
	if !r.Config.Scope.Contains(p.Namespace) {
		return false
	}
	sel := r.Config.InstanceSelector
	return sel == nil || sel.Matches(labels.Set(p.Labels))
}

// reconcileObjects generates and applies everything but the status.
func (r *Reconciler) reconcileObjects(ctx context.Context, p *monitoringv1.Prometheus, st *promState) error {
	sel, err := st.compile(p)
	if err != nil {
		return invalid(err)
	}
	nsLabels, err := r.namespaceLabels(ctx)
	if err != nil {
		return applyFailed(err)
	}
	start := time.Now()

	rules, err := r.reconcileRules(ctx, p, st, sel, nsLabels)
	if err != nil {
		return err
	}

	var smList monitoringv1.ServiceMonitorList
	if err := r.Client.List(ctx, &smList, client.UnsafeDisableDeepCopy); err != nil {
		return applyFailed(fmt.Errorf("listing ServiceMonitors: %w", err))
	}
	var pmList monitoringv1.PodMonitorList
	if err := r.Client.List(ctx, &pmList, client.UnsafeDisableDeepCopy); err != nil {
		return applyFailed(fmt.Errorf("listing PodMonitors: %w", err))
	}
	var prList monitoringv1.ProbeList
	if err := r.Client.List(ctx, &prList, client.UnsafeDisableDeepCopy); err != nil {
		return applyFailed(fmt.Errorf("listing Probes: %w", err))
	}
	var scList monitoringv1alpha1.ScrapeConfigList
	if err := r.Client.List(ctx, &scList, client.UnsafeDisableDeepCopy); err != nil {
		return applyFailed(fmt.Errorf("listing ScrapeConfigs: %w", err))
	}
	sms, smVerdicts := selection.Select(sel.serviceMonitors, pointers(smList.Items), r.Config.Scope, nsLabels)
	pms, pmVerdicts := selection.Select(sel.podMonitors, pointers(pmList.Items), r.Config.Scope, nsLabels)
	prs, prVerdicts := selection.Select(sel.probes, pointers(prList.Items), r.Config.Scope, nsLabels)
	scs, scVerdicts := selection.Select(sel.scrapeConfigs, pointers(scList.Items), r.Config.Scope, nsLabels)

	res, err := st.generator.Generate(promcfg.Input{
		Prometheus: p, ServiceMonitors: sms, PodMonitors: pms, Probes: prs, ScrapeConfigs: scs, Assets: r.assets,
		RuleFiles: layout.RuleFileGlobs(p.Name, slots(len(rules.configMaps))),
	})
	if err != nil {
		if errors.Is(err, promcfg.ErrUnavailable) {
			return applyFailed(err)
		}
		return invalid(err)
	}
	generateSeconds.WithLabelValues(p.Namespace, p.Name).Observe(time.Since(start).Seconds())
	r.trackReferences(p, res)

	gz, err := st.compressed(res)
	if err != nil {
		return applyFailed(err)
	}
	configSize.WithLabelValues(p.Namespace, p.Name, "plain").Set(float64(len(res.Config)))
	configSize.WithLabelValues(p.Namespace, p.Name, "gzip").Set(float64(len(gz)))
	if len(gz) > maxSecretData {
		return invalid(fmt.Errorf("the compressed configuration is %d bytes, more than the %d bytes a Secret can hold; reduce the number of monitors selected or shard this Prometheus", len(gz), maxSecretData))
	}

	if err := r.applyConfig(ctx, p, res, gz); err != nil {
		return err
	}
	tlsCount, err := r.applyTLSAssets(ctx, p, res.TLSAssets)
	if err != nil {
		return err
	}
	if err := r.applyWebConfig(ctx, p); err != nil {
		return err
	}
	if err := r.applyRuleConfigMaps(ctx, p, st, rules); err != nil {
		return err
	}
	if err := r.applyWorkload(ctx, p, len(rules.configMaps), tlsCount); err != nil {
		return err
	}
	if err := r.deleteSurplus(ctx, p, len(rules.configMaps), tlsCount); err != nil {
		return err
	}

	publish := func(kind string, vs []selection.Verdict) {
		r.Statuses.Publish(owner(nnOf(p)), kind, vs)
		sel, rej := 0, 0
		for _, v := range vs {
			switch v.Reason {
			case selection.Accepted:
				sel++
			case selection.InvalidConfiguration:
				rej++
			}
		}
		managedResources.WithLabelValues(p.Namespace, p.Name, kind, "selected").Set(float64(sel))
		managedResources.WithLabelValues(p.Namespace, p.Name, kind, "rejected").Set(float64(rej))
	}
	publish(monitoringv1.ServiceMonitorsKind, mergeVerdicts(smVerdicts, res.Verdicts))
	publish(monitoringv1.PodMonitorsKind, mergeVerdicts(pmVerdicts, res.Verdicts))
	publish(monitoringv1.ProbesKind, mergeVerdicts(prVerdicts, res.Verdicts))
	publish(monitoringv1alpha1.ScrapeConfigsKind, mergeVerdicts(scVerdicts, res.Verdicts))
	publish(monitoringv1.PrometheusRuleKind, rules.verdicts)
	configInfo.DeletePartialMatch(map[string]string{"namespace": p.Namespace, "name": p.Name})
	configInfo.WithLabelValues(p.Namespace, p.Name, res.Hash).Set(1)
	return nil
}

// namespaceLabels reads every namespace's labels from the metadata cache.
func (r *Reconciler) namespaceLabels(ctx context.Context) (selection.NamespaceLabels, error) {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("NamespaceList"))
	if err := r.Client.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		return nil, fmt.Errorf("listing namespaces: %w", err)
	}
	m := make(map[string]map[string]string, len(list.Items))
	for i := range list.Items {
		m[list.Items[i].Name] = list.Items[i].Labels
	}
	return func(ns string) (map[string]string, bool) { l, ok := m[ns]; return l, ok }, nil
}

// trackReferences remembers which Secrets and ConfigMaps p read.
func (r *Reconciler) trackReferences(p *monitoringv1.Prometheus, res *promcfg.Result) {
	keys := map[string]bool{}
	for _, d := range res.Dependencies {
		keys[refKey(string(d.Kind), d.Namespace, d.Name)] = true
	}
	r.refs.set(nnOf(p), keys)
}

// mergeVerdicts replaces selection's Accepted verdicts with generation's verdicts.
func mergeVerdicts(sel []selection.Verdict, gen []selection.Verdict) []selection.Verdict {
	byKey := make(map[string]selection.Verdict, len(gen))
	for _, v := range gen {
		byKey[v.Key()] = v
	}
	out := make([]selection.Verdict, len(sel))
	for i, v := range sel {
		if g, ok := byKey[v.Key()]; ok && v.Used() {
			v = g
		}
		out[i] = v
	}
	return out
}

func pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
