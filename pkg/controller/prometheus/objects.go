package prometheus

import (
	"context"
	"fmt"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// maxSecretData is what one Secret may hold.
const maxSecretData = write.MaxSecretData

var (
	secretGVK    = corev1.SchemeGroupVersion.WithKind("Secret")
	configMapGVK = corev1.SchemeGroupVersion.WithKind("ConfigMap")
)

func nnOf(o client.Object) types.NamespacedName {
	return types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
}

func slots(n int) int { return workload.Slots(n) }

// ownerRef makes p (a Prometheus or the AgentView of a PrometheusAgent) the controlling
// owner of what it generates.
func ownerRef(p *monitoringv1.Prometheus) metav1.OwnerReference {
	apiVersion, kind := monitoringv1.SchemeGroupVersion.String(), monitoringv1.PrometheusesKind
	if workload.IsAgent(p) {
		apiVersion, kind = p.APIVersion, p.Kind
	}
	return metav1.OwnerReference{
		APIVersion: apiVersion, Kind: kind,
		Name: p.Name, UID: p.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// objectMeta is the metadata of a generated object: the operator's own labels, hash in
// the input-hash annotation, p as owner (ensure adds the operator-wide labels).
func (r *Reconciler) objectMeta(p *monitoringv1.Prometheus, name, hash string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: p.Namespace,
		Labels: map[string]string{
			layout.ManagedByLabel: layout.ManagedByValue, layout.LegacyManagedByLabel: layout.ManagedByValue, layout.NameLabel: workload.NameValue(p),
			layout.InstanceLabel: p.Name, layout.OperatorNameLabel: p.Name,
		},
		Annotations:     map[string]string{layout.InputHashAnnotation: hash},
		OwnerReferences: []metav1.OwnerReference{ownerRef(p)},
	}
}

// dataHash hashes Secret/ConfigMap data deterministically.
func dataHash(data map[string][]byte) string { return write.DataHash(data) }

// ensure decorates obj, which carries its content hash, and hands it to the Applier,
// which may read it through the APIReader to tell an edit of a Secret's or ConfigMap's
// data (or a deletion its cache has not seen) from its cache's lag.
func (r *Reconciler) ensure(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object, opts ...apply.Option) error {
	return r.Writer().Ensure(ctx, gvk, obj, opts...)
}

// applyConfig writes the config Secret prometheus-<name> (key prometheus.yaml.gz) and,
// for a configuration too large for one Secret, the part Secrets
// prometheus-<name>-config-part-<n> (ADR 20). It returns how many Secrets the
// configuration takes and its hash: the hash of the parts concatenated, which the
// config-reloader and lookout_prometheus_config_info report (the hash of the generated
// configuration, and the config Secret's hash annotation, when it is one part).
func (r *Reconciler) applyConfig(ctx context.Context, p *monitoringv1.Prometheus, st *promState, res *promcfg.Result) (parts int, hash string, err error) {
	current := st.configParts
	if current == 0 {
		if current, err = r.liveConfigParts(ctx, p); err != nil {
			return 0, "", err
		}
	}
	limit := r.cfg.MaxSecretData
	if limit <= 0 {
		limit = maxSecretData
	}
	s, err := st.split(res, current, limit)
	if err != nil {
		return 0, "", invalid(err)
	}
	r.Metrics.ConfigSize.WithLabelValues(p.Namespace, p.Name, "plain").Set(float64(res.Size))
	r.Metrics.ConfigSize.WithLabelValues(p.Namespace, p.Name, "gzip").Set(float64(s.compressedSize()))
	for n := len(s.gz) - 1; n >= 0; n-- {
		// The parts first, the config Secret last: a reloader that sees the new config
		// Secret finds the parts it goes with already written.
		// Each Secret's hash annotation is of its own part, so that a change to one
		// monitor writes one Secret (with one part, the config's hash).
		sec := &corev1.Secret{ObjectMeta: r.objectMeta(p, workload.Instance(p).ConfigPartSecret(n), s.plainHashes[n]), Data: map[string][]byte{layout.ConfigCompressedKey: s.gz[n]}}
		if err := r.ensure(ctx, secretGVK, sec); err != nil {
			return 0, "", err
		}
	}
	st.configParts = len(s.gz)
	st.configHash = s.hash
	return len(s.gz), s.hash, nil
}

// ensureUnmanagedConfig creates an empty config Secret when there is none, so the pods
// can start, and never touches an existing one: its content is the user's.
func (r *Reconciler) ensureUnmanagedConfig(ctx context.Context, p *monitoringv1.Prometheus) error {
	live := &metav1.PartialObjectMetadata{}
	live.SetGroupVersionKind(secretGVK)
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: workload.Instance(p).ConfigSecret()}, live)
	if err == nil || !apierrors.IsNotFound(err) {
		return applyFailed(err)
	}
	var c write.Compressor
	gz, err := c.Compress("", nil)
	if err != nil {
		return applyFailed(err)
	}
	sec := &corev1.Secret{
		ObjectMeta: r.objectMeta(p, workload.Instance(p).ConfigSecret(), "unmanaged"),
		Data:       map[string][]byte{layout.ConfigCompressedKey: gz},
	}
	return r.ensure(ctx, secretGVK, sec)
}

// applyTLSAssets writes the TLS files into as many Secrets as needed and returns how many
// hold files. prometheus-<name>-tls-assets-0 exists even without a file, as
// prometheus-operator always creates it (scripts and policies name it); the pods mount
// only Secrets that hold files.
func (r *Reconciler) applyTLSAssets(ctx context.Context, p *monitoringv1.Prometheus, files map[string][]byte) (int, error) {
	parts, err := promcfg.SplitTLSAssets(files, maxSecretData)
	if err != nil {
		return 0, invalid(err)
	}
	for i, data := range write.AtLeastOne(parts) {
		sec := &corev1.Secret{ObjectMeta: r.objectMeta(p, workload.Instance(p).TLSAssetsSecret(i), dataHash(data)), Data: data}
		if err := r.ensure(ctx, secretGVK, sec); err != nil {
			return 0, err
		}
	}
	return len(parts), nil
}

func (r *Reconciler) applyWebConfig(ctx context.Context, p *monitoringv1.Prometheus) error {
	cfg, err := workload.WebConfig(p)
	if err != nil {
		return invalid(err)
	}
	data := map[string][]byte{layout.WebConfigFile: cfg}
	sec := &corev1.Secret{ObjectMeta: r.objectMeta(p, workload.Instance(p).WebConfigSecret(), dataHash(data)), Data: data}
	return r.ensure(ctx, secretGVK, sec)
}

// applyThanosHTTPClient writes the Secret prometheus-<name>-thanos-prometheus-http-client-file
// the Thanos sidecar reads as --prometheus.http-client-file (spec.thanos on Thanos v0.24.0
// and later), owned like the web-config Secret. Like prometheus-operator, it is written
// for every Prometheus, whether its pods mount it or not (scripts and policies name it);
// a Secret of that name someone else owns is a conflict only when the pods mount it.
func (r *Reconciler) applyThanosHTTPClient(ctx context.Context, p *monitoringv1.Prometheus) error {
	name := workload.ThanosHTTPClientSecretName(p)
	if !workload.NeedsThanosHTTPClientSecret(p) {
		live := &metav1.PartialObjectMetadata{}
		live.SetGroupVersionKind(secretGVK)
		err := r.Client.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: name}, live)
		if err == nil && !ownedBy(live, p) {
			return nil
		}
		if err != nil && !apierrors.IsNotFound(err) {
			return applyFailed(err)
		}
	}
	data := map[string][]byte{workload.ThanosHTTPClientFile: workload.ThanosHTTPClientConfig()}
	sec := &corev1.Secret{ObjectMeta: r.objectMeta(p, name, dataHash(data)), Data: data}
	return r.ensure(ctx, secretGVK, sec)
}

// workloadOptions are the pod options for p. API-watch mode needs p's own service
// account: the Role that reads the config Secret (every inlined scrape credential) is
// never bound to the namespace's default service account, which every other pod of the
// namespace may run as; p's reloader then reads the kubelet volume instead.
func (r *Reconciler) workloadOptions(p *monitoringv1.Prometheus) (workload.Options, *note) {
	opts := r.cfg.Workload
	if p.Spec.ServiceAccountName == "" {
		// Nor is it granted patch on the pods' status: reports need p's own account.
		opts.ReloaderReportConfig = false
	}
	if opts.ReloaderWatchAPI && p.Spec.ServiceAccountName == "" {
		opts.ReloaderWatchAPI = false
		return opts, &note{Reason: ReasonAPIWatchNeedsServiceAccount, Message: "the operator runs with --reloader-watch-api, but this " + r.kind.Kind + " has no spec.serviceAccountName: " +
			"the config-reloader reads the mounted volume instead, so that the namespace's default service account is not granted the configuration Secret"}
	}
	return opts, nil
}

// applyWorkload writes the StatefulSets, the governing Service and, in API-watch mode, the
// reloader's Role and RoleBinding (deleted when the mode is off).
func (r *Reconciler) applyWorkload(ctx context.Context, p *monitoringv1.Prometheus, opts workload.Options, in workload.Input) error {
	var sets []*appsv1.StatefulSet
	if !workload.DaemonSetMode(p) {
		var err error
		if sets, err = workload.StatefulSets(in, opts); err != nil {
			return invalid(err)
		}
	}
	if workload.DaemonSetMode(p) {
		// No StatefulSet, so no governing Service: the agents are reached per pod.
	} else if workload.ManagesGoverningService(p) {
		if err := r.ApplyGoverningService(ctx, workload.GoverningService(p), workload.ManagesGoverningService, addThanosPort); err != nil {
			return err
		}
	} else if err := r.CheckService(ctx, p.Namespace, workload.ServiceName(p), func(svc *corev1.Service) error { return workload.CheckGoverningService(p, svc) }); err != nil {
		return err
	}
	role, err := workload.ReloaderRoleFor(in, opts)
	if err != nil {
		return invalid(err)
	}
	if role == nil {
		// Only an operator in API-watch or report mode makes (and may read) Roles: one
		// that falls back for this Prometheus removes what it made before.
		if r.cfg.Workload.ReloaderWatchAPI || r.cfg.Workload.ReloaderReportConfig {
			if err := r.Writer().DeleteReloaderRBAC(ctx, r.Client, p.Namespace, workload.ReloaderRoleName(p), p.UID); err != nil {
				return err
			}
		}
	} else if err := r.Writer().EnsureReloaderRBAC(ctx, role, workload.ReloaderRoleBinding(p), ownerRef(p)); err != nil {
		return err
	}
	if workload.DaemonSetMode(p) {
		return r.applyDaemonSet(ctx, p, in, opts)
	}
	for _, desired := range sets {
		desired.OwnerReferences = []metav1.OwnerReference{ownerRef(p)}
		if err := r.applyStatefulSet(ctx, p, desired); err != nil {
			return err
		}
	}
	return r.deleteDaemonSet(ctx, p)
}

// applyStatefulSet ensures one StatefulSet. A change to a field the API server refuses to
// update makes it delete the live one with propagation Orphan (pods and claims stay and
// are adopted) and create it on the next reconcile; a replica count changed by hand is
// put back even though the hash did not change.
func (r *Reconciler) applyStatefulSet(ctx context.Context, p *monitoringv1.Prometheus, desired *appsv1.StatefulSet) error {
	// A shard scaled back up still carries the deadline set when it was retained:
	// rewriting it drops the annotation even when its hash is current.
	live := &appsv1.StatefulSet{}
	reactivated := r.Client.Get(ctx, nnOf(desired), live) == nil && workload.ShardReactivated(live)
	recreated, err := r.Writer().EnsureStatefulSet(ctx, r.Client, desired, p.UID, reactivated)
	if recreated {
		r.Upstream.StatefulSetRecreated()
	}
	return err
}

// deleteSurplus removes generated objects of p that are no longer needed: StatefulSets of
// shards scaled away (or, under spec.shardRetentionPolicy Retain, marks them with their
// deletion deadline and deletes them once it has passed), rule ConfigMaps and TLS assets
// Secrets beyond the current count. Only objects p owns are considered, and the Applier
// checks it again before deleting. It returns when the earliest deadline of a retained
// shard passes (0: none pending).
func (r *Reconciler) deleteSurplus(ctx context.Context, p *monitoringv1.Prometheus, ruleCMs, tlsSecrets, configParts int) (time.Duration, error) {
	names, err := workload.StatefulSetNames(p)
	if err != nil {
		return 0, invalid(err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var sets appsv1.StatefulSetList
	if err := r.Client.List(ctx, &sets, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
		return 0, applyFailed(fmt.Errorf("listing StatefulSets: %w", err))
	}
	var recheck time.Duration
	for i := range sets.Items {
		s := &sets.Items[i]
		if !ownedBy(s, p) || want[s.Name] {
			continue
		}
		after, err := r.surplusShard(ctx, p, s.DeepCopy())
		if err != nil {
			return 0, err
		}
		if after > 0 && (recheck == 0 || after < recheck) {
			recheck = after
		}
	}
	for _, kind := range []struct {
		gvk   schema.GroupVersionKind
		name  func(int) string
		count int
	}{
		{configMapGVK, workload.Instance(p).RuleConfigMap, max(ruleCMs, 1)},
		{secretGVK, workload.Instance(p).TLSAssetsSecret, max(tlsSecrets, 1)},
		{secretGVK, configPartAfterFirst(p), configParts - 1},
	} {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(kind.gvk.GroupVersion().WithKind(kind.gvk.Kind + "List"))
		// Every object of the namespace, from the metadata cache: objects prometheus-operator
		// created carry other labels than Lookout's, and p's owner reference decides.
		if err := r.Client.List(ctx, list, client.InNamespace(p.Namespace)); err != nil {
			return 0, applyFailed(fmt.Errorf("listing %ss: %w", kind.gvk.Kind, err))
		}
		keep := map[string]bool{}
		for i := 0; i < kind.count; i++ {
			keep[kind.name(i)] = true
		}
		for i := range list.Items {
			o := &list.Items[i]
			if !ownedBy(o, p) || keep[o.Name] || !isNumbered(o.Name, kind.name) {
				continue
			}
			obj := o.DeepCopy()
			obj.SetGroupVersionKind(kind.gvk)
			if err := r.Applier.Delete(ctx, kind.gvk.Kind, obj, p.UID); err != nil {
				return 0, applyFailed(err)
			}
		}
	}
	return recheck, nil
}

// surplusShard applies spec.shardRetentionPolicy to sts, the StatefulSet of a shard p no
// longer has: delete it, or annotate it with its deletion deadline (a merge patch guarded
// by its resourceVersion), or leave it until the deadline returned.
func (r *Reconciler) surplusShard(ctx context.Context, p *monitoringv1.Prometheus, sts *appsv1.StatefulSet) (time.Duration, error) {
	d, err := workload.DecideSurplusShard(p, sts, r.Clock.Now())
	if err != nil {
		return 0, invalid(err)
	}
	switch {
	case d.Delete:
		if err := r.Applier.Delete(ctx, "StatefulSet", sts, p.UID); err != nil {
			return 0, applyFailed(err)
		}
		return 0, nil
	case d.Annotate != "":
		orig := sts.DeepCopy()
		if sts.Annotations == nil {
			sts.Annotations = map[string]string{}
		}
		sts.Annotations[workload.DeletionDeadlineAnnotation] = d.Annotate
		patch := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
		if err := r.Client.Patch(ctx, sts, patch); err != nil {
			return 0, applyFailed(fmt.Errorf("marking the StatefulSet %s/%s of a retained shard: %w", sts.Namespace, sts.Name, err))
		}
		r.Applier.CountWrite("StatefulSet", "patch")
	}
	return d.RecheckAfter, nil
}

// isNumbered reports whether name is one of the numbered objects name(i).
func isNumbered(name string, gen func(int) string) bool {
	prefix := gen(0)
	prefix = prefix[:len(prefix)-1]
	if len(name) <= len(prefix) || name[:len(prefix)] != prefix {
		return false
	}
	for _, c := range name[len(prefix):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func ownedBy(o metav1.Object, p *monitoringv1.Prometheus) bool { return write.OwnedBy(o, p.UID) }

// addThanosPort adds the Thanos gRPC port to the governing Service when an owner runs the
// Thanos sidecar.
func addThanosPort(p *monitoringv1.Prometheus, svc *corev1.Service) {
	if p.Spec.Thanos != nil {
		workload.AddThanosGRPCPort(svc)
	}
}
