// Package manifest reads Kubernetes manifests: multi-document YAML (or JSON) from bytes,
// files or directories, into unstructured objects or typed objects of a scheme.
package manifest
