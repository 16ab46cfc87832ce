package operator

import (
	"reflect"
	"sort"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

// describe renders a namespace map as "ns" entries and "*:selector" for all namespaces.
func describe(m map[string]cache.Config) []string {
	if m == nil {
		return nil
	}
	var out []string
	for ns, c := range m {
		if ns == cache.AllNamespaces {
			out = append(out, "*:"+c.FieldSelector.String())
			continue
		}
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

func TestCacheOptions(t *testing.T) {
	cases := []struct {
		name                       string
		mut                        func(*Options)
		defaults, prom, serviceMon []string // nil: no ByObject entry (the defaults apply)
	}{
		{"everything", func(*Options) {}, nil, nil, nil},
		{"namespaces", func(o *Options) { o.Namespaces = []string{"a", "b"} }, []string{"a", "b"}, nil, nil},
		{"deny namespaces", func(o *Options) { o.DenyNamespaces = []string{"kube-system"} },
			[]string{"*:metadata.namespace!=kube-system"}, nil, nil},
		{"instance namespaces beside namespaces", func(o *Options) {
			o.Namespaces = []string{"a", "b"}
			o.PrometheusInstanceNamespaces = []string{"monitoring"}
		}, []string{"a", "b", "monitoring"}, []string{"monitoring"}, []string{"a", "b"}},
		{"instance namespaces, monitors everywhere", func(o *Options) {
			o.PrometheusInstanceNamespaces = []string{"monitoring"}
		}, nil, []string{"monitoring"}, nil},
		{"instance namespaces beside a deny list", func(o *Options) {
			o.DenyNamespaces = []string{"kube-system", "monitoring"}
			o.PrometheusInstanceNamespaces = []string{"monitoring"}
		}, []string{"*:metadata.namespace!=kube-system"}, []string{"monitoring"},
			[]string{"*:metadata.namespace!=kube-system,metadata.namespace!=monitoring"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := DefaultOptions()
			c.mut(&o)
			co := cacheOptions(o)
			if co.DefaultTransform == nil {
				t.Error("managed fields are no longer stripped")
			}
			if got := describe(co.DefaultNamespaces); !reflect.DeepEqual(got, c.defaults) {
				t.Errorf("default namespaces %v, want %v", got, c.defaults)
			}
			var prom, sm []string
			for obj, b := range co.ByObject {
				switch obj.(type) {
				case *monitoringv1.Prometheus:
					prom = describe(b.Namespaces)
				case *monitoringv1.ServiceMonitor:
					sm = describe(b.Namespaces)
				}
			}
			if !reflect.DeepEqual(prom, c.prom) {
				t.Errorf("Prometheus namespaces %v, want %v", prom, c.prom)
			}
			if !reflect.DeepEqual(sm, c.serviceMon) {
				t.Errorf("ServiceMonitor namespaces %v, want %v", sm, c.serviceMon)
			}
		})
	}
}

// --thanos-ruler-instance-namespaces widens the watched namespaces and limits the
// ThanosRuler informer to its own; the rules stay in --namespaces.
func TestCacheOptionsThanosRulerNamespaces(t *testing.T) {
	o := DefaultOptions()
	o.Namespaces = []string{"a", "b"}
	o.ThanosRulerInstanceNamespaces = []string{"rulers"}
	co := cacheOptions(o)
	if got, want := describe(co.DefaultNamespaces), []string{"a", "b", "rulers"}; !reflect.DeepEqual(got, want) {
		t.Errorf("default namespaces %v, want %v", got, want)
	}
	byKind := map[string][]string{}
	for obj, b := range co.ByObject {
		switch obj.(type) {
		case *monitoringv1.ThanosRuler:
			byKind["ThanosRuler"] = describe(b.Namespaces)
		case *monitoringv1.PrometheusRule:
			byKind["PrometheusRule"] = describe(b.Namespaces)
		}
	}
	if got, want := byKind["ThanosRuler"], []string{"rulers"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ThanosRuler namespaces %v, want %v", got, want)
	}
	if got, want := byKind["PrometheusRule"], []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("PrometheusRule namespaces %v, want %v", got, want)
	}
	if !o.ThanosRulerScope().Contains("rulers") || o.ThanosRulerScope().Contains("a") {
		t.Error("ThanosRulerScope")
	}
}
