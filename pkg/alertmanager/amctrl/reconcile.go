package amctrl

import (
	"context"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/nslabels"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// reconcileObjects generates and applies everything but the status. The returned error
// is nil, an *outcome.Note or a failure.
func (r *Reconciler) reconcileObjects(ctx context.Context, a *monitoringv1.Alertmanager, st *amState) error {
	// Everything the pod needs is checked before anything is written.
	opts, note := r.workloadOptions(a)
	if _, err := amplan.AlertmanagerStatefulSet(amplan.AlertmanagerInput{Alertmanager: a, TLSAssetSecrets: 1}, opts); err != nil {
		return outcome.Invalid(err)
	}
	if err := write.CheckStorageClass(ctx, r.StorageClasses, a.Spec.Storage); err != nil {
		return err
	}
	base, extra, found, err := r.readConfigSecret(ctx, a)
	if err != nil {
		return err
	}
	configs, err := r.selectConfigs(ctx, a)
	if err != nil {
		return err
	}
	global, err := r.globalConfig(ctx, a)
	if err != nil {
		return err
	}
	rec := &recordingAssets{Assets: r.assets.For(ctx)}
	// What the Secret holds besides the configuration is the room it does not have.
	budget := write.MaxSecretData - len(layout.AlertmanagerConfigCompressedKey) - plan.DataSize(extra)
	start := r.Clock.Now()
	res, err := r.Generator.Generate(ctx, GenInput{Alertmanager: a, Base: base, BaseFound: found, AlertmanagerConfigs: configs, Global: global, Assets: rec,
		MaxCompressedBytes: max(budget, 1)})
	r.Refs.Set(types.NamespacedName{Namespace: a.Namespace, Name: a.Name}, rec.refs)
	if err != nil {
		// The last generated Secret stays: the running Alertmanager keeps its config.
		return outcome.Invalid(fmt.Errorf("generating the configuration: %w", err))
	}
	r.Metrics.GenerateSeconds.WithLabelValues(a.Namespace, a.Name).Observe(r.Clock.Since(start).Seconds())
	r.countResources(a, res.Verdicts)
	hash, err := write.HashJSON(res.Config)
	if err != nil {
		return outcome.ApplyFailed(err)
	}
	gz, err := st.gz.Compress(hash, res.Config)
	if err != nil {
		return outcome.ApplyFailed(err)
	}
	configHash := confighash.Sum(res.Config)
	pl, err := amplan.AlertmanagerPlan(amplan.AlertmanagerPlanInput{Alertmanager: a, ConfigGz: gz, Extra: extra, TLSAssets: res.TLSAssets,
		ManagesRoles:  r.cfg.Workload.ManagesReloaderRoles(),
		ConfigWritten: func() { st.configHash = configHash }}, opts)
	if err != nil {
		return outcome.Invalid(err)
	}
	if err := r.ApplyPlan(ctx, a, pl); err != nil {
		return err
	}
	r.Metrics.ConfigSize.WithLabelValues(a.Namespace, a.Name, "plain").Set(float64(len(res.Config)))
	r.Metrics.ConfigSize.WithLabelValues(a.Namespace, a.Name, "gzip").Set(float64(len(gz)))
	r.Metrics.SetConfigInfo(a.Namespace, a.Name, configHash)
	if note != nil {
		return note
	}
	return nil
}

// countResources publishes the verdicts on the AlertmanagerConfigs and counts them:
// lookout_alertmanager_managed_resources, and prometheus_operator_managed_resources as
// prometheus-operator sets it for Alertmanagers ("selected" counts the
// AlertmanagerConfigs used, "rejected" those left out).
func (r *Reconciler) countResources(a *monitoringv1.Alertmanager, verdicts []selection.Verdict) {
	nn := types.NamespacedName{Namespace: a.Namespace, Name: a.Name}
	used, _ := r.Publish(nn, monitoringv1alpha1.AlertmanagerConfigKind, verdicts)
	r.Upstream.SetResources(nn.String(), monitoringv1alpha1.AlertmanagerConfigKind, used, len(verdicts)-used)
}

// workloadOptions are the pod options for a (amplan.AlertmanagerOptions): API-watch
// mode needs a's own service account, or a's reloader reads the kubelet volume instead,
// and the note says why.
func (r *Reconciler) workloadOptions(a *monitoringv1.Alertmanager) (workload.Options, *outcome.Note) {
	opts, watchDropped := amplan.AlertmanagerOptions(a, r.cfg.Workload)
	if watchDropped {
		return opts, &outcome.Note{Reason: outcome.ReasonAPIWatchNeedsServiceAccount, Message: "the operator runs with --reloader-watch-api, but this Alertmanager has no spec.serviceAccountName: " +
			"the config-reloader reads the mounted volume instead, so that the namespace's default service account is not granted the generated configuration Secret"}
	}
	return opts, nil
}

// readConfigSecret reads the user's config Secret from the API server (the operator
// caches only Secrets' metadata): the alertmanager.yaml key, the other keys (templates
// and files the configuration references, copied to the generated Secret as
// prometheus-operator does), and whether the configuration was there.
func (r *Reconciler) readConfigSecret(ctx context.Context, a *monitoringv1.Alertmanager) (base []byte, extra map[string][]byte, found bool, err error) {
	reader := r.APIReader
	if reader == nil {
		reader = r.Client
	}
	sec := &corev1.Secret{}
	err = reader.Get(ctx, types.NamespacedName{Namespace: a.Namespace, Name: amplan.AlertmanagerConfigSecretName(a)}, sec)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil, false, nil
	case err != nil:
		return nil, nil, false, outcome.ApplyFailed(fmt.Errorf("reading the config Secret %s/%s: %w", a.Namespace, amplan.AlertmanagerConfigSecretName(a), err))
	}
	base, extra = SplitConfigSecret(sec.Data)
	return base, extra, len(base) > 0, nil
}

// selectConfigs lists the AlertmanagerConfigs from the cache and keeps those a selects.
func (r *Reconciler) selectConfigs(ctx context.Context, a *monitoringv1.Alertmanager) ([]*monitoringv1alpha1.AlertmanagerConfig, error) {
	if a.Spec.AlertmanagerConfigSelector == nil {
		return nil, nil
	}
	var list monitoringv1alpha1.AlertmanagerConfigList
	if err := r.Client.List(ctx, &list); err != nil {
		return nil, outcome.ApplyFailed(fmt.Errorf("listing AlertmanagerConfigs: %w", err))
	}
	nsLabels, err := r.namespaceLabels(ctx)
	if err != nil {
		return nil, outcome.ApplyFailed(err)
	}
	selected, err := SelectConfigs(a, instance.Pointers(list.Items), r.cfg.ConfigScope, nsLabels)
	if err != nil {
		return nil, outcome.Invalid(err)
	}
	return selected, nil
}

// namespaceLabels reads every namespace's labels from the metadata cache.
func (r *Reconciler) namespaceLabels(ctx context.Context) (selection.NamespaceLabels, error) {
	return nslabels.List(ctx, r.Client)
}
