package promcfg

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

// renderPass is what rendering every monitor of one Generate call shares.
type renderPass struct {
	settings *promSettings
	key      uint64 // the hash of settings
	assets   Assets
	check    *fileCheck
}

// renderAll renders the monitors listed in todo into ents, spreading work over workers.
// Consecutive monitors are rendered and loaded in batches (see renderBatch).
func (g *Generator) renderAll(rp *renderPass, mons []monitor, todo []int, ents []*entry) {
	workers := g.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var batches [][]int
	for len(todo) > 0 {
		n := min(loadBatch, len(todo))
		batches, todo = append(batches, todo[:n]), todo[n:]
	}
	workers = min(workers, len(batches))
	if workers <= 1 {
		for _, idx := range batches {
			rp.renderBatch(mons, idx, ents)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan []int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for idx := range next {
				rp.renderBatch(mons, idx, ents)
			}
		}()
	}
	for _, idx := range batches {
		next <- idx
	}
	close(next)
	wg.Wait()
}

// loadBatch is how many monitors' jobs renderBatch loads at once. A load has a fixed
// cost besides the text's (the global section, the loader's set-up): with batches of 16,
// BenchmarkGenerate/cold/monitors=10000 takes 3.6 s instead of 3.8 s (ADR 23).
const loadBatch = 16

// rendered is a monitor's rendering waiting for its load.
type rendered struct {
	i    int
	text []byte
	rec  *recorder
}

// renderBatch renders the monitors mons[i], i in idx, into ents and loads the jobs of
// those that rendered in one text, with the regex values known to compile elided. The
// text is a run of the very pieces the file is made of, so it loads exactly when each
// piece does (see fileCheck). When it does not, each piece is loaded alone and as
// written, so that every monitor gets its own verdict and message.
func (rp *renderPass) renderBatch(mons []monitor, idx []int, ents []*entry) {
	pending := make([]rendered, 0, len(idx))
	for _, i := range idx {
		e, text, rec := rp.render(mons[i])
		ents[i] = e
		if e.err == nil {
			pending = append(pending, rendered{i, text, rec})
		}
	}
	if len(pending) == 0 {
		return
	}
	// Loads of at most maxLoadBytes of text each (a larger monitor alone).
	for start := 0; start < len(pending); {
		end, size := start+1, len(pending[start].text)
		for end < len(pending) && size+len(pending[end].text) <= maxLoadBytes {
			size += len(pending[end].text)
			end++
		}
		rp.load(pending[start:end], ents)
		start = end
	}
}

// load loads the renderings pending in one text and records each one's verdict in ents.
func (rp *renderPass) load(pending []rendered, ents []*entry) {
	texts, names := make([][]byte, len(pending)), make([][]string, len(pending))
	for k, r := range pending {
		texts[k], names[k] = r.text, ents[r.i].jobNames
	}
	if rp.check.jobs(texts, names, true) == nil {
		for _, r := range pending {
			ents[r.i].loaded(r, nil)
		}
		return
	}
	for _, r := range pending {
		ents[r.i].loaded(r, rp.check.jobs([][]byte{r.text}, [][]string{ents[r.i].jobNames}, false))
	}
}

// render renders one monitor's jobs and checks everything but their load. It returns the
// entry (with err set when a check failed), the text to load and what rendering read.
func (rp *renderPass) render(m monitor) (*entry, []byte, *recorder) {
	_, _, uid, gen := m.meta()
	e := &entry{uid: uid, generation: gen, settingsKey: rp.key, global: rp.check.globalSum}
	rec := newRecorder(rp.assets)
	jobs, warnings, err := renderJobs(rp.settings, rec, m)
	e.warnings = warnings
	e.deps = rec.deps
	if err != nil {
		e.err = err
		return e, nil, rec
	}
	var b bytes.Buffer
	b.Grow(2048 * len(jobs))
	for _, j := range jobs {
		appendListItem(&b, j)
		if b.Len() > MaxObjectBytes {
			e.err = errTooLarge(b.Len())
			e.jobNames = nil
			return e, nil, rec
		}
		if name, ok := j.Get("job_name"); ok {
			e.jobNames = append(e.jobNames, name.(string))
		}
	}
	if err := checkCompressedSize(b.Bytes()); err != nil {
		e.err = err
		e.jobNames = nil
		return e, nil, rec
	}
	if err := checkEnvRefs(b.Bytes(), jobs, rp.settings.TenantEnv, rec.secretValues); err != nil {
		e.err = err
		e.jobNames = nil
		return e, nil, rec
	}
	return e, b.Bytes(), rec
}

// loaded records in e the verdict of loading its rendering r.
func (e *entry) loaded(r rendered, loadErr error) {
	if loadErr != nil {
		// The loader quotes values it refuses, and a discovery's client library may
		// quote a Secret's (scaleway: "invalid secret key format '...'"): messages go to
		// the object's status, so Secret values are masked.
		e.err = redactSecrets(loadErr, r.rec.secretValues)
		e.jobNames = nil
		return
	}
	// Kept for as long as the monitor is unchanged: exactly as large as the text.
	e.jobs = bytes.Clone(r.text)
	e.tlsAssets = r.rec.tlsAssets
}

// renderJobs renders one monitor's jobs, whatever its kind, and its warnings.
func renderJobs(ps *promSettings, rec *recorder, m monitor) ([]M, []string, error) {
	switch o := m.obj.(type) {
	case *monitoringv1.ServiceMonitor:
		return renderServiceMonitor(ps, rec, o)
	case *monitoringv1.PodMonitor:
		return renderPodMonitor(ps, rec, o)
	case *monitoringv1.Probe:
		return renderProbe(ps, rec, o)
	case *monitoringv1alpha1.ScrapeConfig:
		return renderScrapeConfig(ps, rec, o)
	}
	return nil, nil, fmt.Errorf("unsupported kind %T", m.obj)
}

// redactSecrets replaces every value read from a Secret in err's message with <secret>.
func redactSecrets(err error, values map[string]bool) error {
	msg := err.Error()
	masked := msg
	for v := range values {
		if len(v) >= 4 { // shorter values would mask words of the message itself
			masked = strings.ReplaceAll(masked, v, "<secret>")
		}
	}
	if masked == msg {
		return err
	}
	return errors.New(masked)
}
