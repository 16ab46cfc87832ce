package promcfg

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// AssetKind is Secret or ConfigMap.
type AssetKind string

const (
	SecretAsset    AssetKind = "Secret"
	ConfigMapAsset AssetKind = "ConfigMap"
)

// AssetRef names one key of a Secret or ConfigMap.
type AssetRef struct {
	Kind      AssetKind
	Namespace string
	Name      string
	Key       string
}

func (r AssetRef) String() string {
	return fmt.Sprintf("%s %s/%s key %q", strings.ToLower(string(r.Kind)), r.Namespace, r.Name, r.Key)
}

// ErrNotFound is wrapped by Assets.Get when the object or key does not exist.
var ErrNotFound = errors.New("not found")

// ErrUnavailable is wrapped by Assets.Get when the value could not be read for a reason
// that says nothing about the monitor (an API timeout, say): generation fails as a whole
// and is retried, instead of rejecting the monitor.
var ErrUnavailable = errors.New("temporarily unavailable")

// Assets resolves Secret and ConfigMap keys. Implementations live in pkg/assets (API-backed
// for the controller, file-backed for `render`).
type Assets interface {
	// Get returns the value of a key, or an error naming what is missing.
	Get(ref AssetRef) ([]byte, error)
	// Version returns an opaque version of the object (its resourceVersion), "" when it
	// does not exist. Generation uses it to know when a cached rendering is stale.
	Version(kind AssetKind, namespace, name string) string
}

// assetDep is one object a rendering read, with the version it had.
type assetDep struct {
	kind            AssetKind
	namespace, name string
	version         string
}

// recorder wraps Assets for one monitor's rendering: it records every object read and
// collects the TLS files the rendering needs.
type recorder struct {
	inner     Assets
	deps      []assetDep
	tlsAssets map[string][]byte
	// secretValues are the values read from Secrets, which messages must not show.
	secretValues map[string]bool
	// tlsDir is where the server finds the TLS files ("": layout.TLSAssetsDir, the
	// Prometheus pod's).
	tlsDir string
}

func newRecorder(a Assets) *recorder { return &recorder{inner: a} }

func (r *recorder) get(ref AssetRef) ([]byte, error) {
	if r.inner == nil {
		return nil, fmt.Errorf("%s: %w", ref, ErrNotFound)
	}
	found := false
	for _, d := range r.deps {
		if d.kind == ref.Kind && d.namespace == ref.Namespace && d.name == ref.Name {
			found = true
			break
		}
	}
	if !found {
		r.deps = append(r.deps, assetDep{ref.Kind, ref.Namespace, ref.Name, r.inner.Version(ref.Kind, ref.Namespace, ref.Name)})
	}
	return r.inner.Get(ref)
}

// setSecret sets key of m to the value of the Secret key sel names in namespace ns;
// nothing when sel is nil. field names sel in errors.
func (r *recorder) setSecret(m *M, ns, key, field string, sel *corev1.SecretKeySelector) error {
	if sel == nil {
		return nil
	}
	v, err := r.secret(ns, *sel)
	if err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	m.Set(key, v)
	return nil
}

func (r *recorder) secret(ns string, sel corev1.SecretKeySelector) (string, error) {
	if sel.Name == "" || sel.Key == "" {
		return "", fmt.Errorf("secret reference needs a name and a key")
	}
	v, err := r.get(AssetRef{SecretAsset, ns, sel.Name, sel.Key})
	if err == nil {
		if r.secretValues == nil {
			r.secretValues = map[string]bool{}
		}
		r.secretValues[string(v)] = true
	}
	return string(v), err
}

func (r *recorder) configMap(ns string, sel corev1.ConfigMapKeySelector) (string, error) {
	if sel.Name == "" || sel.Key == "" {
		return "", fmt.Errorf("configmap reference needs a name and a key")
	}
	v, err := r.get(AssetRef{ConfigMapAsset, ns, sel.Name, sel.Key})
	return string(v), err
}

// tlsFile resolves a Secret or ConfigMap key into a file under the tls-assets mount and
// returns its path in the pod and its content ("" and nil when s names nothing, or an
// optional object that does not exist).
func (r *recorder) tlsFile(ns string, s monitoringv1.SecretOrConfigMap) (string, []byte, error) {
	var (
		ref AssetRef
		opt *bool
	)
	switch {
	case s.Secret != nil && s.ConfigMap != nil:
		return "", nil, fmt.Errorf("cannot specify both secret and configMap")
	case s.Secret != nil:
		ref, opt = AssetRef{SecretAsset, ns, s.Secret.Name, s.Secret.Key}, s.Secret.Optional
	case s.ConfigMap != nil:
		ref, opt = AssetRef{ConfigMapAsset, ns, s.ConfigMap.Name, s.ConfigMap.Key}, s.ConfigMap.Optional
	default:
		return "", nil, nil
	}
	if ref.Name == "" || ref.Key == "" {
		return "", nil, fmt.Errorf("%s reference needs a name and a key", strings.ToLower(string(ref.Kind)))
	}
	data, err := r.get(ref)
	if err != nil {
		if opt != nil && *opt && errors.Is(err, ErrNotFound) {
			return "", nil, nil
		}
		return "", nil, err
	}
	if err := checkTLSAssetSize(ref, data); err != nil {
		return "", nil, err
	}
	return r.addTLSAsset(ref, data), data, nil
}

// tlsKey resolves a Secret key holding a private key into a tls-assets file, and returns
// its path in the pod and its content.
func (r *recorder) tlsKey(ns string, sel *corev1.SecretKeySelector) (string, []byte, error) {
	if sel == nil {
		return "", nil, nil
	}
	if sel.Name == "" || sel.Key == "" {
		return "", nil, fmt.Errorf("secret reference needs a name and a key")
	}
	ref := AssetRef{SecretAsset, ns, sel.Name, sel.Key}
	data, err := r.get(ref)
	if err != nil {
		return "", nil, err
	}
	if err := checkTLSAssetSize(ref, data); err != nil {
		return "", nil, err
	}
	return r.addTLSAsset(ref, data), data, nil
}

// TLSAssetFileName is the file name of a referenced key in the tls-assets Secrets
// (layout.TLSAssetKey, shared with the other kinds).
func TLSAssetFileName(ref AssetRef) string {
	return layout.TLSAssetKey(string(ref.Kind), ref.Namespace, ref.Name, ref.Key)
}

// checkTLSAssetSize rejects a TLS file over MaxTLSAssetBytes.
func checkTLSAssetSize(ref AssetRef, data []byte) error {
	if len(data) > MaxTLSAssetBytes {
		return fmt.Errorf("%s is %d bytes, more than the %d bytes one CA, certificate or key may have", ref, len(data), MaxTLSAssetBytes)
	}
	return nil
}

func (r *recorder) addTLSAsset(ref AssetRef, data []byte) string {
	name := TLSAssetFileName(ref)
	if r.tlsAssets == nil {
		r.tlsAssets = map[string][]byte{}
	}
	r.tlsAssets[name] = data
	if r.tlsDir != "" {
		return r.tlsDir + "/" + name
	}
	return layout.TLSAssetsDir + "/" + name
}

// stale reports whether any object read has changed since.
func depsStale(a Assets, deps []assetDep) bool {
	for _, d := range deps {
		if a == nil || a.Version(d.kind, d.namespace, d.name) != d.version {
			return true
		}
	}
	return false
}
