package promcfg

import (
	"errors"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// Prewarming renders monitors before the first Generate, while the operator's caches are
// still being filled: the controller hands each monitor over as its list item is
// decoded, when one core waits on the API server's encoding of the list, and the first
// Generate finds the entries fresh instead of rendering everything after the list.
//
// An entry prewarmed is judged by Generate exactly as one it rendered itself: by the
// monitor's UID and generation, the settings' hash and the global section it was loaded
// with. A monitor whose rendering reads a Secret or ConfigMap is left to Generate (the
// caches of those may not be filled yet), and so is every monitor once Generate ran.

// warmth is what Prewarm renders with for one version of a Prometheus object.
type warmth struct {
	uid     string
	version string
	rp      *renderPass // nil: the Prometheus cannot be prewarmed for (err)
	err     error
}

// noAssets is the Assets of a prewarm: nothing can be read yet.
type noAssets struct{}

var errNotPrewarmed = fmt.Errorf("not read while prewarming: %w", ErrUnavailable)

func (noAssets) Get(AssetRef) ([]byte, error)             { return nil, errNotPrewarmed }
func (noAssets) Version(AssetKind, string, string) string { return "" }

// Prewarm renders one monitor of kind (a monitorkind name) for p's configuration and
// keeps the rendering for the first Generate, unless Generate has run already, the
// monitor was prewarmed already, or its rendering reads a Secret or ConfigMap. It returns
// whether it kept a rendering. obj must not change while Prewarm reads it. Safe for
// concurrent use; it takes the generator's lock only to keep the entry.
func (g *Generator) Prewarm(p *promserver.Server, kind string, obj client.Object) bool {
	if g.generated.Load() {
		return false
	}
	rp := g.warmFor(p)
	if rp == nil {
		return false
	}
	m := monitor{kind: kind, obj: obj}
	key := m.key()
	g.mu.Lock()
	_, have := g.entries[key]
	g.mu.Unlock()
	if have {
		return false
	}
	ents := make([]*entry, 1)
	rp.renderBatch([]monitor{m}, []int{0}, ents)
	e := ents[0]
	if e == nil || len(e.deps) > 0 || e.err != nil && errors.Is(e.err, ErrUnavailable) {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.generated.Load() {
		return false
	}
	if _, have := g.entries[key]; have {
		return false
	}
	g.entries[key] = e
	return true
}

// warmFor returns the render pass prewarming renders p's monitors with, computed once
// per version of p; nil when p's settings or global section are invalid (Generate then
// says why).
func (g *Generator) warmFor(p *promserver.Server) *renderPass {
	g.warmMu.Lock()
	defer g.warmMu.Unlock()
	uid, version := string(p.UID), p.ResourceVersion
	if w := g.warm; w != nil && w.uid == uid && w.version == version && version != "" {
		return w.rp
	}
	w := &warmth{uid: uid, version: version}
	w.rp, w.err = g.prewarmPass(p)
	g.warm = w
	return w.rp
}

// prewarmPass builds the render pass of p's monitors as Generate would: the same
// settings and their hash, the global section loaded on its own.
func (g *Generator) prewarmPass(p *promserver.Server) (*renderPass, error) {
	v, ps, key, err := g.settings(p)
	if err != nil {
		return nil, err
	}
	var warnings []string
	hdr := &headerCtx{p: p, v: v, ps: ps, rec: newRecorder(noAssets{}), warnings: &warnings}
	global, err := hdr.global()
	if err != nil {
		return nil, err
	}
	globalOnly := Encode(M{{"global", global}})
	check := newFileCheck(g.loader, knownValues(ps.ReloaderEnv), ps.legacyLoader(), globalOnly)
	check.v2 = !v.AtLeast(versions.Prometheus3)
	// The jobs are loaded with the global section: one that does not load would blame
	// every monitor for it.
	if err := check.loader.verdict(append(append([]byte(nil), check.global...), "scrape_configs: []\n"...), check.afterLoad); err != nil {
		return nil, err
	}
	return &renderPass{settings: ps, key: key, assets: noAssets{}, check: check}, nil
}
