package promcfg_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// fileFields lists the JSON paths under t whose name mentions a file: the fields through
// which a tenant could make Prometheus read its own filesystem.
func fileFields(t reflect.Type, path string, depth int, out *[]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			path += "[]"
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || depth == 0 {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		p := path
		if name != "" { // inlined structs add no path element
			p = strings.TrimPrefix(path+"."+name, ".")
		}
		if name != "" && strings.Contains(strings.ToLower(name), "file") {
			*out = append(*out, p)
		}
		fileFields(f.Type, p, depth-1, out)
	}
}

// TestTenantFileFields: every field of a monitor that names a file on the Prometheus's
// filesystem is one spec.arbitraryFSAccessThroughSMs.deny rejects (the reject tests show
// it). A new such field in the API fails here until it is handled. A ScrapeConfig's
// service discoveries Lookout does not render are rejected as a whole.
func TestTenantFileFields(t *testing.T) {
	supportedSD := promcfg.SupportedScrapeConfigSD()
	for _, c := range []struct {
		kind    string
		spec    any
		handled []string
	}{
		{"ServiceMonitor", monitoringv1.ServiceMonitorSpec{}, []string{
			"endpoints[].bearerTokenFile", "endpoints[].tlsConfig.caFile", "endpoints[].tlsConfig.certFile", "endpoints[].tlsConfig.keyFile",
		}},
		{"PodMonitor", monitoringv1.PodMonitorSpec{}, nil},
		{"Probe", monitoringv1.ProbeSpec{}, nil},
		{"ScrapeConfig", monitoringv1alpha1.ScrapeConfigSpec{}, []string{"fileSDConfigs", "fileSDConfigs[].files"}},
	} {
		var found []string
		fileFields(reflect.TypeOf(c.spec), "", 8, &found)
		found = slices.DeleteFunc(found, func(p string) bool {
			top, _, _ := strings.Cut(strings.TrimSuffix(p, "[]"), "[")
			top, _, _ = strings.Cut(top, ".")
			return c.kind == "ScrapeConfig" && strings.HasSuffix(top, "SDConfigs") && !slices.Contains(supportedSD, top)
		})
		if !slices.Equal(found, c.handled) {
			t.Errorf("%s: fields naming files %q, handled %q", c.kind, found, c.handled)
		}
	}
}

// TestEveryScrapeConfigSDRendered: every service-discovery field of a ScrapeConfig is one
// Lookout renders; a discovery added to the API fails here until it is.
func TestEveryScrapeConfigSDRendered(t *testing.T) {
	typ := reflect.TypeOf(monitoringv1alpha1.ScrapeConfigSpec{})
	var fields []string
	for i := 0; i < typ.NumField(); i++ {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if strings.HasSuffix(name, "Configs") && !strings.Contains(strings.ToLower(name), "relabel") {
			fields = append(fields, name)
		}
	}
	slices.Sort(fields)
	if got := promcfg.SupportedScrapeConfigSD(); !slices.Equal(got, fields) {
		t.Errorf("rendered discoveries %q, the API has %q", got, fields)
	}
	if len(fields) != 23 {
		t.Errorf("the API has %d service discoveries, expected 23 (static and 22 others)", len(fields))
	}
}
