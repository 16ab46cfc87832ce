package alertmanager

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/workload"
)

var (
	secretGVK = corev1.SchemeGroupVersion.WithKind("Secret")
)

// ownerRef makes a the controlling owner of what it generates.
func ownerRef(a *monitoringv1.Alertmanager) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: monitoringv1.SchemeGroupVersion.String(), Kind: monitoringv1.AlertmanagersKind,
		Name: a.Name, UID: a.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// objectMeta is the metadata of a generated Secret: the operator's labels, hash in the
// input-hash annotation, a as owner (the Writer adds the operator-wide labels).
func objectMeta(a *monitoringv1.Alertmanager, name, hash string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: a.Namespace,
		Labels: map[string]string{
			layout.ManagedByLabel: layout.ManagedByValue, layout.NameLabel: workload.AlertmanagerNameValue,
			layout.InstanceLabel: a.Name, layout.AlertmanagerNameLabel: a.Name,
		},
		Annotations:     map[string]string{layout.InputHashAnnotation: hash},
		OwnerReferences: []metav1.OwnerReference{ownerRef(a)},
	}
}

// applyConfig writes the generated config Secret alertmanager-<name>-generated: the
// gzipped configuration under alertmanager.yaml.gz and the config Secret's other keys.
func (r *Reconciler) applyConfig(ctx context.Context, a *monitoringv1.Alertmanager, st *amState, config []byte, extra map[string][]byte) error {
	hash, err := write.HashJSON(config)
	if err != nil {
		return outcome.ApplyFailed(err)
	}
	gz, err := st.gz.Compress(hash, config)
	if err != nil {
		return outcome.ApplyFailed(err)
	}
	data := map[string][]byte{}
	for k, v := range extra {
		data[k] = v
	}
	data[layout.AlertmanagerConfigCompressedKey] = gz
	size := 0
	for k, v := range data {
		size += len(k) + len(v)
	}
	if size > write.MaxSecretData {
		return outcome.Invalid(fmt.Errorf("the generated configuration Secret would hold %d bytes, more than the %d bytes a Secret can hold", size, write.MaxSecretData))
	}
	sec := &corev1.Secret{ObjectMeta: objectMeta(a, layout.AlertmanagerGeneratedSecretName(a.Name), write.DataHash(data)), Data: data}
	if err := r.Writer().Ensure(ctx, secretGVK, sec); err != nil {
		return err
	}
	r.Metrics.ConfigSize.WithLabelValues(a.Namespace, a.Name, "plain").Set(float64(len(config)))
	r.Metrics.ConfigSize.WithLabelValues(a.Namespace, a.Name, "gzip").Set(float64(len(gz)))
	sum := sha256.Sum256(config)
	r.Metrics.SetConfigInfo(a.Namespace, a.Name, hex.EncodeToString(sum[:]))
	return nil
}

// applyTLSAssets writes the TLS files into as many Secrets as needed (at least one, so
// that alertmanager-<name>-tls-assets-0 always exists) and returns how many.
func (r *Reconciler) applyTLSAssets(ctx context.Context, a *monitoringv1.Alertmanager, files map[string][]byte) (int, error) {
	parts, err := promcfg.SplitTLSAssets(files, write.MaxSecretData)
	if err != nil {
		return 0, outcome.Invalid(err)
	}
	parts = write.AtLeastOne(parts)
	for i, data := range parts {
		sec := &corev1.Secret{ObjectMeta: objectMeta(a, layout.AlertmanagerTLSAssetsSecretName(a.Name, i), write.DataHash(data)), Data: data}
		if err := r.Writer().Ensure(ctx, secretGVK, sec); err != nil {
			return 0, err
		}
	}
	return len(parts), nil
}

// applyWebConfig writes alertmanager-<name>-web-config, which the pod always mounts.
func (r *Reconciler) applyWebConfig(ctx context.Context, a *monitoringv1.Alertmanager) error {
	cfg, err := workload.AlertmanagerWebConfig(a)
	if err != nil {
		return outcome.Invalid(err)
	}
	data := map[string][]byte{layout.WebConfigFile: cfg}
	sec := &corev1.Secret{ObjectMeta: objectMeta(a, layout.AlertmanagerWebConfigSecretName(a.Name), write.DataHash(data)), Data: data}
	return r.Writer().Ensure(ctx, secretGVK, sec)
}

// applyClusterTLSConfig writes alertmanager-<name>-cluster-tls-config: the cluster TLS
// configuration, empty without spec.clusterTLS (as prometheus-operator always writes
// it; only a pod with spec.clusterTLS mounts it).
func (r *Reconciler) applyClusterTLSConfig(ctx context.Context, a *monitoringv1.Alertmanager) error {
	cfg, err := workload.AlertmanagerClusterTLSConfig(a)
	if err != nil {
		return outcome.Invalid(err)
	}
	data := map[string][]byte{layout.AlertmanagerClusterTLSFile: cfg}
	sec := &corev1.Secret{ObjectMeta: objectMeta(a, layout.AlertmanagerClusterTLSSecretName(a.Name), write.DataHash(data)), Data: data}
	return r.Writer().Ensure(ctx, secretGVK, sec)
}

// deleteSurplusTLSAssets removes the TLS assets Secrets of a beyond the count written.
func (r *Reconciler) deleteSurplusTLSAssets(ctx context.Context, a *monitoringv1.Alertmanager, count int) error {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
	if err := r.Client.List(ctx, list, client.InNamespace(a.Namespace)); err != nil {
		return outcome.ApplyFailed(fmt.Errorf("listing Secrets: %w", err))
	}
	prefix := strings.TrimSuffix(layout.AlertmanagerTLSAssetsSecretName(a.Name, 0), "0")
	for i := range list.Items {
		o := &list.Items[i]
		n, ok := strings.CutPrefix(o.Name, prefix)
		if !ok || !ownedBy(o, a) {
			continue
		}
		var idx int
		if _, err := fmt.Sscanf(n, "%d", &idx); err != nil || fmt.Sprint(idx) != n || idx < count {
			continue
		}
		obj := o.DeepCopy()
		obj.SetGroupVersionKind(secretGVK)
		if err := r.Applier.Delete(ctx, "Secret", obj, a.UID); err != nil {
			return outcome.ApplyFailed(err)
		}
	}
	return nil
}

func ownedBy(o metav1.Object, a *monitoringv1.Alertmanager) bool { return write.OwnedBy(o, a.UID) }
