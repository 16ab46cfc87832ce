package operator

import (
	"context"
	"reflect"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func TestSecretSelectorsNarrowTheCache(t *testing.T) {
	o := DefaultOptions()
	o.DenyNamespaces = []string{"kube-system"}
	o.SecretFieldSelector = fields.OneTermNotEqualSelector("type", "helm.sh/release.v1")
	o.ConfigMapLabelSelector = labels.SelectorFromSet(labels.Set{"team": "a"})
	co := cacheOptions(o)
	var got []string
	for obj, b := range co.ByObject {
		for ns, c := range b.Namespaces {
			l, f := "", ""
			if c.LabelSelector != nil {
				l = c.LabelSelector.String()
			}
			if c.FieldSelector != nil {
				f = c.FieldSelector.String()
			}
			got = append(got, reflect.TypeOf(obj).Elem().Name()+" "+ns+" label="+l+" field="+f)
		}
	}
	sort.Strings(got)
	want := []string{
		"ConfigMap  label=team=a field=metadata.namespace!=kube-system",
		"Secret  label= field=metadata.namespace!=kube-system,type!=helm.sh/release.v1",
		"Service  label=app.kubernetes.io/managed-by=prometheus-operator field=metadata.namespace!=kube-system",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cache configuration\n got %q\nwant %q", got, want)
	}
	for obj, b := range cacheOptions(DefaultOptions()).ByObject {
		if _, ok := obj.(*corev1.Service); ok {
			continue
		}
		// The monitors and rules have a transform of their own (internMonitor), nothing else.
		if b.Label != nil || b.Field != nil || b.Namespaces != nil {
			t.Fatalf("the default selectors narrow the cache of %T", obj)
		}
	}
	only := withSelectors(map[string]cache.Config{"a": {}}, labels.Everything(), fields.Everything())
	if c := only["a"]; c.LabelSelector != nil || c.FieldSelector != nil {
		t.Fatalf("empty selectors kept: %+v", c)
	}
}

func TestFallbackClient(t *testing.T) {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	outside := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "creds"}}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "cm"}}
	cached := fake.NewClientBuilder().WithScheme(s).Build()
	api := fake.NewClientBuilder().WithScheme(s).WithObjects(outside, cm).Build()

	o := DefaultOptions()
	if c := newFallbackClient(cached, api, o); c != client.Client(cached) {
		t.Fatal("wrapped without selectors")
	}
	o.SecretLabelSelector = labels.SelectorFromSet(labels.Set{"team": "a"})
	c := newFallbackClient(cached, api, o)
	ctx := context.Background()

	meta := &metav1.PartialObjectMetadata{}
	meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	if err := c.Get(ctx, types.NamespacedName{Namespace: "a", Name: "creds"}, meta); err != nil {
		t.Fatalf("a Secret outside the cache: %v", err)
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "a", Name: "missing"}, &corev1.Secret{}); !apierrors.IsNotFound(err) {
		t.Fatalf("a missing Secret: %v", err)
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "a", Name: "cm"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Fatalf("ConfigMaps are not narrowed, so the cache answers: %v", err)
	}
	var secrets corev1.SecretList
	if err := c.List(ctx, &secrets, client.InNamespace("a")); err != nil || len(secrets.Items) != 1 {
		t.Fatalf("listing Secrets from the API server: %v, %d items", err, len(secrets.Items))
	}
	var cms corev1.ConfigMapList
	if err := c.List(ctx, &cms, client.InNamespace("a")); err != nil || len(cms.Items) != 0 {
		t.Fatalf("listing ConfigMaps from the cache: %v, %d items", err, len(cms.Items))
	}
}
