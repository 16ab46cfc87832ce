package assets

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// Static is an in-memory promcfg.Assets over a fixed set of Secrets and ConfigMaps.
type Static struct {
	secrets    map[string]*corev1.Secret
	configMaps map[string]*corev1.ConfigMap
}

var _ promcfg.Assets = (*Static)(nil)

// NewStatic indexes the given objects.
func NewStatic(secrets []*corev1.Secret, configMaps []*corev1.ConfigMap) *Static {
	s := &Static{secrets: map[string]*corev1.Secret{}, configMaps: map[string]*corev1.ConfigMap{}}
	for _, o := range secrets {
		s.secrets[o.Namespace+"/"+o.Name] = o
	}
	for _, o := range configMaps {
		s.configMaps[o.Namespace+"/"+o.Name] = o
	}
	return s
}

// Get implements promcfg.Assets.
func (s *Static) Get(ref promcfg.AssetRef) ([]byte, error) {
	return lookup(ref, s.secrets[ref.Namespace+"/"+ref.Name], s.configMaps[ref.Namespace+"/"+ref.Name])
}

// Version implements promcfg.Assets.
func (s *Static) Version(kind promcfg.AssetKind, ns, name string) string {
	switch kind {
	case promcfg.SecretAsset:
		if o := s.secrets[ns+"/"+name]; o != nil {
			return versionOf(o.ResourceVersion)
		}
	case promcfg.ConfigMapAsset:
		if o := s.configMaps[ns+"/"+name]; o != nil {
			return versionOf(o.ResourceVersion)
		}
	}
	return ""
}

// versionOf keeps objects without a resourceVersion (read from files) distinguishable
// from missing ones.
func versionOf(rv string) string {
	if rv == "" {
		return "present"
	}
	return rv
}

// lookup extracts a key from whichever object the reference names.
func lookup(ref promcfg.AssetRef, sec *corev1.Secret, cm *corev1.ConfigMap) ([]byte, error) {
	switch ref.Kind {
	case promcfg.SecretAsset:
		if sec == nil {
			return nil, fmt.Errorf("secret %s/%s: %w", ref.Namespace, ref.Name, promcfg.ErrNotFound)
		}
		if v, ok := sec.Data[ref.Key]; ok {
			return v, nil
		}
		if v, ok := sec.StringData[ref.Key]; ok {
			return []byte(v), nil
		}
		return nil, fmt.Errorf("secret %s/%s has no key %q: %w", ref.Namespace, ref.Name, ref.Key, promcfg.ErrNotFound)
	case promcfg.ConfigMapAsset:
		if cm == nil {
			return nil, fmt.Errorf("configmap %s/%s: %w", ref.Namespace, ref.Name, promcfg.ErrNotFound)
		}
		if v, ok := cm.Data[ref.Key]; ok {
			return []byte(v), nil
		}
		if v, ok := cm.BinaryData[ref.Key]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("configmap %s/%s has no key %q: %w", ref.Namespace, ref.Name, ref.Key, promcfg.ErrNotFound)
	}
	return nil, fmt.Errorf("unknown asset kind %q", ref.Kind)
}
