package amctrl

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Generated is the ConfigGenerator the operator runs: pkg/alertmanager/amcfg merges the base
// configuration (the user's Secret or spec.alertmanagerConfiguration) with the selected
// AlertmanagerConfigs, validated by Alertmanager's own loader. It keeps one amcfg.Generator
// per Alertmanager, which reuses what did not change since the last reconcile.
type Generated struct {
	mu   sync.Mutex
	gens map[types.NamespacedName]*amcfg.Generator
}

// NewGenerated returns an empty Generated.
func NewGenerated() *Generated {
	return &Generated{gens: map[types.NamespacedName]*amcfg.Generator{}}
}

// Generate implements ConfigGenerator.
func (g *Generated) Generate(_ context.Context, in GenInput) (GenResult, error) {
	a := in.Alertmanager
	nn := types.NamespacedName{Namespace: a.Namespace, Name: a.Name}
	g.mu.Lock()
	gen := g.gens[nn]
	if gen == nil {
		gen = amcfg.NewGenerator()
		g.gens[nn] = gen
	}
	g.mu.Unlock()

	var base []byte
	if in.BaseFound {
		base = in.Base
	}
	res, err := gen.Generate(amcfg.Input{
		Alertmanager: a, Base: base, Global: in.Global, Configs: in.AlertmanagerConfigs,
		Assets: amcfgAssets{in.Assets}, MaxCompressedBytes: in.MaxCompressedBytes,
	})
	if err != nil {
		return GenResult{}, err
	}
	out := GenResult{Config: res.Config, TLSAssets: res.TLSAssets}
	for key, v := range res.Verdicts {
		verdict := selection.Verdict{Kind: monitoringv1alpha1.AlertmanagerConfigKind, Namespace: key.Namespace, Name: key.Name, Reason: selection.Accepted}
		if !v.Accepted {
			verdict.Reason, verdict.Message = selection.InvalidConfiguration, v.Message
			if v.Field != "" {
				verdict.Message = v.Field + ": " + v.Message
			}
		}
		for _, c := range in.AlertmanagerConfigs {
			if c.Namespace == key.Namespace && c.Name == key.Name {
				verdict.Generation = c.Generation
			}
		}
		out.Verdicts = append(out.Verdicts, verdict)
	}
	sort.Slice(out.Verdicts, func(i, j int) bool { return out.Verdicts[i].Key() < out.Verdicts[j].Key() })
	return out, nil
}

// Forget drops the cached state of an Alertmanager that is gone.
func (g *Generated) Forget(nn types.NamespacedName) {
	g.mu.Lock()
	delete(g.gens, nn)
	g.mu.Unlock()
}

// amcfgAssets reads Secret and ConfigMap keys for pkg/alertmanager/amcfg through the controller's
// promcfg.Assets, with amcfg's errors: a missing key is amcfg.ErrNotFound (the object is
// rejected), a read that failed is amcfg.ErrUnavailable (the reconcile is retried).
type amcfgAssets struct{ a promcfg.Assets }

func (s amcfgAssets) Secret(ns string, sel corev1.SecretKeySelector) (string, error) {
	return s.get(promcfg.AssetRef{Kind: promcfg.SecretAsset, Namespace: ns, Name: sel.Name, Key: sel.Key})
}

func (s amcfgAssets) ConfigMap(ns string, sel corev1.ConfigMapKeySelector) (string, error) {
	return s.get(promcfg.AssetRef{Kind: promcfg.ConfigMapAsset, Namespace: ns, Name: sel.Name, Key: sel.Key})
}

func (s amcfgAssets) get(ref promcfg.AssetRef) (string, error) {
	if s.a == nil {
		return "", fmt.Errorf("%s: %w", ref, amcfg.ErrUnavailable)
	}
	v, err := s.a.Get(ref)
	switch {
	case err == nil:
		return string(v), nil
	case errors.Is(err, promcfg.ErrUnavailable):
		return "", fmt.Errorf("%w: %w", amcfg.ErrUnavailable, err)
	default:
		return "", fmt.Errorf("%w: %w", amcfg.ErrNotFound, err)
	}
}

// recordingAssets notes every Secret and ConfigMap read through it.
type recordingAssets struct {
	promcfg.Assets
	mu   sync.Mutex
	refs map[string]bool
}

func (r *recordingAssets) Get(ref promcfg.AssetRef) ([]byte, error) {
	r.mu.Lock()
	if r.refs == nil {
		r.refs = map[string]bool{}
	}
	r.refs[watch.RefKey(string(ref.Kind), ref.Namespace, ref.Name)] = true
	r.mu.Unlock()
	return r.Assets.Get(ref)
}
