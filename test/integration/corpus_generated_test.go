package integration

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	promconfig "github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery"
	"github.com/prometheus/prometheus/model/relabel"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	// The discoveries Lookout generates, so promconfig.Load understands them.
	_ "github.com/prometheus/prometheus/discovery/dns"
	_ "github.com/prometheus/prometheus/discovery/file"
	_ "github.com/prometheus/prometheus/discovery/http"
	"github.com/prometheus/prometheus/discovery/kubernetes"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/rules"
)

// generated is what the operator generated for one Prometheus: its configuration as the
// config-reloader hands it to Prometheus, loaded with Prometheus's own loader, its rule
// files and its TLS assets.
type generated struct {
	ns, prom string
	// text is the configuration after the reloader's substitutions.
	text string
	cfg  *promconfig.Config
	// rules are the rule files by ConfigMap key; ruleDirs the ConfigMap holding each.
	rules    map[string]string
	ruleDirs map[string]string
	tls      map[string][]byte
}

var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

func newGenerated(ns, prom string, sec *corev1.Secret, ruleCMs []corev1.ConfigMap, tlsAssets []*corev1.Secret) (*generated, error) {
	zr, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.ConfigCompressedKey]))
	if err != nil {
		return nil, fmt.Errorf("config Secret of %s/%s: %w", ns, prom, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	// The reloader's substitutions, with the values its container has in the first pod.
	env := map[string]string{"POD_NAME": "prometheus-" + prom + "-0", "SHARD": "0"}
	text, unset := reloader.Expand(raw, func(n string) (string, bool) { v, ok := env[n]; return v, ok })
	if len(unset) > 0 {
		return nil, fmt.Errorf("config of %s/%s refers to variables the reloader does not have: %v", ns, prom, unset)
	}
	cfg, err := promconfig.Load(string(text), quietLogger)
	if err != nil {
		return nil, fmt.Errorf("config of %s/%s does not load: %w", ns, prom, err)
	}
	g := &generated{ns: ns, prom: prom, text: string(text), cfg: cfg, rules: map[string]string{}, ruleDirs: map[string]string{}, tls: map[string][]byte{}}
	for _, cm := range ruleCMs {
		for k, v := range cm.Data {
			if _, dup := g.rules[k]; dup {
				return nil, fmt.Errorf("rule file %s in two ConfigMaps", k)
			}
			g.rules[k], g.ruleDirs[k] = v, cm.Name
		}
	}
	for _, s := range tlsAssets {
		for k, v := range s.Data {
			g.tls[k] = v
		}
	}
	return g, nil
}

// readGenerated reads a Prometheus's generated objects from the API server.
func readGenerated(ns, prom string) (*generated, error) {
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus(prom).ConfigSecret()}, sec); err != nil {
		return nil, err
	}
	var cms corev1.ConfigMapList
	if err := k8s.List(ctx, &cms, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	var assets []*corev1.Secret
	for i := 0; ; i++ {
		s := &corev1.Secret{}
		err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus(prom).TLSAssetsSecret(i)}, s)
		if err != nil {
			break
		}
		assets = append(assets, s)
	}
	return newGenerated(ns, prom, sec, ruleCMsOf(cms.Items, prom), assets)
}

func (g *generated) job(name string) *promconfig.ScrapeConfig {
	for _, j := range g.cfg.ScrapeConfigs {
		if j.JobName == name {
			return j
		}
	}
	return nil
}

// jobsOf returns the jobs of a monitor.
func (g *generated) jobsOf(kind, ns, name string) []*promconfig.ScrapeConfig {
	var prefix string
	switch kind {
	case kSM:
		prefix = "serviceMonitor/" + ns + "/" + name + "/"
	case kPM:
		prefix = "podMonitor/" + ns + "/" + name + "/"
	case kProbe:
		prefix = "probe/" + ns + "/" + name
	case kSC:
		prefix = "scrapeConfig/" + ns + "/" + name
	}
	var out []*promconfig.ScrapeConfig
	for _, j := range g.cfg.ScrapeConfigs {
		if kind == kSM || kind == kPM {
			if strings.HasPrefix(j.JobName, prefix) {
				out = append(out, j)
			}
		} else if j.JobName == prefix {
			out = append(out, j)
		}
	}
	return out
}

// has checks that obj is used: its jobs are in the configuration, or its rule file is.
func (g *generated) has(kind string, obj client.Object) error {
	if kind == kRule {
		return g.hasRuleFile(obj)
	}
	if len(g.jobsOf(kind, obj.GetNamespace(), obj.GetName())) == 0 {
		return fmt.Errorf("accepted, but no job of it in the configuration of %s/%s", g.ns, g.prom)
	}
	return nil
}

// lacks checks that obj is left out.
func (g *generated) lacks(kind string, obj client.Object) error {
	if kind == kRule {
		if _, ok := g.rules[rules.FileName(obj.(*monitoringv1.PrometheusRule))]; ok {
			return fmt.Errorf("rejected, but its rule file is served")
		}
		return nil
	}
	if js := g.jobsOf(kind, obj.GetNamespace(), obj.GetName()); len(js) > 0 {
		return fmt.Errorf("rejected, but its job %s is in the configuration", js[0].JobName)
	}
	return nil
}

func (g *generated) hasRuleFile(obj client.Object) error {
	if _, ok := g.rules[rules.FileName(obj.(*monitoringv1.PrometheusRule))]; !ok {
		return fmt.Errorf("no rule file %s in the rule ConfigMaps of %s/%s", rules.FileName(obj.(*monitoringv1.PrometheusRule)), g.ns, g.prom)
	}
	return nil
}

// ruleGroups parses the rule file of a PrometheusRule with Prometheus's rulefmt.
func (g *generated) ruleGroups(r *run) (*rulefmt.RuleGroups, error) {
	obj := &monitoringv1.PrometheusRule{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: r.ns, Name: r.c.name}, obj); err != nil {
		return nil, err
	}
	f, ok := g.rules[rules.FileName(obj)]
	if !ok {
		return nil, fmt.Errorf("no rule file for %s", r.c.name)
	}
	groups, errs := rulefmt.Parse([]byte(f), false, model.UTF8Validation, parser.NewParser(parser.Options{}), quietLogger)
	if len(errs) > 0 {
		return nil, fmt.Errorf("rule file of %s: %v", r.c.name, errs)
	}
	return groups, nil
}

// Checks for accepted cases.

// jobCheck applies f to every job of the case's object.
func jobCheck(f func(j *promconfig.ScrapeConfig, r *run) error) func(g *generated, r *run) error {
	return func(g *generated, r *run) error {
		js := g.jobsOf(r.c.kind, r.ns, r.c.name)
		if len(js) == 0 {
			return fmt.Errorf("no job")
		}
		for _, j := range js {
			if err := f(j, r); err != nil {
				return fmt.Errorf("job %s: %w", j.JobName, err)
			}
		}
		return nil
	}
}

// hasRelabel checks that the case's jobs carry a relabel rule (metric relabel rule when
// metric is set) for which match holds: the tenant's value reached Prometheus as written.
func hasRelabel(metric bool, what string, match func(rc *relabel.Config) bool) func(g *generated, r *run) error {
	return jobCheck(func(j *promconfig.ScrapeConfig, _ *run) error {
		rcs := j.RelabelConfigs
		if metric {
			rcs = j.MetricRelabelConfigs
		}
		for _, rc := range rcs {
			if match(rc) {
				return nil
			}
		}
		return fmt.Errorf("no relabel rule with %s", what)
	})
}

// textLacks checks that the configuration text does not contain s (an injected key, say).
func textLacks(s string) func(g *generated, r *run) error {
	return func(g *generated, r *run) error {
		if strings.Contains(g.text, s) {
			return fmt.Errorf("the configuration contains %q", s)
		}
		return nil
	}
}

// all combines checks.
func all(checks ...func(g *generated, r *run) error) func(g *generated, r *run) error {
	return func(g *generated, r *run) error {
		for _, c := range checks {
			if err := c(g, r); err != nil {
				return err
			}
		}
		return nil
	}
}

// namespacesOf returns the namespaces the Kubernetes discoveries of a job are confined
// to (names, sorted, and whether the own namespace is included); all reports discovery in
// every namespace.
func namespacesOf(j *promconfig.ScrapeConfig) (names []string, own, all bool, err error) {
	found := false
	for _, sd := range j.ServiceDiscoveryConfigs {
		k, ok := sd.(*kubernetes.SDConfig)
		if !ok {
			continue
		}
		found = true
		if len(k.NamespaceDiscovery.Names) == 0 && !k.NamespaceDiscovery.IncludeOwnNamespace {
			all = true
		}
		names = append(names, k.NamespaceDiscovery.Names...)
		own = own || k.NamespaceDiscovery.IncludeOwnNamespace
	}
	if !found {
		return nil, false, false, fmt.Errorf("no kubernetes discovery")
	}
	sort.Strings(names)
	return names, own, all, nil
}

// staticLabelOf checks that every static target group of job has label name = value.
func staticLabelOf(j *promconfig.ScrapeConfig, name, value string) error {
	found := false
	for _, sd := range j.ServiceDiscoveryConfigs {
		st, ok := sd.(discovery.StaticConfig)
		if !ok {
			continue
		}
		for _, g := range st {
			found = true
			if got, ok := g.Labels[model.LabelName(name)]; !ok || string(got) != value {
				return fmt.Errorf("static label %q is %q, want %q", name, got, value)
			}
		}
	}
	if !found {
		return fmt.Errorf("no static targets")
	}
	return nil
}

// staticTargets returns the addresses of the static targets of job.
func staticTargets(j *promconfig.ScrapeConfig) []string {
	var out []string
	for _, sd := range j.ServiceDiscoveryConfigs {
		if st, ok := sd.(discovery.StaticConfig); ok {
			for _, g := range st {
				for _, t := range g.Targets {
					out = append(out, string(t[model.AddressLabel]))
				}
			}
		}
	}
	return out
}

// confined checks that every job of the case's object discovers in its own namespace only.
func confined() func(g *generated, r *run) error {
	return jobCheck(func(j *promconfig.ScrapeConfig, r *run) error {
		names, own, all, err := namespacesOf(j)
		if err != nil {
			return err
		}
		if all || (len(names) == 0 && !own) || (len(names) > 1) || (len(names) == 1 && names[0] != r.ns) {
			return fmt.Errorf("discovers in namespaces %v (own namespace %v, all %v), want %s only", names, own, all, r.ns)
		}
		return nil
	})
}
