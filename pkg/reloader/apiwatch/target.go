package apiwatch

import (
	"fmt"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Kind is the kind of a mirrored object.
type Kind string

// Kinds that can be mirrored.
const (
	KindSecret    Kind = "Secret"
	KindConfigMap Kind = "ConfigMap"
)

// resource is the API resource of the kind.
func (k Kind) resource() string {
	if k == KindSecret {
		return "secrets"
	}
	return "configmaps"
}

// Target is one object mirrored into one directory.
type Target struct {
	Kind      Kind
	Namespace string
	Name      string
	Dir       string
}

// String renders the target in flag syntax.
func (t Target) String() string {
	return fmt.Sprintf("%s %s/%s=%s", t.Kind, t.Namespace, t.Name, t.Dir)
}

// ParseTarget parses the flag syntax NAMESPACE/NAME=DIR.
func ParseTarget(kind Kind, s string) (Target, error) {
	ref, dir, ok := strings.Cut(s, "=")
	if !ok || dir == "" {
		return Target{}, fmt.Errorf("%q: want NAMESPACE/NAME=DIR", s)
	}
	ns, name, ok := strings.Cut(ref, "/")
	if !ok {
		return Target{}, fmt.Errorf("%q: want NAMESPACE/NAME=DIR", s)
	}
	if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
		return Target{}, fmt.Errorf("%q: invalid namespace %q: %s", s, ns, strings.Join(errs, "; "))
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return Target{}, fmt.Errorf("%q: invalid name %q: %s", s, name, strings.Join(errs, "; "))
	}
	return Target{Kind: kind, Namespace: ns, Name: name, Dir: filepath.Clean(dir)}, nil
}
