package clusterread

import "github.com/lookout-operator/lookout/pkg/manifest"

// Key names an object: its API group, kind, namespace and name.
type Key struct{ Group, Kind, Namespace, Name string }

// KeyOf returns the key of a document.
func KeyOf(d manifest.Object) Key {
	gvk := d.GroupVersionKind()
	return Key{gvk.Group, gvk.Kind, d.GetNamespace(), d.GetName()}
}

// Overlay returns the cluster's documents with those of files laid over them: a file's
// object replaces the cluster's of the same group, kind, namespace and name; the others
// are added. Documents of files without a namespace get defaultNamespace first (not
// Namespaces), as render.FromDocuments would give them.
func Overlay(cluster, files []manifest.Object, defaultNamespace string) []manifest.Object {
	replaced := map[Key]bool{}
	for _, d := range files {
		if d.GetNamespace() == "" && d.GetKind() != "Namespace" {
			d.SetNamespace(defaultNamespace)
		}
		replaced[KeyOf(d)] = true
	}
	out := make([]manifest.Object, 0, len(cluster)+len(files))
	for _, d := range cluster {
		if !replaced[KeyOf(d)] {
			out = append(out, d)
		}
	}
	return append(out, files...)
}
