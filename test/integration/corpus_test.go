package integration

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// The bad-input corpus: every case in corpusCases (corpus_cases_test.go) is one bad object,
// or one bad edit of a valid one, with the outcome it must have. TestCorpus pushes all of
// them through the real API server and the shared operator, then checks that what the
// operator generated is still valid for everyone: promtool passes every configuration and
// rule file, and real Prometheus processes load them (corpus_prometheus_test.go).
// Documentation/bad-input.md is generated from the table (go test -run Corpus -update).

var updateDoc = flag.Bool("update", false, "rewrite the generated part of Documentation/bad-input.md from the corpus")

// outcome is what happened to a bad input.
type outcome string

const (
	// apiRejected: the API server refused the object (CRD schema, object name, or size).
	apiRejected outcome = "rejected by the API server"
	// rejected: stored, and left out by Lookout: Accepted=False with reason
	// InvalidConfiguration in the object's binding and a Warning event (a Prometheus: its
	// Reconciled condition, and the last configuration it wrote is kept).
	rejected outcome = "rejected by Lookout"
	// accepted: stored and used; what Lookout renders from it is harmless (a safe
	// equivalent: quoted, sanitized, confined), which the case's check proves.
	accepted outcome = "accepted, harmless"
)

// Kinds, as in status messages and events.
const (
	kSM    = "ServiceMonitor"
	kPM    = "PodMonitor"
	kProbe = "Probe"
	kSC    = "ScrapeConfig"
	kRule  = "PrometheusRule"
	kProm  = "Prometheus"
)

var corpusKinds = []string{kSM, kPM, kProbe, kSC, kRule, kProm}

// Profiles: the Prometheus a case's object is selected by. Each profile is one namespace
// with one Prometheus ("corpus") selecting every monitor and rule in it, and a valid
// object of each kind that must stay accepted and in the configuration.
const (
	profStd    = "std"    // Prometheus 3 defaults (UTF-8 names)
	profLegacy = "legacy" // nameValidationScheme: Legacy
	profTenant = "tenant" // arbitraryFSAccessThroughSMs.deny, ignoreNamespaceSelectors, enforcedNamespaceLabel; a 63-character namespace
	profProm   = "prom"   // Prometheus cases: one Prometheus object per case
)

var corpusProfiles = []string{profStd, profLegacy, profTenant, profProm}

// corpusPrometheus is the name of each profile's Prometheus.
const corpusPrometheus = "corpus"

// expect is a case's expected outcome.
type expect struct {
	outcome outcome
	// field is what the API server's error or Lookout's message must name.
	field string
	// msg is more of the message (optional).
	msg string
	// reason is the Reconciled reason of a rejected Prometheus edit (default
	// InvalidConfiguration).
	reason string
	// served: a rejected PrometheusRule whose last accepted version is still served.
	served bool
	// rendered says, for an accepted case, what Lookout renders from it.
	rendered string
	// check proves, for an accepted case, that what Lookout generated from it is the safe
	// equivalent the case claims.
	check func(g *generated, r *run) error
}

func schemaErr(field string) expect { return expect{outcome: apiRejected, field: field} }
func reject(field, msg string) expect {
	return expect{outcome: rejected, field: field, msg: msg}
}
func harmless(rendered string, check func(g *generated, r *run) error) expect {
	return expect{outcome: accepted, rendered: rendered, check: check}
}

// corpusCase is one bad input.
type corpusCase struct {
	kind    string
	profile string
	// name is the object's name, unique in the corpus.
	name string
	// input says what is bad about it (Documentation/bad-input.md).
	input string
	// objs builds the objects to create in the corpus phase; the last one is the case's
	// object, the others (Secrets, ConfigMaps) support it.
	objs objs
	// before builds valid objects created before the corpus phase, and edit then breaks
	// them (a bad edit of something that works).
	before objs
	edit   func(ns, name string) error
	want   expect
}

// objs builds objects in a namespace for a case named name.
type objs func(ns, name string) []client.Object

// run is one case's state in a corpus run.
type run struct {
	c      *corpusCase
	ns     string
	apiErr error
	// rvBefore is, for a Prometheus edit, the resourceVersion of its config Secret before
	// the edit.
	rvBefore string
	ok       bool
	last     error
	// observed is what the API server or the operator said (LOOKOUT_CORPUS_LOG=1 logs it).
	observed string
}

func (r *run) prom() string {
	if r.c.profile == profProm {
		return r.c.name
	}
	return corpusPrometheus
}

// TestCorpus: see the comment at the top of the file.
func TestCorpus(t *testing.T) {
	t.Parallel()
	start := time.Now()
	cases := corpusCases()
	checkCorpusTable(t, cases)
	panicsBefore := reconcilePanics(t)

	// Namespaces: one per profile; the tenant one at the 63-character limit.
	nss := map[string]string{}
	for _, p := range corpusProfiles {
		nss[p] = newNamespace(t, nil)
	}
	tenant := fmt.Sprintf("t%02d-corpus-tenant-", nsSeq.Add(1))
	tenant += strings.Repeat("x", 63-len(tenant))
	create(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: tenant}})
	nss[profTenant] = tenant

	w := newCorpusWatch(t, nss)
	runs := make([]*run, len(cases))
	for i := range cases {
		runs[i] = &run{c: &cases[i], ns: nss[cases[i].profile]}
	}

	// Phase 1: the profiles' Prometheus objects and valid objects, and the valid versions
	// of what the edit cases break.
	var setup []client.Object
	for _, p := range []string{profStd, profLegacy, profTenant} {
		setup = append(setup, profilePrometheus(nss[p], p))
		setup = append(setup, goodObjects(nss[p])...)
	}
	setup = append(setup, goodServiceMonitor(nss[profProm], "good-sm"))
	for _, r := range runs {
		if r.c.before != nil {
			setup = append(setup, r.c.before(r.ns, r.c.name)...)
		}
	}
	parallelErr(t, 8, len(setup), func(i int) error { return k8s.Create(ctx, setup[i]) })
	eventually(t, 60*time.Second, "valid objects and the valid versions of edited objects accepted", func() error {
		v := w.view(t)
		for _, p := range []string{profStd, profLegacy, profTenant} {
			if err := v.goodAccepted(nss[p]); err != nil {
				return err
			}
		}
		for _, r := range runs {
			if r.c.before == nil {
				continue
			}
			if err := v.acceptedBefore(r); err != nil {
				return err
			}
		}
		return nil
	})
	t.Logf("setup: %d objects in %s", len(setup), time.Since(start).Round(time.Millisecond))

	// A real Prometheus loads the std profile's configuration as it is before the corpus:
	// the corpus's edits must reach it as a successful reload.
	stdBefore, err := readGenerated(nss[profStd], corpusPrometheus)
	if err != nil {
		t.Fatal(err)
	}
	proms := startPrometheusRuns(t, stdBefore)

	// Phase 2: the corpus, in parallel. Edits of Prometheus objects remember their config
	// Secret first.
	phase2 := time.Now()
	parallelErr(t, 8, len(runs), func(i int) error { return applyCase(runs[i]) })
	t.Logf("corpus: %d cases applied in %s", len(runs), time.Since(phase2).Round(time.Millisecond))

	// Phase 3: every case reaches its outcome, and the valid objects stay accepted.
	settle := time.Now()
	deadline := time.Now().Add(90 * time.Second)
	for {
		v := w.view(t)
		pending := 0
		for _, r := range runs {
			if r.ok {
				continue
			}
			if r.last = v.evaluate(r); r.last == nil {
				r.ok = true
			} else {
				pending++
			}
		}
		var goodErr error
		for _, p := range []string{profStd, profLegacy, profTenant} {
			if goodErr = v.goodAccepted(nss[p]); goodErr != nil {
				break
			}
		}
		if pending == 0 && goodErr == nil {
			break
		}
		if time.Now().After(deadline) {
			for _, r := range runs {
				if !r.ok {
					t.Errorf("%s %s/%s (%s): %v", r.c.kind, r.c.profile, r.c.name, r.c.input, r.last)
				}
			}
			if goodErr != nil {
				t.Errorf("valid objects: %v", goodErr)
			}
			t.FailNow()
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("outcomes settled in %s", time.Since(settle).Round(time.Millisecond))

	// A final pass over one consistent view: every outcome still holds.
	final := w.view(t)
	for _, r := range runs {
		if err := final.evaluate(r); err != nil {
			t.Errorf("%s %s/%s: changed after settling: %v", r.c.kind, r.c.profile, r.c.name, err)
		}
	}

	// Phase 4: what was generated is valid for everyone.
	var gens []*generated
	for _, p := range []string{profStd, profLegacy, profTenant} {
		g, err := readGenerated(nss[p], corpusPrometheus)
		if err != nil {
			t.Fatal(err)
		}
		gens = append(gens, g)
	}
	var promCase []*generated
	for _, r := range runs {
		// A Prometheus created broken may have no configuration; one broken by an edit keeps
		// its last one, which must still load.
		if r.c.profile == profProm && (r.c.edit != nil || r.c.want.outcome == accepted) {
			g, err := readGenerated(r.ns, r.c.name)
			if err != nil {
				t.Fatal(err)
			}
			promCase = append(promCase, g)
		}
	}
	checkGenerated(t, proms, gens, promCase)

	if n := reconcilePanics(t) - panicsBefore; n != 0 {
		t.Errorf("%v reconcile panics (recovered by controller-runtime) while the corpus ran", n)
	}
	if os.Getenv("LOOKOUT_CORPUS_LOG") != "" {
		for _, r := range runs {
			t.Logf("%s %s/%s: %s: %s", r.c.kind, r.c.profile, r.c.name, r.c.want.outcome, r.observed)
		}
	}
	writeOrCheckDoc(t, cases)
	t.Logf("corpus: %d cases in %s", len(cases), time.Since(start).Round(time.Millisecond))
}

// checkCorpusTable checks the table itself: unique names, known kinds and profiles, a
// field for every rejection and a check for every accepted case.
func checkCorpusTable(t *testing.T, cases []corpusCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range cases {
		key := c.profile + "/" + c.name
		if seen[key] {
			t.Fatalf("case %s twice", key)
		}
		seen[key] = true
		switch {
		case (c.objs == nil) == (c.edit == nil):
			t.Fatalf("case %s: exactly one of objs and edit", key)
		case (c.edit == nil) != (c.before == nil):
			t.Fatalf("case %s: edit needs before", key)
		case c.want.outcome != accepted && c.want.field == "":
			t.Fatalf("case %s: a rejection must name a field", key)
		case c.want.outcome == accepted && (c.want.check == nil || c.want.rendered == ""):
			t.Fatalf("case %s: an accepted case needs a check of what was rendered", key)
		case c.input == "":
			t.Fatalf("case %s: no input description", key)
		case (c.kind == kProm) != (c.profile == profProm):
			t.Fatalf("case %s: Prometheus cases, and only they, use the prom profile", key)
		}
	}
	if len(cases) < 150 {
		t.Fatalf("the corpus has %d cases, fewer than 150", len(cases))
	}
}

// applyCase creates a case's objects, or applies its edit, and records the API server's
// answer for the case's object.
func applyCase(r *run) error {
	if r.c.edit != nil {
		if r.c.kind == kProm {
			_, sec, err := config(r.ns, r.c.name)
			if err != nil {
				return fmt.Errorf("%s: config Secret before the edit: %w", r.c.name, err)
			}
			r.rvBefore = sec.ResourceVersion
		}
		r.apiErr = r.c.edit(r.ns, r.c.name)
		return nil
	}
	os := r.c.objs(r.ns, r.c.name)
	for _, o := range os[:len(os)-1] {
		if err := k8s.Create(ctx, o); err != nil {
			return fmt.Errorf("%s: supporting %T %s: %w", r.c.name, o, o.GetName(), err)
		}
	}
	r.apiErr = k8s.Create(ctx, os[len(os)-1])
	return nil
}

// parallel runs f(0..n-1) on workers goroutines and fails the test on the first error.
func parallelErr(t *testing.T, workers, n int, f func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	next := make(chan int)
	errs := make(chan error, n)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// updateObj reads obj (namespace and name set), applies mutate and writes it back,
// retrying on conflicts with the operator's status writes; the API server's refusal is
// returned.
func updateObj(obj client.Object, mutate func()) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		mutate()
		return k8s.Update(ctx, obj)
	})
}

// reconcilePanics is controller-runtime's count of reconciler panics it recovered.
func reconcilePanics(t *testing.T) float64 {
	t.Helper()
	families, err := ctrlmetrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() == "controller_runtime_reconcile_panics_total" {
			for _, m := range f.GetMetric() {
				total += m.GetCounter().GetValue()
			}
		}
	}
	return total
}

// corpusWatch is an informer cache over the corpus namespaces: polling the outcomes of a
// few hundred objects reads memory, not the API server.
type corpusWatch struct {
	c   cache.Cache
	nss map[string]string
	// gens caches loaded configurations by Secret resourceVersion.
	mu   sync.Mutex
	gens map[string]*generated
}

func newCorpusWatch(t *testing.T, nss map[string]string) *corpusWatch {
	t.Helper()
	def := map[string]cache.Config{}
	for _, ns := range nss {
		def[ns] = cache.Config{}
	}
	c, err := cache.New(env.Config, cache.Options{Scheme: operator.NewScheme(), DefaultNamespaces: def})
	if err != nil {
		t.Fatal(err)
	}
	cctx, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	go func() { _ = c.Start(cctx) }()
	if !c.WaitForCacheSync(cctx) {
		t.Fatal("corpus cache did not sync")
	}
	return &corpusWatch{c: c, nss: nss, gens: map[string]*generated{}}
}

// view is one read of everything the outcomes depend on.
type view struct {
	w        *corpusWatch
	objects  map[string]client.Object // kind/namespace/name
	events   map[string][]corev1.Event
	secrets  map[string]*corev1.Secret // namespace/name
	cms      map[string][]corev1.ConfigMap
	generate map[string]*generated // namespace/prometheus
}

func (w *corpusWatch) view(t *testing.T) *view {
	t.Helper()
	v := &view{w: w, objects: map[string]client.Object{}, events: map[string][]corev1.Event{}, secrets: map[string]*corev1.Secret{},
		cms: map[string][]corev1.ConfigMap{}, generate: map[string]*generated{}}
	for _, ns := range w.nss {
		lists := []client.ObjectList{&monitoringv1.ServiceMonitorList{}, &monitoringv1.PodMonitorList{}, &monitoringv1.ProbeList{},
			&monitoringv1alpha1.ScrapeConfigList{}, &monitoringv1.PrometheusRuleList{}, &monitoringv1.PrometheusList{}}
		for _, l := range lists {
			if err := w.c.List(ctx, l, client.InNamespace(ns)); err != nil {
				t.Fatal(err)
			}
		}
		add := func(kind string, o client.Object) { v.objects[kind+"/"+o.GetNamespace()+"/"+o.GetName()] = o }
		for i := range lists[0].(*monitoringv1.ServiceMonitorList).Items {
			add(kSM, &lists[0].(*monitoringv1.ServiceMonitorList).Items[i])
		}
		for i := range lists[1].(*monitoringv1.PodMonitorList).Items {
			add(kPM, &lists[1].(*monitoringv1.PodMonitorList).Items[i])
		}
		for i := range lists[2].(*monitoringv1.ProbeList).Items {
			add(kProbe, &lists[2].(*monitoringv1.ProbeList).Items[i])
		}
		for i := range lists[3].(*monitoringv1alpha1.ScrapeConfigList).Items {
			add(kSC, &lists[3].(*monitoringv1alpha1.ScrapeConfigList).Items[i])
		}
		for i := range lists[4].(*monitoringv1.PrometheusRuleList).Items {
			add(kRule, &lists[4].(*monitoringv1.PrometheusRuleList).Items[i])
		}
		for i := range lists[5].(*monitoringv1.PrometheusList).Items {
			add(kProm, &lists[5].(*monitoringv1.PrometheusList).Items[i])
		}
		var evs corev1.EventList
		if err := w.c.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		v.events[ns] = evs.Items
		var secs corev1.SecretList
		if err := w.c.List(ctx, &secs, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		for i := range secs.Items {
			v.secrets[ns+"/"+secs.Items[i].Name] = &secs.Items[i]
		}
		var cms corev1.ConfigMapList
		if err := w.c.List(ctx, &cms, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		v.cms[ns] = cms.Items
	}
	return v
}

// gen returns the configuration and rule files of a Prometheus as this view sees them.
func (v *view) gen(ns, prom string) (*generated, error) {
	key := ns + "/" + prom
	if g, ok := v.generate[key]; ok {
		return g, nil
	}
	sec := v.secrets[ns+"/prometheus-"+prom]
	if sec == nil {
		return nil, fmt.Errorf("no config Secret for Prometheus %s", key)
	}
	cacheKey := key + "@" + sec.ResourceVersion + "|" + ruleCMVersions(v.cms[ns], prom)
	v.w.mu.Lock()
	g, ok := v.w.gens[cacheKey]
	v.w.mu.Unlock()
	if !ok {
		var err error
		g, err = newGenerated(ns, prom, sec, ruleCMsOf(v.cms[ns], prom), v.tlsAssets(ns, prom))
		if err != nil {
			return nil, err
		}
		v.w.mu.Lock()
		v.w.gens[cacheKey] = g
		v.w.mu.Unlock()
	}
	v.generate[key] = g
	return g, nil
}

func (v *view) tlsAssets(ns, prom string) []*corev1.Secret {
	var out []*corev1.Secret
	for i := 0; ; i++ {
		s := v.secrets[fmt.Sprintf("%s/prometheus-%s-tls-assets-%d", ns, prom, i)]
		if s == nil {
			return out
		}
		out = append(out, s)
	}
}

func ruleCMsOf(cms []corev1.ConfigMap, prom string) []corev1.ConfigMap {
	var out []corev1.ConfigMap
	for _, cm := range cms {
		if strings.HasPrefix(cm.Name, "prometheus-"+prom+"-rulefiles-") {
			out = append(out, cm)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func ruleCMVersions(cms []corev1.ConfigMap, prom string) string {
	var b strings.Builder
	for _, cm := range ruleCMsOf(cms, prom) {
		b.WriteString(cm.Name + "@" + cm.ResourceVersion + ",")
	}
	return b.String()
}

// evaluate checks a case's outcome against this view; nil means it holds.
func (v *view) evaluate(r *run) error {
	c := r.c
	if c.want.outcome == apiRejected {
		if r.apiErr == nil {
			return fmt.Errorf("the API server stored it; want it %s", apiRejected)
		}
		if !strings.Contains(r.apiErr.Error(), c.want.field) {
			return fmt.Errorf("the API server's error does not name %q: %v", c.want.field, r.apiErr)
		}
		r.observed = r.apiErr.Error()
		return nil
	}
	if r.apiErr != nil {
		return fmt.Errorf("the API server refused it (%v); want it %s", r.apiErr, c.want.outcome)
	}
	if c.kind == kProm {
		return v.evaluatePrometheus(r)
	}
	obj := v.objects[c.kind+"/"+r.ns+"/"+c.name]
	if obj == nil {
		return fmt.Errorf("not in the cache yet")
	}
	cond, err := acceptedCondition(obj, r.ns, r.prom())
	if err != nil {
		return err
	}
	g, err := v.gen(r.ns, r.prom())
	if err != nil {
		return err
	}
	r.observed = cond.Message
	switch c.want.outcome {
	case rejected:
		if cond.Status != monitoringv1.ConditionFalse || cond.Reason != "InvalidConfiguration" {
			return fmt.Errorf("condition %s/%s: %s, want False/InvalidConfiguration", cond.Status, cond.Reason, cond.Message)
		}
		if !strings.Contains(cond.Message, c.want.field) || !strings.Contains(cond.Message, c.want.msg) {
			return fmt.Errorf("message %q does not name %q (and %q)", cond.Message, c.want.field, c.want.msg)
		}
		if c.want.served {
			if !strings.Contains(cond.Message, "still serving generation") {
				return fmt.Errorf("message %q does not say what is still served", cond.Message)
			}
			if err := g.hasRuleFile(obj); err != nil {
				return err
			}
		} else if err := g.lacks(c.kind, obj); err != nil {
			return err
		}
		return v.warning(r.ns, c.kind, c.name, "InvalidConfiguration", c.want.field)
	case accepted:
		if cond.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("condition %s/%s: %s, want accepted", cond.Status, cond.Reason, cond.Message)
		}
		if err := g.has(c.kind, obj); err != nil {
			return err
		}
		return c.want.check(g, r)
	}
	return fmt.Errorf("unknown outcome %q", c.want.outcome)
}

// evaluatePrometheus checks the outcome of a bad edit of a Prometheus.
func (v *view) evaluatePrometheus(r *run) error {
	c := r.c
	obj := v.objects[kProm+"/"+r.ns+"/"+c.name]
	if obj == nil {
		return fmt.Errorf("not in the cache yet")
	}
	p := obj.(*monitoringv1.Prometheus)
	cond := condition(p, monitoringv1.Reconciled)
	if cond == nil || cond.ObservedGeneration != p.Generation {
		return fmt.Errorf("no Reconciled condition for generation %d yet: %+v", p.Generation, cond)
	}
	sec := v.secrets[r.ns+"/prometheus-"+c.name]
	if sec == nil && (c.edit != nil || c.want.outcome == accepted) {
		return fmt.Errorf("no config Secret")
	}
	r.observed = cond.Message
	switch c.want.outcome {
	case rejected:
		reason := c.want.reason
		if reason == "" {
			reason = "InvalidConfiguration"
		}
		if cond.Status != monitoringv1.ConditionFalse || cond.Reason != reason {
			return fmt.Errorf("Reconciled %s/%s: %s, want False/%s", cond.Status, cond.Reason, cond.Message, reason)
		}
		if !strings.Contains(cond.Message, c.want.field) || !strings.Contains(cond.Message, c.want.msg) {
			return fmt.Errorf("message %q does not name %q (and %q)", cond.Message, c.want.field, c.want.msg)
		}
		// An edit that breaks the spec keeps the last configuration written. (A Prometheus
		// created broken may have its configuration written before the StatefulSet is
		// found impossible: it is its own, and used by nobody.)
		if c.edit != nil && sec.ResourceVersion != r.rvBefore {
			return fmt.Errorf("the config Secret was rewritten although the spec is invalid (resourceVersion %s, before the edit %s)", sec.ResourceVersion, r.rvBefore)
		}
		return v.warning(r.ns, kProm, c.name, reason, c.want.field)
	case accepted:
		if cond.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled %s/%s: %s, want True", cond.Status, cond.Reason, cond.Message)
		}
		g, err := v.gen(r.ns, c.name)
		if err != nil {
			return err
		}
		if g.job("serviceMonitor/"+r.ns+"/good-sm/0") == nil {
			return fmt.Errorf("the valid ServiceMonitor's job is missing")
		}
		return c.want.check(g, r)
	}
	return fmt.Errorf("unknown outcome %q", c.want.outcome)
}

// acceptedCondition returns the Accepted condition of obj's binding to Prometheus ns/prom,
// for obj's current generation.
func acceptedCondition(obj client.Object, ns, prom string) (*monitoringv1.ConfigResourceCondition, error) {
	var bs []monitoringv1.WorkloadBinding
	switch o := obj.(type) {
	case *monitoringv1.ServiceMonitor:
		bs = o.Status.Bindings
	case *monitoringv1.PodMonitor:
		bs = o.Status.Bindings
	case *monitoringv1.Probe:
		bs = o.Status.Bindings
	case *monitoringv1alpha1.ScrapeConfig:
		bs = o.Status.Bindings
	case *monitoringv1.PrometheusRule:
		bs = o.Status.Bindings
	default:
		return nil, fmt.Errorf("no bindings on %T", obj)
	}
	for _, b := range bs {
		if b.Resource != "prometheuses" || b.Group != "monitoring.coreos.com" || b.Namespace != ns || b.Name != prom {
			continue
		}
		for i := range b.Conditions {
			c := &b.Conditions[i]
			if c.Type != monitoringv1.Accepted {
				continue
			}
			if c.ObservedGeneration != obj.GetGeneration() {
				return nil, fmt.Errorf("binding for generation %d, the object is at %d", c.ObservedGeneration, obj.GetGeneration())
			}
			return c, nil
		}
	}
	return nil, fmt.Errorf("no Accepted binding to Prometheus %s/%s yet: %+v", ns, prom, bs)
}

// warning finds a Warning event with reason about kind ns/name naming field.
func (v *view) warning(ns, kind, name, reason, field string) error {
	for _, e := range v.events[ns] {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.Name == name && e.Type == corev1.EventTypeWarning &&
			e.Reason == reason && strings.Contains(e.Message, field) {
			return nil
		}
	}
	return fmt.Errorf("no Warning event %s on %s %s naming %q", reason, kind, name, field)
}

// goodAccepted checks that a profile's valid objects are accepted and in its configuration.
func (v *view) goodAccepted(ns string) error {
	g, err := v.gen(ns, corpusPrometheus)
	if err != nil {
		return err
	}
	for _, kn := range goodNames {
		obj := v.objects[kn[0]+"/"+ns+"/"+kn[1]]
		if obj == nil {
			return fmt.Errorf("valid %s %s/%s not in the cache yet", kn[0], ns, kn[1])
		}
		cond, err := acceptedCondition(obj, ns, corpusPrometheus)
		if err != nil {
			return fmt.Errorf("valid %s %s: %w", kn[0], kn[1], err)
		}
		if cond.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("valid %s %s/%s: %s %s", kn[0], ns, kn[1], cond.Reason, cond.Message)
		}
		if err := g.has(kn[0], obj); err != nil {
			return fmt.Errorf("valid %s %s/%s: %w", kn[0], ns, kn[1], err)
		}
	}
	return nil
}

// acceptedBefore checks the valid version of an edit case.
func (v *view) acceptedBefore(r *run) error {
	if r.c.kind == kProm {
		obj := v.objects[kProm+"/"+r.ns+"/"+r.c.name]
		if obj == nil {
			return fmt.Errorf("Prometheus %s not in the cache yet", r.c.name)
		}
		p := obj.(*monitoringv1.Prometheus)
		if c := condition(p, monitoringv1.Reconciled); c == nil || c.Status != monitoringv1.ConditionTrue || c.ObservedGeneration != p.Generation {
			return fmt.Errorf("Prometheus %s: Reconciled %+v", r.c.name, c)
		}
		g, err := v.gen(r.ns, r.c.name)
		if err != nil {
			return err
		}
		if g.job("serviceMonitor/"+r.ns+"/good-sm/0") == nil {
			return fmt.Errorf("Prometheus %s: the valid ServiceMonitor's job is missing", r.c.name)
		}
		return nil
	}
	obj := v.objects[r.c.kind+"/"+r.ns+"/"+r.c.name]
	if obj == nil {
		return fmt.Errorf("%s %s not in the cache yet", r.c.kind, r.c.name)
	}
	cond, err := acceptedCondition(obj, r.ns, corpusPrometheus)
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.c.kind, r.c.name, err)
	}
	if cond.Status != monitoringv1.ConditionTrue {
		return fmt.Errorf("valid version of %s %s: %s", r.c.kind, r.c.name, cond.Message)
	}
	g, err := v.gen(r.ns, corpusPrometheus)
	if err != nil {
		return err
	}
	return g.has(r.c.kind, obj)
}
