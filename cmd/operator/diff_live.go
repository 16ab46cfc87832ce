package main

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/render"
)

// liveKinds are the kinds `diff --live` reads from every namespace: the instances and
// what they select. Secrets and ConfigMaps are read from the namespaces these live in.
var liveKinds = func() []schema.GroupVersionKind {
	v1 := schema.GroupVersion{Group: "monitoring.coreos.com", Version: "v1"}
	v1alpha1 := schema.GroupVersion{Group: "monitoring.coreos.com", Version: "v1alpha1"}
	kinds := []schema.GroupVersionKind{
		{Version: "v1", Kind: "Namespace"},
		v1.WithKind("Prometheus"), v1alpha1.WithKind("PrometheusAgent"), v1.WithKind("Alertmanager"),
		v1.WithKind("ThanosRuler"), v1.WithKind("PrometheusRule"), v1alpha1.WithKind("AlertmanagerConfig"),
	}
	for _, k := range monitorkind.All {
		kinds = append(kinds, schema.FromAPIVersionAndKind(k.APIVersion, k.Name))
	}
	return kinds
}()

// liveClient is a read-only client of the cluster of cfg, with cfg's credentials.
func liveClient(cfg *rest.Config) (client.Reader, error) {
	return client.New(cfg, client.Options{})
}

// loadLive reads the objects render works from out of the cluster c reads, with lists
// only. A kind whose CRD is not installed is empty.
func loadLive(ctx context.Context, c client.Reader) (*render.Objects, error) {
	var docs []manifest.Object
	list := func(gvk schema.GroupVersionKind, ns string) error {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		err := c.List(ctx, l, client.InNamespace(ns))
		switch {
		case meta.IsNoMatchError(err) || apierrors.IsNotFound(err):
			return nil
		case err != nil:
			return fmt.Errorf("listing %s: %w", gvk.Kind, err)
		}
		for i := range l.Items {
			it := &l.Items[i]
			it.SetGroupVersionKind(gvk)
			docs = append(docs, manifest.Object{Unstructured: it, Source: "cluster"})
		}
		return nil
	}
	for _, gvk := range liveKinds {
		if err := list(gvk, ""); err != nil {
			return nil, err
		}
	}
	namespaces := map[string]bool{}
	for _, d := range docs {
		if d.GetNamespace() != "" {
			namespaces[d.GetNamespace()] = true
		}
	}
	names := make([]string, 0, len(namespaces))
	for ns := range namespaces {
		names = append(names, ns)
	}
	sort.Strings(names)
	for _, ns := range names {
		for _, k := range []string{"Secret", "ConfigMap"} {
			if err := list(schema.GroupVersionKind{Version: "v1", Kind: k}, ns); err != nil {
				return nil, err
			}
		}
	}
	return render.FromDocuments("default", docs)
}
