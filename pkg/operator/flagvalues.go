package operator

import (
	"crypto/tls"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
)

// The flag.Value types of the run flags. Each parses and validates when the flag is set,
// so a bad value fails the parse with the flag's name, as prometheus-operator's do.

// listValue is a comma-separated list; repeating the flag adds to it.
type listValue struct{ p *[]string }

func (v listValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v listValue) Set(s string) error {
	for _, item := range ParseNamespaces(s) {
		if !contains(*v.p, item) {
			*v.p = append(*v.p, item)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// selectorValue is a selector flag: labels.Selector in kubectl's syntax ("a=b,c!=d,e in
// (f)") or fields.Selector ("type!=kubernetes.io/dockercfg,..."), parsed by parse.
type selectorValue[T any] struct {
	p     *T
	parse func(string) (T, error)
	text  string
}

func labelSelectorValue(p *labels.Selector) *selectorValue[labels.Selector] {
	return &selectorValue[labels.Selector]{p: p, parse: func(s string) (labels.Selector, error) { return labels.Parse(s) }}
}

func fieldSelectorValue(p *fields.Selector) *selectorValue[fields.Selector] {
	return &selectorValue[fields.Selector]{p: p, parse: fields.ParseSelector}
}

func (v *selectorValue[T]) String() string { return v.text }

func (v *selectorValue[T]) Set(s string) error {
	sel, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p, v.text = sel, s
	return nil
}

// mapValue is "key=value,key=value" for labels or annotations; repeating the flag adds
// to the map. Keys (and, for labels, values) must be valid Kubernetes metadata.
type mapValue struct {
	p      *map[string]string
	labels bool
}

func (v mapValue) String() string {
	if v.p == nil || len(*v.p) == 0 {
		return ""
	}
	kv := make([]string, 0, len(*v.p))
	for k, val := range *v.p {
		kv = append(kv, k+"="+val)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

func (v mapValue) Set(s string) error {
	if s == "" {
		return nil
	}
	for _, pair := range strings.Split(s, ",") {
		k, val, ok := strings.Cut(pair, "=")
		if !ok {
			return fmt.Errorf("invalid key=value pair: %q", pair)
		}
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			return fmt.Errorf("invalid key %q: %s", k, strings.Join(errs, "; "))
		}
		if v.labels {
			if errs := validation.IsValidLabelValue(val); len(errs) > 0 {
				return fmt.Errorf("invalid label value %q for %q: %s", val, k, strings.Join(errs, "; "))
			}
		}
		if *v.p == nil {
			*v.p = map[string]string{}
		}
		(*v.p)[k] = val
	}
	return nil
}

// quantityValue is a resource quantity; "0" means none, an empty value changes nothing.
type quantityValue struct {
	q   resource.Quantity
	set bool
}

func newQuantity(s string) *quantityValue { return &quantityValue{q: resource.MustParse(s)} }

func (v *quantityValue) String() string {
	if v == nil {
		return ""
	}
	return v.q.String()
}

func (v *quantityValue) Set(s string) error {
	if s == "" {
		return nil
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return err
	}
	v.q, v.set = q, true
	return nil
}

// gatesValue is "Gate=true,Other=false"; unknown gates are refused.
type gatesValue struct {
	p     *FeatureGates
	given map[string]bool
}

func (v *gatesValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v *gatesValue) Set(s string) error {
	known := DefaultFeatureGates()
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		k, val, ok := strings.Cut(pair, "=")
		if !ok {
			return fmt.Errorf("malformed pair %q, expect name=bool", pair)
		}
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("invalid value of %s: %s", k, val)
		}
		if _, ok := known[k]; !ok {
			return fmt.Errorf("feature gate %q is unknown (known: %s)", k, known)
		}
		(*v.p)[k] = b
		v.given[k] = true
	}
	return nil
}

// oneOfValue is a string restricted to a set of values.
type oneOfValue struct {
	p       *string
	allowed []string
}

func (v oneOfValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v oneOfValue) Set(s string) error {
	if !contains(v.allowed, s) {
		return fmt.Errorf("must be one of %s, got %q", strings.Join(v.allowed, ", "), s)
	}
	*v.p = s
	return nil
}

// TLS names, as in Go's crypto/tls constants (the names prometheus-operator accepts).

var tlsVersions = map[string]uint16{
	"VersionTLS10": tls.VersionTLS10,
	"VersionTLS11": tls.VersionTLS11,
	"VersionTLS12": tls.VersionTLS12,
	"VersionTLS13": tls.VersionTLS13,
}

// parseTLSVersion accepts TLS 1.2 and 1.3 only: older versions are refused, as
// prometheus-operator does.
func parseTLSVersion(s string) (uint16, error) {
	v, ok := tlsVersions[s]
	if !ok {
		return 0, fmt.Errorf("unknown TLS version %q (VersionTLS12, VersionTLS13)", s)
	}
	if v < tls.VersionTLS12 {
		return 0, fmt.Errorf("TLS version %q isn't supported (VersionTLS12, VersionTLS13)", s)
	}
	return v, nil
}

func parseCipherSuites(names []string) ([]uint16, error) {
	byName := map[string]uint16{}
	for _, c := range tls.CipherSuites() {
		byName[c.Name] = c.ID
	}
	for _, c := range tls.InsecureCipherSuites() {
		byName[c.Name] = c.ID
	}
	var out []uint16
	for _, n := range names {
		id, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("unknown TLS cipher suite %q", n)
		}
		out = append(out, id)
	}
	return out, nil
}

var tlsCurves = map[string]tls.CurveID{}

func init() {
	for _, c := range []tls.CurveID{tls.CurveP256, tls.CurveP384, tls.CurveP521, tls.X25519, tls.X25519MLKEM768} {
		tlsCurves[c.String()] = c
	}
}

func curveNames() string {
	names := make([]string, 0, len(tlsCurves))
	for n := range tlsCurves {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func parseCurves(names []string) ([]tls.CurveID, error) {
	var out []tls.CurveID
	for _, n := range names {
		c, ok := tlsCurves[n]
		if !ok {
			return nil, fmt.Errorf("%q is not a supported curve (%s)", n, curveNames())
		}
		out = append(out, c)
	}
	return out, nil
}
