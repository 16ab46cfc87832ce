package prometheus

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// maxSecretData is what one Secret may hold: the API server's 1 MiB object limit minus
// room for metadata.
const maxSecretData = 1024*1024 - 16*1024

func nnOf(o client.Object) types.NamespacedName {
	return types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
}

func slots(n int) int { return workload.Slots(n) }

// ownerRef makes p the controlling owner of what it generates.
func ownerRef(p *monitoringv1.Prometheus) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: monitoringv1.SchemeGroupVersion.String(), Kind: monitoringv1.PrometheusesKind,
		Name: p.Name, UID: p.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// objectMeta is the metadata of a generated object; hash goes into the input-hash
// annotation.
func objectMeta(p *monitoringv1.Prometheus, name, hash string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: p.Namespace,
		Labels: map[string]string{
			layout.ManagedByLabel: layout.ManagedByValue, layout.NameLabel: "prometheus",
			layout.InstanceLabel: p.Name, layout.OperatorNameLabel: p.Name,
		},
		Annotations:     map[string]string{layout.InputHashAnnotation: hash},
		OwnerReferences: []metav1.OwnerReference{ownerRef(p)},
	}
}

// dataHash hashes Secret/ConfigMap data deterministically.
func dataHash(data map[string][]byte) string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%d:%s%d:", len(k), k, len(data[k]))
		h.Write(data[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

var secretGVK = corev1.SchemeGroupVersion.WithKind("Secret")
var configMapGVK = corev1.SchemeGroupVersion.WithKind("ConfigMap")

// compressed gzips the config, reusing the last result when the hash did not change.
// Level 3 is the fastest of Go's levels on generated configs and compresses them about 70
// times; only when that does not fit a Secret does it spend four times as long on
// BestCompression (10,000 monitors with three endpoints: 640 KiB in about 50 ms).
func (s *promState) compressed(res *promcfg.Result) ([]byte, error) {
	if s.gzHash == res.Hash && s.gz != nil {
		return s.gz, nil
	}
	out, err := s.gzip(res.Config, 3)
	if err == nil && len(out) > maxSecretData {
		out, err = s.gzip(res.Config, gzip.BestCompression)
	}
	if err != nil {
		return nil, err
	}
	s.gzHash, s.gz = res.Hash, out
	return out, nil
}

func (s *promState) gzip(data []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data) / 32)
	if s.gzw == nil || s.gzLevel != level {
		w, err := gzip.NewWriterLevel(&buf, level)
		if err != nil {
			return nil, err
		}
		s.gzw, s.gzLevel = w, level
	} else {
		s.gzw.Reset(&buf)
	}
	if _, err := s.gzw.Write(data); err != nil {
		return nil, err
	}
	if err := s.gzw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// applyConfig writes the config Secret prometheus-<name> (key prometheus.yaml.gz). Its
// hash annotation is the hash of the uncompressed config, which the config-reloader and
// lookout_prometheus_config_info also report.
func (r *Reconciler) applyConfig(ctx context.Context, p *monitoringv1.Prometheus, res *promcfg.Result, gz []byte) error {
	sec := &corev1.Secret{
		ObjectMeta: objectMeta(p, layout.ConfigSecretName(p.Name), res.Hash),
		Data:       map[string][]byte{layout.ConfigCompressedKey: gz},
	}
	_, err := r.apply.Ensure(ctx, secretGVK, sec)
	return applyFailed(err)
}

// applyTLSAssets writes the TLS files into as many Secrets as needed and returns how many.
func (r *Reconciler) applyTLSAssets(ctx context.Context, p *monitoringv1.Prometheus, files map[string][]byte) (int, error) {
	parts, err := promcfg.SplitTLSAssets(files, maxSecretData)
	if err != nil {
		return 0, invalid(err)
	}
	for i, data := range parts {
		sec := &corev1.Secret{ObjectMeta: objectMeta(p, layout.TLSAssetsSecretName(p.Name, i), dataHash(data)), Data: data}
		if _, err := r.apply.Ensure(ctx, secretGVK, sec); err != nil {
			return 0, applyFailed(err)
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
	sec := &corev1.Secret{ObjectMeta: objectMeta(p, layout.WebConfigSecretName(p.Name), dataHash(data)), Data: data}
	_, err = r.apply.Ensure(ctx, secretGVK, sec)
	return applyFailed(err)
}

// applyWorkload writes the StatefulSets, the governing Service and, in API-watch mode, the
// reloader's Role and RoleBinding.
func (r *Reconciler) applyWorkload(ctx context.Context, p *monitoringv1.Prometheus, ruleCMs, tlsSecrets int) error {
	in := workload.Input{Prometheus: p, RuleConfigMaps: ruleCMs, TLSAssetSecrets: tlsSecrets}
	sets, err := workload.StatefulSets(in, r.Config.Workload)
	if err != nil {
		return invalid(err)
	}
	if workload.ManagesGoverningService(p) {
		if err := r.applyGoverningService(ctx, p); err != nil {
			return err
		}
	}
	if r.Config.Workload.ReloaderWatchAPI {
		role, err := workload.ReloaderRole(in)
		if err != nil {
			return invalid(err)
		}
		role.OwnerReferences = []metav1.OwnerReference{ownerRef(p)}
		if err := r.ensureHashed(ctx, rbacv1.SchemeGroupVersion.WithKind("Role"), role, role.Rules); err != nil {
			return err
		}
		rb := workload.ReloaderRoleBinding(p)
		rb.OwnerReferences = []metav1.OwnerReference{ownerRef(p)}
		if err := r.ensureHashed(ctx, rbacv1.SchemeGroupVersion.WithKind("RoleBinding"), rb, []any{rb.RoleRef, rb.Subjects}); err != nil {
			return err
		}
	}
	for _, desired := range sets {
		desired.OwnerReferences = []metav1.OwnerReference{ownerRef(p)}
		if err := r.applyStatefulSet(ctx, desired); err != nil {
			return err
		}
	}
	return nil
}

// ensureHashed sets the hash of content on obj and ensures it.
func (r *Reconciler) ensureHashed(ctx context.Context, gvk schemaGVK, obj client.Object, content any) error {
	h, err := hashJSON(content)
	if err != nil {
		return applyFailed(err)
	}
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann[layout.InputHashAnnotation] = h
	obj.SetAnnotations(ann)
	_, err = r.apply.Ensure(ctx, gvk, obj)
	return applyFailed(err)
}

func (r *Reconciler) applyStatefulSet(ctx context.Context, desired *appsv1.StatefulSet) error {
	live := &appsv1.StatefulSet{}
	err := r.Client.Get(ctx, nnOf(desired), live)
	switch {
	case apierrors.IsNotFound(err):
		_, err := r.apply.Ensure(ctx, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), desired)
		return applyFailed(err)
	case err != nil:
		return applyFailed(err)
	}
	if recreate, why := workload.NeedsRecreate(live, desired); recreate {
		if err := r.apply.Delete(ctx, live, "StatefulSet", client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
			return applyFailed(err)
		}
		return applyFailed(fmt.Errorf("StatefulSet %s/%s is being recreated (orphaning its pods) because %s changed; it is created again on the next reconcile", live.Namespace, live.Name, why))
	}
	if workload.UpToDate(live, desired) && ptr.Deref(live.Spec.Replicas, 1) == ptr.Deref(desired.Spec.Replicas, 1) {
		return nil
	}
	desired.ResourceVersion = live.ResourceVersion
	if err := r.Client.Update(ctx, desired); err != nil {
		return applyFailed(fmt.Errorf("updating StatefulSet %s/%s: %w", desired.Namespace, desired.Name, err))
	}
	countWrite("StatefulSet", "update")
	return nil
}

// applyGoverningService writes the headless Service shared by the Prometheus objects of a
// namespace; every one of them owns it, so it goes away with the last. The owners are all
// Prometheus objects of the namespace that use it, whichever operator instance manages
// them, so operators with disjoint instance selectors agree and never rewrite it in turn.
func (r *Reconciler) applyGoverningService(ctx context.Context, p *monitoringv1.Prometheus) error {
	svc := workload.GoverningService(p)
	var list monitoringv1.PrometheusList
	if err := r.Client.List(ctx, &list, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
		return applyFailed(err)
	}
	var owners []metav1.OwnerReference
	for i := range list.Items {
		o := &list.Items[i]
		if o.DeletionTimestamp == nil && workload.ManagesGoverningService(o) {
			ref := ownerRef(o)
			ref.Controller = nil
			owners = append(owners, ref)
		}
	}
	sort.Slice(owners, func(i, j int) bool { return owners[i].Name < owners[j].Name })
	svc.OwnerReferences = owners
	return r.ensureHashed(ctx, corev1.SchemeGroupVersion.WithKind("Service"), svc, []any{svc.Labels, svc.Spec, owners})
}

// deleteSurplus removes generated objects of p that are no longer needed: StatefulSets of
// shards scaled away, rule ConfigMaps and TLS assets Secrets beyond the current count.
func (r *Reconciler) deleteSurplus(ctx context.Context, p *monitoringv1.Prometheus, ruleCMs, tlsSecrets int) error {
	names, err := workload.StatefulSetNames(p)
	if err != nil {
		return invalid(err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var sets appsv1.StatefulSetList
	if err := r.Client.List(ctx, &sets, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
		return applyFailed(err)
	}
	for i := range sets.Items {
		s := &sets.Items[i]
		if ownedBy(s, p) && !want[s.Name] {
			if err := r.apply.Delete(ctx, s.DeepCopy(), "StatefulSet"); err != nil {
				return applyFailed(err)
			}
		}
	}
	for _, kind := range []struct {
		gvk   schemaGVK
		name  func(int) string
		count int
	}{
		{configMapGVK, func(i int) string { return layout.RuleConfigMapName(p.Name, i) }, ruleCMs},
		{secretGVK, func(i int) string { return layout.TLSAssetsSecretName(p.Name, i) }, tlsSecrets},
	} {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(kind.gvk.GroupVersion().WithKind(kind.gvk.Kind + "List"))
		if err := r.Client.List(ctx, list, client.InNamespace(p.Namespace), client.MatchingLabels{layout.ManagedByLabel: layout.ManagedByValue, layout.InstanceLabel: p.Name}); err != nil {
			return applyFailed(err)
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
			obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace}}
			obj.SetGroupVersionKind(kind.gvk)
			if err := r.apply.Delete(ctx, obj, kind.gvk.Kind); err != nil {
				return applyFailed(err)
			}
		}
	}
	return nil
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

func ownedBy(o metav1.Object, p *monitoringv1.Prometheus) bool {
	for _, ref := range o.GetOwnerReferences() {
		if ref.UID == p.UID {
			return true
		}
	}
	return false
}
