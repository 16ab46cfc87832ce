package promcfg

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// Input is everything one Prometheus's configuration is generated from. The monitors are
// the selected ones (see pkg/selection); they must not be modified while generating.
type Input struct {
	Prometheus *promserver.Server
	// Monitors are the selected monitors of every kind.
	Monitors monitorkind.Set
	Assets   Assets
	// RuleFiles are the rule_files globs, one per mounted rule ConfigMap directory (see
	// pkg/workload); Prometheus allows a wildcard only in the last path element.
	RuleFiles []string
}

// Result is a generated configuration.
type Result struct {
	// Config is prometheus.yaml, before the config-reloader expands $(POD_NAME), $(SHARD)
	// and the other $(NAME) references (see envrefs.go). With Generator.Pieces it is nil
	// and Pieces hold the configuration instead.
	Config []byte
	// Pieces, with Generator.Pieces, are the configuration in order, shared with the
	// generator's cache: to be read, never changed. Size is the configuration's length
	// either way.
	Pieces [][]byte
	Size   int
	// Hash names the configuration (Config, or Pieces joined): the hash of its chunks
	// (package confighash, ADR 41), which the config-reloader reports too. A generation
	// in pieces leaves it empty until ConfigHash is called.
	Hash string
	// hash computes Hash for a generation in pieces (ConfigHash).
	hash func() string
	// TLSAssets are the files referenced under the tls-assets mount.
	TLSAssets map[string][]byte
	// Verdicts says, for every monitor given, whether it was used or why not.
	Verdicts []selection.Verdict
	// Warnings lists settings left out (for instance unsupported by the version).
	Warnings []string
	// Jobs is the number of scrape jobs.
	Jobs int
	// Monitors is the number of monitors given, Rendered how many of them were rendered
	// (the others' renderings were cached).
	Monitors, Rendered int
	// Dependencies are the Secrets and ConfigMaps the configuration read (or tried to
	// read: a missing one is listed too, so its creation can trigger a regeneration).
	Dependencies []Dependency
}

// Dependency names one Secret or ConfigMap.
type Dependency struct {
	Kind      AssetKind
	Namespace string
	Name      string
}

// Generator renders configurations for one Prometheus object and caches each monitor's
// rendered and loaded jobs, so that regenerating after a change to one monitor costs
// one monitor's rendering and loading plus the assembly. It is safe for concurrent use.
type Generator struct {
	mu      sync.Mutex
	entries map[monitorKey]*entry
	// loader loads configuration text with Prometheus's loader.
	loader *loader
	// Workers is the number of goroutines rendering monitors (default GOMAXPROCS).
	Workers int
	// MaxNamespaceBytes bounds the configuration the monitors of one namespace may add
	// together (NewGenerator: DefaultMaxNamespaceBytes; 0: no bound). Monitors are counted
	// in the order they are written; one that would take its namespace past the bound is
	// left out with an InvalidConfiguration verdict that says so, and the others stay.
	MaxNamespaceBytes int
	// Pieces hands the configuration out as Result.Pieces, the header and every
	// monitor's cached jobs in order, instead of copying them into one Config buffer: at
	// 20,000 monitors that buffer was 29 MB, a copy per change and as much memory held.
	Pieces bool
	// PodZoneLabels: the cluster (Kubernetes 1.35 and later) labels every bound pod with
	// its node's topology.kubernetes.io/zone, so topology sharding reads the zone from the
	// pod label rather than attaching node metadata to pod and endpoint discovery, as
	// prometheus-operator decides from the API server's version.
	PodZoneLabels bool
	// sums names the generations in pieces (Result.ConfigHash), remembering the chunk
	// hashes of the last one's pieces.
	sums confighash.Pieces
	// epoch counts generations; prevIDs and prevEnts are the last one's monitors and
	// entries, by position.
	epoch    uint64
	prevIDs  []monitorID
	prevEnts []*entry
	// claims are the last generation's job names and extraNames those of its
	// additionalScrapeConfigs, kept while no name was wanted twice (claimJobNames).
	claims     *jobNames
	extraNames []string
}

// assembly collects a configuration: as pieces, or copied into one buffer.
type assembly struct {
	pieces   [][]byte
	out      []byte
	asPieces bool
	size     int
}

func (a *assembly) Write(p []byte) {
	a.size += len(p)
	if !a.asPieces {
		a.out = append(a.out, p...)
		return
	}
	a.pieces = append(a.pieces, p)
}

// scrapeConfigsKey begins the job list.
var scrapeConfigsKey = []byte("scrape_configs:\n")

// entry is one monitor's rendering and what it was rendered from.
type entry struct {
	uid         types.UID
	generation  int64
	settingsKey uint64
	// global is the SHA-256 of the global section the jobs were loaded with.
	global [32]byte
	deps   []assetDep

	jobs      []byte
	jobNames  []string
	tlsAssets map[string][]byte
	warnings  []string
	err       error
	// seen is the last generation (Generator.epoch) that used the entry.
	seen uint64
}

// NewGenerator returns an empty generator.
func NewGenerator() *Generator {
	return &Generator{entries: map[monitorKey]*entry{}, loader: newLoader(), MaxNamespaceBytes: DefaultMaxNamespaceBytes}
}

// monitor is a ServiceMonitor, PodMonitor, Probe or ScrapeConfig.
type monitor struct {
	kind string
	obj  metav1.Object
}

// monitors lists the monitors of in, in the order their jobs are written.
func (in *Input) monitors() []monitor {
	n := 0
	for _, k := range monitorkind.All {
		n += k.Len(&in.Monitors)
	}
	mons := make([]monitor, 0, n)
	for _, k := range monitorkind.All {
		k.Each(&in.Monitors, func(o client.Object) { mons = append(mons, monitor{kind: k.Name, obj: o}) })
	}
	return mons
}

func (m monitor) meta() (ns, name string, uid types.UID, gen int64) {
	return m.obj.GetNamespace(), m.obj.GetName(), m.obj.GetUID(), m.obj.GetGeneration()
}

// ConfigHash returns Hash, computing it first for a generation in pieces: there it is
// left out until asked, since a configuration spread over several Secrets is named by
// its first part instead (ADR 38). The generator remembers the chunk hashes of the last
// pieces it named, so naming a generation after a one-monitor change hashes that
// monitor's jobs and the list of chunk hashes (ADR 41).
func (r *Result) ConfigHash() string {
	if r.Hash == "" && r.hash != nil {
		r.Hash, r.hash = r.hash(), nil
	}
	return r.Hash
}

// Bytes is the configuration in one slice: Config, or the pieces joined (a copy).
func (r *Result) Bytes() []byte {
	if r.Pieces == nil {
		return r.Config
	}
	return bytes.Join(r.Pieces, nil)
}

// AsPieces is the configuration as pieces: Pieces, or Config as the only one.
func (r *Result) AsPieces() [][]byte {
	if r.Pieces == nil {
		return [][]byte{r.Config}
	}
	return r.Pieces
}

// monitorKey identifies a monitor among the generator's entries.
type monitorKey struct{ kind, namespace, name string }

func (k monitorKey) String() string { return k.kind + "/" + k.namespace + "/" + k.name }

func (m monitor) key() monitorKey {
	return monitorKey{m.kind, m.obj.GetNamespace(), m.obj.GetName()}
}

// monitorID is what the generator remembers of the monitor at a position from one
// generation to the next: its key and the resourceVersion of the object it saw, not the
// object. The informer replaces every object a status write touches, and holding the
// objects of the last generation kept 20,000 ServiceMonitors twice in memory through
// the start-up status writes.
type monitorID struct {
	key     monitorKey
	version string
}

// Generate renders the configuration. An error means the Prometheus object itself cannot
// be turned into configuration (its own fields, a missing additionalScrapeConfigs Secret);
// an invalid monitor is not an error, it gets an InvalidConfiguration verdict instead.
func (g *Generator) Generate(in Input) (*Result, error) {
	p := in.Prometheus
	if p == nil {
		return nil, errors.New("no Prometheus given")
	}
	g.mu.Lock()
	defer g.mu.Unlock()

	v, err := versions.ParsePrometheus(p.Spec.Version)
	if err != nil {
		return nil, fmt.Errorf("spec.version: %w", err)
	}
	if !v.AtLeast(versions.MinimumPrometheus) {
		return nil, fmt.Errorf("spec.version %s is older than %s, the oldest Prometheus Lookout supports", v.Tag(), versions.MinimumPrometheus.Tag())
	}
	ps, err := newPromSettings(p, v, g.PodZoneLabels)
	if err != nil {
		return nil, err
	}
	key, err := ps.hash()
	if err != nil {
		return nil, err
	}
	res := &Result{TLSAssets: map[string][]byte{}}
	deps := map[Dependency]bool{}
	hdrRec := newRecorder(in.Assets)
	defer func() {
		for _, d := range hdrRec.deps {
			deps[Dependency{d.kind, d.namespace, d.name}] = true
		}
		for d := range deps {
			res.Dependencies = append(res.Dependencies, d)
		}
		sort.Slice(res.Dependencies, func(i, j int) bool {
			a, b := res.Dependencies[i], res.Dependencies[j]
			return string(a.Kind)+a.Namespace+"/"+a.Name < string(b.Kind)+b.Namespace+"/"+b.Name
		})
	}()
	hdr := &headerCtx{p: p, v: v, ps: ps, rec: hdrRec, warnings: &res.Warnings}
	header, globalOnly, extraJobs, err := hdr.render(in.RuleFiles)
	if err != nil {
		return nil, err
	}
	for k, val := range hdrRec.tlsAssets {
		res.TLSAssets[k] = val
	}
	check := newFileCheck(g.loader, knownValues(ps.ReloaderEnv), ps.legacyLoader(), globalOnly)
	check.v2 = !v.AtLeast(versions.Prometheus3)
	if err := check.header(header, globalOnly, extraJobs); err != nil {
		err = redactSecrets(err, hdrRec.secretValues)
		return nil, fmt.Errorf("the Prometheus-level configuration (global, alerting, remote write/read, additional configs) is invalid: %w", err)
	}

	// Render what is stale, in parallel.
	mons := in.monitors()
	g.epoch++
	// keysSame: every monitor has the key (kind, namespace, name) found at its position
	// last time, so the entries need no sweep and the job names can be claimed anew for
	// the changed ones only.
	keysSame := len(mons) == len(g.prevIDs)
	ids := g.prevIDs // overwritten in place, each position after it is compared
	if !keysSame {
		ids = make([]monitorID, len(mons))
	}
	// samePlace: the monitor is the object version found at its position last time.
	samePlace := make([]bool, len(mons))
	todo := make([]int, 0)
	ents := make([]*entry, len(mons))
	// gens are the monitors' generations, read once with their keys: the assembly below
	// takes namespace, name and generation from here rather than from the objects again
	// (at 20,000 monitors the second read, a cache miss per object, was 6 ms of a change).
	gens := make([]int64, len(mons))
	for i, m := range mons {
		o := m.obj
		id := monitorID{monitorKey{m.kind, o.GetNamespace(), o.GetName()}, o.GetResourceVersion()}
		var e *entry
		if i < len(g.prevIDs) && id.version != "" && g.prevIDs[i] == id {
			// Found without hashing its key: at 20,000 monitors the two map operations
			// per monitor were 18 ms of every change.
			samePlace[i], e = true, g.prevEnts[i]
		} else {
			keysSame = keysSame && id.key == g.prevIDs[i].key
			e = g.entries[id.key]
		}
		ids[i] = id
		gen := o.GetGeneration()
		gens[i] = gen
		// At its place with the same resourceVersion the object is the one this entry was
		// checked against or rendered from last time: its UID is not compared again (a
		// status write replaces every object in the informer, and the UIDs then compared
		// by content, a cache miss per monitor into another string).
		if e == nil || !samePlace[i] && e.uid != o.GetUID() || e.generation != gen || e.generation == 0 || e.settingsKey != key || e.global != check.globalSum || depsStale(in.Assets, e.deps) {
			todo = append(todo, i)
			continue
		}
		ents[i] = e
	}
	res.Monitors, res.Rendered = len(mons), len(todo)
	g.renderAll(&renderPass{settings: ps, key: key, assets: in.Assets, check: check}, mons, todo, ents)
	for i, e := range ents {
		if e.err != nil && errors.Is(e.err, ErrUnavailable) {
			g.prevIDs, g.prevEnts, g.claims = nil, nil, nil
			delete(g.entries, mons[i].key())
			return nil, fmt.Errorf("%s: %w", mons[i].key(), e.err)
		}
	}

	// Assemble. Job names are unique across the file: additionalScrapeConfigs' first,
	// then each monitor's, in order; a monitor reusing one is left out.
	size, jobs := len(header)+32, len(extraJobs)
	for i := range mons {
		e := ents[i]
		e.seen = g.epoch
		if !samePlace[i] || e != g.prevEnts[i] {
			g.entries[ids[i].key] = e
		}
		size += len(e.jobs)
		jobs += len(e.jobNames)
		for _, d := range e.deps {
			deps[Dependency{d.kind, d.namespace, d.name}] = true
		}
	}
	var extraNames []string
	for _, j := range extraJobs {
		if name, ok := j.(M).Get("job_name"); ok {
			if s, ok := name.(string); ok {
				extraNames = append(extraNames, s)
			}
		}
	}
	taken := g.claimJobNames(ids, ents, extraNames, keysSame, jobs)
	b := &assembly{asPieces: g.Pieces}
	if g.Pieces {
		b.pieces = make([][]byte, 0, len(mons)+len(extraJobs)+2)
	} else {
		b.out = make([]byte, 0, size+4096)
	}
	b.Write(header)
	wroteKey := false
	// One verdict per monitor: sized once, not grown (at 20,000 monitors the growing was
	// 8% of a one-monitor change's CPU).
	res.Verdicts = make([]selection.Verdict, 0, len(mons))
	// Each namespace's bytes so far. The monitors of a kind come sorted by namespace, so
	// the running count of the current namespace is kept aside and the map is read and
	// written only where the namespace changes (a map operation per monitor was 5 ms of a
	// change at 20,000 monitors).
	var (
		nsBytes map[string]int
		curNS   string
		curUsed int
		haveCur bool
	)
	if g.MaxNamespaceBytes > 0 {
		nsBytes = map[string]int{}
	}
	for i, m := range mons {
		e := ents[i]
		ns, name, gen := ids[i].key.namespace, ids[i].key.name, gens[i]
		verdict := selection.Verdict{Kind: m.kind, Namespace: ns, Name: name, Generation: gen, Reason: selection.Accepted}
		if err := taken[i]; err != nil && e.err == nil {
			e = &entry{err: err}
		}
		if nsBytes != nil && e.err == nil {
			if !haveCur || ns != curNS {
				if haveCur {
					nsBytes[curNS] = curUsed
				}
				curNS, curUsed, haveCur = ns, nsBytes[ns], true
			}
			if curUsed+len(e.jobs) > g.MaxNamespaceBytes {
				e = &entry{err: errNamespaceBound(ns, curUsed, len(e.jobs), g.MaxNamespaceBytes)}
			} else {
				curUsed += len(e.jobs)
			}
		}
		if e.err != nil {
			verdict.Reason = selection.InvalidConfiguration
			verdict.Message = e.err.Error()
			res.Verdicts = append(res.Verdicts, verdict)
			continue
		}
		res.Verdicts = append(res.Verdicts, verdict)
		res.Warnings = append(res.Warnings, e.warnings...)
		if len(e.jobs) > 0 && !wroteKey {
			b.Write(scrapeConfigsKey)
			wroteKey = true
		}
		b.Write(e.jobs)
		res.Jobs += len(e.jobNames)
		for k, val := range e.tlsAssets {
			res.TLSAssets[k] = val
		}
	}
	if len(extraJobs) > 0 {
		if !wroteKey {
			b.Write(scrapeConfigsKey)
		}
		for _, j := range extraJobs {
			b.Write(EncodeListItem(j.(M)))
		}
		res.Jobs += len(extraJobs)
	}
	if !keysSame {
		for k, e := range g.entries {
			if e.seen != g.epoch {
				delete(g.entries, k)
			}
		}
	}
	g.prevIDs, g.prevEnts = ids, ents
	res.Size = b.size
	if g.Pieces {
		res.Pieces = b.pieces
		pieces := b.pieces
		res.hash = func() string { return g.sums.Sum(pieces) }
	} else {
		res.Config = b.out
		res.Hash = confighash.Sum(res.Config)
	}
	sort.Strings(res.Warnings)
	return res, nil
}
