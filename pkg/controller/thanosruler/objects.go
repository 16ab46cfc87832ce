package thanosruler

import (
	"context"
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/workload"
)

var (
	secretGVK    = corev1.SchemeGroupVersion.WithKind("Secret")
	configMapGVK = corev1.SchemeGroupVersion.WithKind("ConfigMap")
)

// ownerRef makes t an owner of what it generates (the controller when controller is set).
func ownerRef(t *monitoringv1.ThanosRuler, controller bool) metav1.OwnerReference {
	ref := metav1.OwnerReference{
		APIVersion: monitoringv1.SchemeGroupVersion.String(), Kind: monitoringv1.ThanosRulerKind,
		Name: t.Name, UID: t.UID, BlockOwnerDeletion: ptr.To(true),
	}
	if controller {
		ref.Controller = ptr.To(true)
	}
	return ref
}

// ownerRefs is t as the controlling owner.
func ownerRefs(t *monitoringv1.ThanosRuler) []metav1.OwnerReference {
	return []metav1.OwnerReference{ownerRef(t, true)}
}

// objectMeta is the metadata of a generated Secret or ConfigMap: the operator's labels,
// hash in the input-hash annotation, t as owner (the Writer adds the operator-wide
// labels).
func objectMeta(t *monitoringv1.ThanosRuler, name, hash string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: t.Namespace,
		Labels: map[string]string{
			layout.ManagedByLabel: layout.ManagedByValue, layout.NameLabel: workload.ThanosRulerNameValue,
			layout.InstanceLabel: t.Name, layout.ThanosRulerNameLabel: t.Name,
		},
		Annotations:     map[string]string{layout.InputHashAnnotation: hash},
		OwnerReferences: ownerRefs(t),
	}
}

// applyRuleConfigMaps writes the packed rule ConfigMaps, labelled thanos-ruler-name as
// prometheus-operator labels them (the caller deletes surplus ones after the StatefulSet
// is updated, so the ruler never misses rules).
func (r *Reconciler) applyRuleConfigMaps(ctx context.Context, t *monitoringv1.ThanosRuler, st *trState, res *rulefiles.Result) error {
	for i, data := range res.ConfigMaps {
		bin := make(map[string][]byte, len(data))
		for k, v := range data {
			bin[k] = []byte(v)
		}
		meta := objectMeta(t, layout.ThanosRuler(t.Name).RuleConfigMap(i), write.DataHash(bin))
		meta.Labels[layout.ThanosRulerRuleConfigMapLabel] = t.Name
		if err := r.Writer().Ensure(ctx, configMapGVK, &corev1.ConfigMap{ObjectMeta: meta, Data: data}); err != nil {
			return err
		}
	}
	st.rules.Written(res.ConfigMaps)
	r.Metrics.RuleConfigMaps.WithLabelValues(t.Namespace, t.Name).Set(float64(len(res.ConfigMaps)))
	return nil
}

// applyConfigSecret writes thanos-ruler-<name>-config, whose remote-write.yaml the pod
// always mounts (a remote_write list, empty without spec.remoteWrite), as
// prometheus-operator writes it.
func (r *Reconciler) applyConfigSecret(ctx context.Context, t *monitoringv1.ThanosRuler, remoteWrite []byte) error {
	data := map[string][]byte{layout.ThanosRulerRemoteWriteKey: remoteWrite}
	sec := &corev1.Secret{ObjectMeta: objectMeta(t, layout.ThanosRuler(t.Name).ConfigSecret(), write.DataHash(data)), Data: data}
	return r.Writer().Ensure(ctx, secretGVK, sec)
}

// applyTLSAssets writes the TLS files of the remote-write configuration into as many
// Secrets as needed and returns how many hold files; thanos-ruler-<name>-tls-assets-0
// exists even without a file, as prometheus-operator always creates it.
func (r *Reconciler) applyTLSAssets(ctx context.Context, t *monitoringv1.ThanosRuler, files map[string][]byte) (int, error) {
	parts, err := promcfg.SplitTLSAssets(files, write.MaxSecretData)
	if err != nil {
		return 0, outcome.Invalid(err)
	}
	for i, data := range write.AtLeastOne(parts) {
		sec := &corev1.Secret{ObjectMeta: objectMeta(t, layout.ThanosRuler(t.Name).TLSAssetsSecret(i), write.DataHash(data)), Data: data}
		if err := r.Writer().Ensure(ctx, secretGVK, sec); err != nil {
			return 0, err
		}
	}
	return len(parts), nil
}

// applyWebConfig writes thanos-ruler-<name>-web-config.
func (r *Reconciler) applyWebConfig(ctx context.Context, t *monitoringv1.ThanosRuler) error {
	cfg, err := workload.ThanosRulerWebConfig(t)
	if err != nil {
		return outcome.Invalid(err)
	}
	data := map[string][]byte{layout.WebConfigFile: cfg}
	sec := &corev1.Secret{ObjectMeta: objectMeta(t, layout.ThanosRuler(t.Name).WebConfigSecret(), write.DataHash(data)), Data: data}
	return r.Writer().Ensure(ctx, secretGVK, sec)
}

// deleteSurplus removes the rule ConfigMaps and TLS assets Secrets of t beyond the counts
// written. Only objects t owns are considered, and the Applier checks it again.
func (r *Reconciler) deleteSurplus(ctx context.Context, t *monitoringv1.ThanosRuler, ruleCMs, tlsSecrets int) error {
	names := layout.ThanosRuler(t.Name)
	for _, kind := range []struct {
		gvk   schema.GroupVersionKind
		name  func(int) string
		count int
	}{
		{configMapGVK, names.RuleConfigMap, ruleCMs},
		{secretGVK, names.TLSAssetsSecret, max(tlsSecrets, 1)},
	} {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(kind.gvk.GroupVersion().WithKind(kind.gvk.Kind + "List"))
		if err := r.Client.List(ctx, list, client.InNamespace(t.Namespace)); err != nil {
			return outcome.ApplyFailed(fmt.Errorf("listing %ss: %w", kind.gvk.Kind, err))
		}
		prefix := strings.TrimSuffix(kind.name(0), "0")
		for i := range list.Items {
			o := &list.Items[i]
			n, ok := strings.CutPrefix(o.Name, prefix)
			if !ok || !write.OwnedBy(o, t.UID) {
				continue
			}
			var idx int
			if _, err := fmt.Sscanf(n, "%d", &idx); err != nil || fmt.Sprint(idx) != n || idx < kind.count {
				continue
			}
			obj := o.DeepCopy()
			obj.SetGroupVersionKind(kind.gvk)
			if err := r.Applier.Delete(ctx, kind.gvk.Kind, obj, t.UID); err != nil {
				return outcome.ApplyFailed(err)
			}
		}
	}
	return nil
}
