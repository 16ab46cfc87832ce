package localpods

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SourceKind is the kind of object a volume's files come from.
type SourceKind string

// The kinds SourceFiles reads.
const (
	SecretSource    SourceKind = "Secret"
	ConfigMapSource SourceKind = "ConfigMap"
)

// SourceFiles adds the keys of a Secret or ConfigMap (all of them, or the listed items at
// their paths) to files, as the kubelet fills a secret, configMap or projected volume. A
// missing object or key is returned in absent ("Secret name", "key k of ConfigMap name")
// unless optional, in which case it adds nothing. Both this package and the end-to-end
// suite's kubelet project volumes with it.
func SourceFiles(ctx context.Context, c client.Reader, files map[string][]byte, kind SourceKind, namespace, name string, items []corev1.KeyToPath, optional bool) (absent []string, err error) {
	data := map[string][]byte{}
	key := types.NamespacedName{Namespace: namespace, Name: name}
	switch kind {
	case SecretSource:
		var sec corev1.Secret
		if err = c.Get(ctx, key, &sec); err == nil {
			data = sec.Data
		}
	case ConfigMapSource:
		var cm corev1.ConfigMap
		if err = c.Get(ctx, key, &cm); err == nil {
			for k, v := range cm.Data {
				data[k] = []byte(v)
			}
			for k, v := range cm.BinaryData {
				data[k] = v
			}
		}
	default:
		return nil, fmt.Errorf("unknown volume source kind %q", kind)
	}
	if apierrors.IsNotFound(err) {
		if optional {
			return nil, nil
		}
		return []string{string(kind) + " " + name}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", kind, namespace, name, err)
	}
	if len(items) == 0 {
		for k, v := range data {
			files[k] = v
		}
		return nil, nil
	}
	for _, it := range items {
		v, ok := data[it.Key]
		if !ok {
			if optional {
				continue
			}
			return []string{fmt.Sprintf("key %s of %s %s", it.Key, kind, name)}, nil
		}
		files[it.Path] = v
	}
	return nil, nil
}

// VolumeFiles collects the files of a secret, configMap or projected volume from the API,
// the way the kubelet fills it. Projections other than Secrets and ConfigMaps (service
// account tokens, downward API) go to other, which adds their files; a nil other leaves
// them out. absent lists the required sources that do not exist (the kubelet waits for
// them, and keeps a volume's last content meanwhile). ok is false for a volume that holds
// no files from the API (emptyDir, a claim, ...).
func VolumeFiles(ctx context.Context, c client.Reader, namespace string, v corev1.Volume, other func(src corev1.VolumeProjection, files map[string][]byte) error) (files map[string][]byte, absent []string, ok bool, err error) {
	files = map[string][]byte{}
	switch {
	case v.Secret != nil:
		absent, err = SourceFiles(ctx, c, files, SecretSource, namespace, v.Secret.SecretName, v.Secret.Items, ptr.Deref(v.Secret.Optional, false))
	case v.ConfigMap != nil:
		absent, err = SourceFiles(ctx, c, files, ConfigMapSource, namespace, v.ConfigMap.Name, v.ConfigMap.Items, ptr.Deref(v.ConfigMap.Optional, false))
	case v.Projected != nil:
		for _, src := range v.Projected.Sources {
			var a []string
			switch {
			case src.Secret != nil:
				a, err = SourceFiles(ctx, c, files, SecretSource, namespace, src.Secret.Name, src.Secret.Items, ptr.Deref(src.Secret.Optional, false))
			case src.ConfigMap != nil:
				a, err = SourceFiles(ctx, c, files, ConfigMapSource, namespace, src.ConfigMap.Name, src.ConfigMap.Items, ptr.Deref(src.ConfigMap.Optional, false))
			case other != nil:
				err = other(src, files)
			}
			if err != nil {
				break
			}
			absent = append(absent, a...)
		}
	default:
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, true, fmt.Errorf("volume %s: %w", v.Name, err)
	}
	return files, absent, true, nil
}
