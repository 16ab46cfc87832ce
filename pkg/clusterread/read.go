package clusterread

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// Source is the manifest.Object Source of every document read from the cluster.
const Source = "cluster"

// AssetMode chooses which Secrets and ConfigMaps Read reads.
type AssetMode int

const (
	// ListAssets lists every Secret and ConfigMap of the namespaces the objects read
	// live in (diff: an Alertmanager's configuration Secret is found by name).
	ListAssets AssetMode = iota
	// ReferencedAssets gets only those the objects name (lint): any {name, key}
	// reference, a ConfigMap under a configMap field, a Secret elsewhere.
	ReferencedAssets
)

// Options choose what Read reads.
type Options struct {
	// Workloads adds the Services, Endpoints, EndpointSlices and Pods of every namespace.
	Workloads bool
	Assets    AssetMode
}

// Result is what Read read.
type Result struct {
	Docs []manifest.Object
	// Notes are the reads refused (a referenced Secret the user may not get): the
	// checks then see the object as missing.
	Notes []string
}

// Read reads the objects of opts from the cluster c reads. A kind whose CRD is not
// installed is empty; any other failed list is the error.
func Read(ctx context.Context, c client.Reader, opts Options) (*Result, error) {
	res := &Result{}
	kinds := Kinds
	if opts.Workloads {
		kinds = append(append([]schema.GroupVersionKind(nil), kinds...), WorkloadKinds...)
	}
	for _, gvk := range kinds {
		if err := list(ctx, c, gvk, "", res); err != nil {
			return nil, err
		}
	}
	switch opts.Assets {
	case ListAssets:
		for _, ns := range namespacesOf(res.Docs) {
			for _, k := range []string{"Secret", "ConfigMap"} {
				if err := list(ctx, c, schema.GroupVersionKind{Version: "v1", Kind: k}, ns, res); err != nil {
					return nil, err
				}
			}
		}
	case ReferencedAssets:
		if err := getReferenced(ctx, c, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// list appends the objects of kind gvk in namespace ns ("": every one).
func list(ctx context.Context, c client.Reader, gvk schema.GroupVersionKind, ns string, res *Result) error {
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
		it.SetManagedFields(nil)
		res.Docs = append(res.Docs, manifest.Object{Unstructured: it, Source: Source})
	}
	return nil
}

// namespacesOf returns the namespaces of docs, sorted.
func namespacesOf(docs []manifest.Object) []string {
	seen := map[string]bool{}
	for _, d := range docs {
		if d.GetNamespace() != "" {
			seen[d.GetNamespace()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for ns := range seen {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}
