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

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// APIStore resolves references for the controller. Versions come from the metadata-only
// informer cache (every Secret's metadata, never its data); values are read from the API
// server only when referenced, and kept while their resourceVersion does not change.
// Lookups run in the context of one reconcile: see For.
type APIStore struct {
	meta   client.Reader
	reader client.Reader

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

// NewAPIStore returns a store over a metadata cache and a direct reader.
func NewAPIStore(meta, reader client.Reader) *APIStore {
	return &APIStore{meta: meta, reader: reader, items: map[assetKey]*cachedAsset{}}
}

// For returns the store's promcfg.Assets for one reconcile: its reads use ctx (and stop
// with it), and a cache or API failure is reported as promcfg.ErrUnavailable (the
// reconcile is retried) rather than as a missing object (which would reject a monitor).
func (s *APIStore) For(ctx context.Context) promcfg.Assets { return &boundStore{s: s, ctx: ctx} }

type boundStore struct {
	s   *APIStore
	ctx context.Context
}

var _ promcfg.Assets = (*boundStore)(nil)

// Version implements promcfg.Assets from the metadata cache; "" means missing, and also
// unreadable (Get then tells the two apart).
func (b *boundStore) Version(kind promcfg.AssetKind, ns, name string) string {
	v, _ := b.s.version(b.ctx, kind, ns, name)
	return v
}

// Get implements promcfg.Assets.
func (b *boundStore) Get(ref promcfg.AssetRef) ([]byte, error) {
	key := assetKey{ref.Kind, ref.Namespace, ref.Name}
	version, err := b.s.version(b.ctx, ref.Kind, ref.Namespace, ref.Name)
	if err != nil {
		return nil, fmt.Errorf("reading the metadata of %s %s/%s: %w: %w", lower(ref.Kind), ref.Namespace, ref.Name, promcfg.ErrUnavailable, err)
	}
	if version == "" {
		b.s.forget(key)
		return nil, fmt.Errorf("%s %s/%s: %w", lower(ref.Kind), ref.Namespace, ref.Name, promcfg.ErrNotFound)
	}
	b.s.mu.Lock()
	item := b.s.items[key]
	b.s.mu.Unlock()
	if item == nil || item.version != version {
		if item, err = b.s.fetch(b.ctx, key); err != nil {
			return nil, err
		}
	}
	v, ok := item.data[ref.Key]
	if !ok {
		return nil, fmt.Errorf("%s %s/%s has no key %q: %w", lower(ref.Kind), ref.Namespace, ref.Name, ref.Key, promcfg.ErrNotFound)
	}
	return v, nil
}

// version reads an object's resourceVersion from the metadata cache: "" and no error when
// it does not exist.
func (s *APIStore) version(ctx context.Context, kind promcfg.AssetKind, ns, name string) (string, error) {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(string(kind)))
	err := s.meta.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, m)
	switch {
	case apierrors.IsNotFound(err):
		return "", nil
	case err != nil:
		return "", err
	}
	return m.ResourceVersion, nil
}

func (s *APIStore) fetch(ctx context.Context, key assetKey) (*cachedAsset, error) {
	nn := types.NamespacedName{Namespace: key.namespace, Name: key.name}
	item := &cachedAsset{data: map[string][]byte{}}
	var err error
	switch key.kind {
	case promcfg.SecretAsset:
		sec := &corev1.Secret{}
		if err = s.reader.Get(ctx, nn, sec); err == nil {
			item.version, item.data = sec.ResourceVersion, sec.Data
		}
	case promcfg.ConfigMapAsset:
		cm := &corev1.ConfigMap{}
		if err = s.reader.Get(ctx, nn, cm); err == nil {
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
