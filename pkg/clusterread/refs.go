package clusterread

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// Ref is a Secret or ConfigMap an object names.
type Ref struct{ Kind, Namespace, Name string }

// References returns the Secrets and ConfigMaps the monitoring.coreos.com documents of
// docs name, sorted: every map holding string "name" and "key" (a SecretKeySelector,
// ConfigMapKeySelector or SecretOrConfigMap's half), a ConfigMap when it sits under a
// "configMap" field, a Secret otherwise, in the object's namespace.
func References(docs []manifest.Object) []Ref {
	seen := map[Ref]bool{}
	for _, d := range docs {
		if d.GroupVersionKind().Group != "monitoring.coreos.com" {
			continue
		}
		spec, ok := d.Object["spec"]
		if !ok {
			continue
		}
		walk(spec, "", func(kind, name string) { seen[Ref{kind, d.GetNamespace(), name}] = true })
	}
	out := make([]Ref, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

// walk calls fn for every reference under v, the value of field field.
func walk(v any, field string, fn func(kind, name string)) {
	switch t := v.(type) {
	case map[string]any:
		name, okName := t["name"].(string)
		_, okKey := t["key"].(string)
		if okName && okKey && name != "" {
			kind := "Secret"
			if field == "configMap" {
				kind = "ConfigMap"
			}
			fn(kind, name)
		}
		for k, x := range t {
			walk(x, k, fn)
		}
	case []any:
		for _, x := range t {
			walk(x, field, fn)
		}
	}
}

// getReferenced gets each Secret and ConfigMap the documents read name. A missing one
// is left out (the checks report it); one the user may not read is a note.
func getReferenced(ctx context.Context, c client.Reader, res *Result) error {
	for _, r := range References(res.Docs) {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("v1")
		u.SetKind(r.Kind)
		err := c.Get(ctx, client.ObjectKey{Namespace: r.Namespace, Name: r.Name}, u)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case apierrors.IsForbidden(err):
			res.Notes = append(res.Notes, fmt.Sprintf("%s %s/%s not read (%v): checks see it as missing", r.Kind, r.Namespace, r.Name, err))
			continue
		case err != nil:
			return fmt.Errorf("reading %s %s/%s: %w", r.Kind, r.Namespace, r.Name, err)
		}
		u.SetAPIVersion("v1")
		u.SetKind(r.Kind)
		u.SetManagedFields(nil)
		res.Docs = append(res.Docs, manifest.Object{Unstructured: u, Source: Source})
	}
	return nil
}
