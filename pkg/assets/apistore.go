package assets

import (
	"context"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/promcfg"
)

// APIStore resolves references for the controller. Versions come from the metadata-only
// informer cache (every Secret's metadata, never its data); values are read from the API
// server only when referenced, and kept while their resourceVersion does not change.
type APIStore struct {
	// Meta reads PartialObjectMetadata from the manager's cache.
	Meta client.Reader
	// Reader reads full objects from the API server (the manager's APIReader).
	Reader client.Reader

	mu    sync.Mutex
	items map[assetKey]*cachedAsset
}

type assetKey struct {
	kind      promcfg.AssetKind
	namespace string
	name      string
}

type cachedAsset struct {
	version string
	data    map[string][]byte
}

var _ promcfg.Assets = (*APIStore)(nil)

// NewAPIStore returns a store over a metadata cache and a direct reader.
func NewAPIStore(meta, reader client.Reader) *APIStore {
	return &APIStore{Meta: meta, Reader: reader, items: map[assetKey]*cachedAsset{}}
}

// Version implements promcfg.Assets from the metadata cache.
func (s *APIStore) Version(kind promcfg.AssetKind, ns, name string) string {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(string(kind)))
	if err := s.Meta.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, m); err != nil {
		return ""
	}
	return m.ResourceVersion
}

// Get implements promcfg.Assets.
func (s *APIStore) Get(ref promcfg.AssetRef) ([]byte, error) {
	key := assetKey{ref.Kind, ref.Namespace, ref.Name}
	version := s.Version(ref.Kind, ref.Namespace, ref.Name)
	if version == "" {
		s.forget(key)
		return nil, fmt.Errorf("%s %s/%s: %w", lower(ref.Kind), ref.Namespace, ref.Name, promcfg.ErrNotFound)
	}
	s.mu.Lock()
	item := s.items[key]
	s.mu.Unlock()
	if item == nil || item.version != version {
		var err error
		if item, err = s.fetch(key); err != nil {
			return nil, err
		}
	}
	v, ok := item.data[ref.Key]
	if !ok {
		return nil, fmt.Errorf("%s %s/%s has no key %q: %w", lower(ref.Kind), ref.Namespace, ref.Name, ref.Key, promcfg.ErrNotFound)
	}
	return v, nil
}

func (s *APIStore) fetch(key assetKey) (*cachedAsset, error) {
	ctx := context.Background()
	nn := types.NamespacedName{Namespace: key.namespace, Name: key.name}
	item := &cachedAsset{data: map[string][]byte{}}
	var err error
	switch key.kind {
	case promcfg.SecretAsset:
		sec := &corev1.Secret{}
		if err = s.Reader.Get(ctx, nn, sec); err == nil {
			item.version, item.data = sec.ResourceVersion, sec.Data
		}
	case promcfg.ConfigMapAsset:
		cm := &corev1.ConfigMap{}
		if err = s.Reader.Get(ctx, nn, cm); err == nil {
			item.version = cm.ResourceVersion
			for k, v := range cm.Data {
				item.data[k] = []byte(v)
			}
			for k, v := range cm.BinaryData {
				item.data[k] = v
			}
		}
	default:
		return nil, fmt.Errorf("unknown asset kind %q", key.kind)
	}
	if apierrors.IsNotFound(err) {
		s.forget(key)
		return nil, fmt.Errorf("%s %s/%s: %w", lower(key.kind), key.namespace, key.name, promcfg.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s %s/%s: %w: %w", lower(key.kind), key.namespace, key.name, promcfg.ErrUnavailable, err)
	}
	s.mu.Lock()
	s.items[key] = item
	s.mu.Unlock()
	return item, nil
}

func (s *APIStore) forget(key assetKey) {
	s.mu.Lock()
	delete(s.items, key)
	s.mu.Unlock()
}

// Len is the number of objects whose data the store holds.
func (s *APIStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

func lower(k promcfg.AssetKind) string {
	if k == promcfg.SecretAsset {
		return "secret"
	}
	return "configmap"
}
