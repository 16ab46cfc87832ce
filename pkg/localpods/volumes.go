package localpods

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/reloader/atomicdir"
)

// volumeDir is the host directory of a pod volume.
func (p *pod) volumeDir(name string) string { return filepath.Join(p.dir, "volumes", name) }

// hasFiles tells whether a volume holds files projected from the API.
func hasFiles(v corev1.Volume) bool {
	return v.Secret != nil || v.ConfigMap != nil || v.Projected != nil
}

// makeDirs creates the directories of emptyDir and claim volumes.
func (p *pod) makeDirs(spec *corev1.PodSpec, claims map[string]bool) error {
	for _, v := range spec.Volumes {
		switch {
		case hasFiles(v):
		case v.EmptyDir != nil, v.PersistentVolumeClaim != nil:
			if err := os.MkdirAll(p.volumeDir(v.Name), 0o755); err != nil {
				return err
			}
		default:
			return fmt.Errorf("volume %s: only secret, configMap, projected, emptyDir and claim volumes run locally", v.Name)
		}
	}
	for name := range claims {
		if err := os.MkdirAll(p.volumeDir(name), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// projectVolumes brings every Secret, ConfigMap and projected volume up to date, kubelet
// style. It returns the volumes whose non-optional sources do not exist yet (they keep
// their last content).
func (p *pod) projectVolumes(ctx context.Context, spec *corev1.PodSpec) (missing []string, err error) {
	for _, v := range spec.Volumes {
		if !hasFiles(v) {
			continue
		}
		files := map[string][]byte{}
		complete := true
		switch {
		case v.Secret != nil:
			complete, err = p.addSecret(ctx, files, v.Secret.SecretName, v.Secret.Items, ptr.Deref(v.Secret.Optional, false))
		case v.ConfigMap != nil:
			complete, err = p.addConfigMap(ctx, files, v.ConfigMap.Name, v.ConfigMap.Items, ptr.Deref(v.ConfigMap.Optional, false))
		case v.Projected != nil:
			for _, src := range v.Projected.Sources {
				ok := true
				switch {
				case src.Secret != nil:
					ok, err = p.addSecret(ctx, files, src.Secret.Name, src.Secret.Items, ptr.Deref(src.Secret.Optional, false))
				case src.ConfigMap != nil:
					ok, err = p.addConfigMap(ctx, files, src.ConfigMap.Name, src.ConfigMap.Items, ptr.Deref(src.ConfigMap.Optional, false))
				}
				if err != nil {
					break
				}
				complete = complete && ok
			}
		}
		if err != nil {
			return nil, fmt.Errorf("volume %s: %w", v.Name, err)
		}
		if !complete {
			missing = append(missing, v.Name)
			continue
		}
		for name, data := range files {
			if isPrometheusConfig(filepath.Base(name)) {
				p.mu.Lock()
				rw := p.config
				p.mu.Unlock()
				rw.addresses = p.r.addressMap()
				out, err := rw.rewriteFile(name, data)
				if err != nil {
					return nil, fmt.Errorf("volume %s: rewriting %s: %w", v.Name, name, err)
				}
				files[name] = out
			}
		}
		changed, err := atomicdir.Write(p.volumeDir(v.Name), files)
		if err != nil {
			return nil, fmt.Errorf("volume %s: %w", v.Name, err)
		}
		p.mu.Lock()
		running := p.template != nil
		p.mu.Unlock()
		if changed && running {
			p.logf("volume %s updated from the API", v.Name)
		}
	}
	return missing, nil
}

// addSecret adds a Secret's keys (or the listed items) to files; false when a required
// Secret or key is missing.
func (p *pod) addSecret(ctx context.Context, files map[string][]byte, name string, items []corev1.KeyToPath, optional bool) (bool, error) {
	var s corev1.Secret
	err := p.r.o.Client.Get(ctx, types.NamespacedName{Namespace: p.namespace, Name: name}, &s)
	if apierrors.IsNotFound(err) {
		return optional, nil
	}
	if err != nil {
		return false, fmt.Errorf("secret %s: %w", name, err)
	}
	return addKeys(files, s.Data, items, optional), nil
}

// addConfigMap is addSecret for a ConfigMap (data and binaryData).
func (p *pod) addConfigMap(ctx context.Context, files map[string][]byte, name string, items []corev1.KeyToPath, optional bool) (bool, error) {
	var cm corev1.ConfigMap
	err := p.r.o.Client.Get(ctx, types.NamespacedName{Namespace: p.namespace, Name: name}, &cm)
	if apierrors.IsNotFound(err) {
		return optional, nil
	}
	if err != nil {
		return false, fmt.Errorf("configmap %s: %w", name, err)
	}
	data := make(map[string][]byte, len(cm.Data)+len(cm.BinaryData))
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	for k, v := range cm.BinaryData {
		data[k] = v
	}
	return addKeys(files, data, items, optional), nil
}

func addKeys(files, data map[string][]byte, items []corev1.KeyToPath, optional bool) bool {
	if len(items) == 0 {
		for k, v := range data {
			files[k] = v
		}
		return true
	}
	for _, it := range items {
		v, ok := data[it.Key]
		if !ok {
			if optional {
				continue
			}
			return false
		}
		files[it.Path] = v
	}
	return true
}
