package promcfg

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// LoadsForTest is how many texts g has handed to Prometheus's loader.
func (g *Generator) LoadsForTest() int {
	g.loader.mu.Lock()
	defer g.loader.mu.Unlock()
	return g.loader.loads
}

// RenderMonitorsForTest renders the monitors of in with the settings of in.Prometheus, as
// Generate does but without the header and validation, and returns each monitor's jobs
// (or its error) as text, with the settings key the renderings would be cached under.
func RenderMonitorsForTest(in Input) (out string, key uint64, err error) {
	v, err := versions.ParsePrometheus(in.Prometheus.Spec.Version)
	if err != nil {
		return "", 0, err
	}
	ps, err := newPromSettings(in.Prometheus, v, false)
	if err != nil {
		return "", 0, err
	}
	if key, err = ps.hash(); err != nil {
		return "", 0, err
	}
	var b strings.Builder
	for _, m := range in.monitors() {
		jobs, warnings, err := renderJobs(ps, newRecorder(in.Assets), m)
		fmt.Fprintf(&b, "# %s\n", m.key())
		if err != nil {
			fmt.Fprintf(&b, "# error: %v\n", err)
			continue
		}
		for _, w := range warnings {
			fmt.Fprintf(&b, "# warning: %s\n", w)
		}
		for _, j := range jobs {
			b.Write(EncodeListItem(j))
		}
	}
	return b.String(), key, nil
}

// PromSettingsType is the type of the settings monitors are rendered with.
var PromSettingsType = reflect.TypeOf(promSettings{})

// SupportedScrapeConfigSD lists the JSON names of the ScrapeConfig service-discovery
// fields Lookout renders, sorted.
func SupportedScrapeConfigSD() []string {
	typ := reflect.TypeOf(monitoringv1alpha1.ScrapeConfigSpec{})
	var out []string
	for i := 0; i < typ.NumField(); i++ {
		if supportedScrapeConfigSD[typ.Field(i).Name] {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// EntriesForTest is how many monitors' renderings g keeps.
func (g *Generator) EntriesForTest() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.entries)
}

// LoadBatch is how many monitors' jobs are loaded in one text.
const LoadBatch = loadBatch
