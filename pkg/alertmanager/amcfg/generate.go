package amcfg

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	"k8s.io/apimachinery/pkg/types"
)

// Generate builds the Alertmanager configuration. It returns an error only when the base
// (Base, or Global with the Alertmanager's global section) is invalid; the caller then
// keeps the last good configuration. An AlertmanagerConfig that cannot be used is left out
// and explained in Result.Verdicts.
func Generate(in Input) (*Result, error) {
	return NewGenerator().Generate(in)
}

// Generate is the package-level Generate with the Generator's cache: configurations
// already loaded by the previous run are not loaded again, so a change to one object
// re-checks only that object.
func (g *Generator) Generate(in Input) (*Result, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer g.rotate()
	o, err := optionsFor(in.Alertmanager)
	if err != nil {
		return nil, err
	}
	var b *base
	if in.Global != nil {
		b, err = globalBase(in, o)
	} else {
		b, err = loadBase(in.Base)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Verdicts: map[types.NamespacedName]Verdict{}, TLSAssets: map[string][]byte{}}
	for k, v := range b.tlsAssets {
		res.TLSAssets[k] = v
	}

	baseDoc, err := marshal(b.doc)
	if err != nil {
		return nil, err
	}
	baseSum := sha256.Sum256(baseDoc)
	configs := sortedConfigs(in.Configs)
	parts := make([]*part, 0, len(configs))
	for _, amc := range configs {
		key := types.NamespacedName{Namespace: amc.Namespace, Name: amc.Name}
		if _, dup := res.Verdicts[key]; dup {
			continue
		}
		pt, p := g.checkCached(amc, o, in.Assets, b, baseSum)
		if p != nil {
			res.Verdicts[key] = p.verdict()
			continue
		}
		res.Verdicts[key] = Verdict{Accepted: true}
		parts = append(parts, pt)
	}

	if parts, err = fitBudget(b, parts, o, in.MaxCompressedBytes, res.Verdicts); err != nil {
		return nil, err
	}

	// Every part loads with the base on its own; the whole should too. If it does not,
	// leave out parts from the end until it does, so a bad file is never returned.
	for {
		out, err := render(b, parts, o)
		if err == nil {
			err = g.load(out)
		}
		if err == nil {
			var size int
			if size, err = compressedSize(out, in.MaxCompressedBytes); err != nil {
				return nil, err
			}
			if in.MaxCompressedBytes <= 0 || size <= in.MaxCompressedBytes || len(parts) == 0 {
				res.Config = out
				break
			}
			// The estimates of fitBudget missed (gzip's blocks vary): the last goes too.
			last := len(parts) - 1
			res.Verdicts[parts[last].key] = Verdict{Reason: ReasonInvalid, Field: "spec", Message: fmt.Sprintf(
				"left out: with it the configuration compresses to %d bytes, more than the %d bytes its Secret can hold", size, in.MaxCompressedBytes)}
			parts = parts[:last]
			continue
		}
		if len(parts) == 0 {
			return nil, fmt.Errorf("the base configuration does not load: %w", err)
		}
		i := culprit(parts, err.Error())
		res.Verdicts[parts[i].key] = Verdict{Reason: ReasonInvalid, Field: "spec",
			Message: "left out: the combined configuration does not load: " + err.Error()}
		parts = append(parts[:i:i], parts[i+1:]...)
	}
	for _, pt := range parts {
		for k, v := range pt.tlsAssets {
			res.TLSAssets[k] = v
		}
	}
	return res, nil
}

// culprit picks the part to leave out when the combined file does not load: the one
// whose names the loader's message mentions, else the last.
func culprit(parts []*part, msg string) int {
	for i, pt := range parts {
		if strings.Contains(msg, pt.key.Namespace+"/"+pt.key.Name+"/") {
			return i
		}
	}
	return len(parts) - 1
}

// sortedConfigs orders the objects by namespace and name; nil entries are dropped.
func sortedConfigs(in []*monitoringv1alpha1.AlertmanagerConfig) []*monitoringv1alpha1.AlertmanagerConfig {
	out := make([]*monitoringv1alpha1.AlertmanagerConfig, 0, len(in))
	for _, c := range in {
		if c != nil {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// checkPart converts one object and loads the base with only it added.
func checkPart(amc *monitoringv1alpha1.AlertmanagerConfig, o options, assets Assets, b *base, load func([]byte) error) (*part, *problem) {
	pt, p := convertPart(amc, o, assets, false)
	if p != nil {
		return nil, p
	}
	if p := checkEnvRefs(pt, "muteTimeIntervals"); p != nil {
		return nil, p
	}
	if p := isolate(pt.receivers, b.creds); p != nil {
		return nil, p
	}
	// After isolate: the text is cached from here on.
	if p := checkSize(pt); p != nil {
		return nil, p
	}
	out, err := render(b, []*part{pt}, o)
	if err == nil {
		err = load(out)
	}
	if err != nil {
		return nil, invalid(blame(b, pt, o), "Alertmanager refuses the configuration: %v", err)
	}
	return pt, nil
}

// blame finds the receiver Alertmanager's loader refuses, by loading the base with each
// receiver alone; "spec" when no single receiver fails.
func blame(b *base, pt *part, o options) string {
	for i, r := range pt.receivers {
		out, err := render(b, []*part{{receivers: []any{r}}}, o)
		if err == nil {
			_, err = config.Load(string(out))
		}
		if err != nil {
			return fmt.Sprintf("spec.receivers[%d]", i)
		}
	}
	return "spec"
}
