package operator

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// narrowed is a kind whose cache --secret-* or --configmap-* selectors narrow.
type narrowed struct {
	obj   client.Object
	label labels.Selector
	field fields.Selector
}

// narrowedKinds returns the Secret and ConfigMap selectors that narrow the cache.
func narrowedKinds(o Options) []narrowed {
	var out []narrowed
	for _, n := range []narrowed{
		{&corev1.Secret{}, o.SecretLabelSelector, o.SecretFieldSelector},
		{&corev1.ConfigMap{}, o.ConfigMapLabelSelector, o.ConfigMapFieldSelector},
	} {
		if !isEverything(n.label, n.field) {
			out = append(out, n)
		}
	}
	return out
}

func isEverything(l labels.Selector, f fields.Selector) bool {
	return (l == nil || l.Empty()) && (f == nil || f.Empty())
}

// withSelectors adds a kind's label and field selectors to every namespace of a cache
// namespace map (nil: all namespaces). Field selectors are ANDed with the namespace
// deny list that an all-namespaces entry may carry.
func withSelectors(ns map[string]cache.Config, l labels.Selector, f fields.Selector) map[string]cache.Config {
	if l != nil && l.Empty() {
		l = nil
	}
	if f != nil && f.Empty() {
		f = nil
	}
	if ns == nil {
		ns = map[string]cache.Config{cache.AllNamespaces: {}}
	}
	out := make(map[string]cache.Config, len(ns))
	for name, c := range ns {
		c.LabelSelector = l
		switch {
		case f == nil:
		case c.FieldSelector == nil:
			c.FieldSelector = f
		default:
			c.FieldSelector = fields.AndSelectors(c.FieldSelector, f)
		}
		out[name] = c
	}
	return out
}

// fallbackClient is the controllers' client when selectors narrow the Secret or ConfigMap
// cache. The objects the operator generates, or a monitor references, may lie outside
// the selection (prometheus-operator reads them with direct GETs too): a Get the cache
// answers NotFound is asked again of the API server, and a List of such a kind goes to
// the API server. Changes to objects outside the selection trigger no reconcile, as
// upstream.
type fallbackClient struct {
	client.Client
	api   client.Reader
	kinds map[schema.GroupKind]bool
}

func newFallbackClient(c client.Client, api client.Reader, o Options) client.Client {
	kinds := map[schema.GroupKind]bool{}
	for _, n := range narrowedKinds(o) {
		gvk, err := apiutil.GVKForObject(n.obj, c.Scheme())
		if err == nil {
			kinds[gvk.GroupKind()] = true
		}
	}
	if len(kinds) == 0 {
		return c
	}
	return &fallbackClient{Client: c, api: api, kinds: kinds}
}

func (c *fallbackClient) narrowed(obj client.Object) bool {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	return err == nil && c.kinds[gvk.GroupKind()]
}

// Get reads the cache, then the API server for a narrowed kind the cache does not hold.
func (c *fallbackClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if apierrors.IsNotFound(err) && c.narrowed(obj) {
		return c.api.Get(ctx, key, obj, opts...)
	}
	return err
}

// List lists a narrowed kind from the API server, every other kind from the cache.
func (c *fallbackClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	gvk, err := apiutil.GVKForObject(list, c.Scheme())
	if err == nil && len(gvk.Kind) > 4 && gvk.Kind[len(gvk.Kind)-4:] == "List" {
		if c.kinds[schema.GroupKind{Group: gvk.Group, Kind: gvk.Kind[:len(gvk.Kind)-4]}] {
			return c.api.List(ctx, list, opts...)
		}
	}
	return c.Client.List(ctx, list, opts...)
}
