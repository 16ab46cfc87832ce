package costtop

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/shardpods"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// Getter fetches path?query from the web port (named port, of scheme http or https) of
// a pod and hands the body to read.
type Getter func(ctx context.Context, pod *corev1.Pod, scheme string, port int, urlPath, query string, read func(io.Reader) error) error

// Options choose what top measures.
type Options struct {
	// Namespace of the Prometheus objects ("": every namespace).
	Namespace string
	// Prometheus, when set, is the one Prometheus to measure (its namespace is Namespace).
	Prometheus string
	// N is how many monitors and namespaces each Prometheus lists (<= 0: all).
	N int
}

// Report is what top found.
type Report struct {
	Prometheuses []PrometheusReport `json:"prometheuses"`
}

// PrometheusReport is one Prometheus's costs, or why they could not be read.
type PrometheusReport struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Shards    int32  `json:"shards"`
	// Error says why the Prometheus could not be measured; the figures are then empty.
	Error      string  `json:"error,omitempty"`
	Total      Figures `json:"total"`
	Monitors   []Row   `json:"monitors"`
	Namespaces []Row   `json:"namespaces"`
	// Unmatched counts series of jobs no monitor generated (additional scrape configs).
	Unmatched int `json:"unmatchedSeries,omitempty"`
}

// Figures are the exact costs of one row.
type Figures struct {
	Samples          int64 `json:"samples"`
	SeriesAdded      int64 `json:"seriesAdded"`
	MaxTargetSamples int64 `json:"maxTargetSamples"`
	Targets          int   `json:"targets"`
}

// Row is one monitor (Kind and Name set) or namespace.
type Row struct {
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace"`
	Name      string `json:"name,omitempty"`
	Figures
}

// Failed reports whether some Prometheus could not be measured.
func (r *Report) Failed() bool {
	for _, p := range r.Prometheuses {
		if p.Error != "" {
			return true
		}
	}
	return false
}

// Measure lists the Prometheus objects of opts and measures each (PrometheusAgents have
// no query API and are not listed).
func Measure(ctx context.Context, c client.Reader, get Getter, opts Options) (*Report, error) {
	var proms []monitoringv1.Prometheus
	if opts.Prometheus != "" {
		var p monitoringv1.Prometheus
		if err := c.Get(ctx, client.ObjectKey{Namespace: opts.Namespace, Name: opts.Prometheus}, &p); err != nil {
			return nil, fmt.Errorf("reading Prometheus %s/%s: %w", opts.Namespace, opts.Prometheus, err)
		}
		proms = append(proms, p)
	} else {
		var l monitoringv1.PrometheusList
		if err := c.List(ctx, &l, client.InNamespace(opts.Namespace)); err != nil {
			return nil, fmt.Errorf("reading Prometheus objects: %w", err)
		}
		proms = l.Items
	}
	sort.Slice(proms, func(i, j int) bool {
		if proms[i].Namespace != proms[j].Namespace {
			return proms[i].Namespace < proms[j].Namespace
		}
		return proms[i].Name < proms[j].Name
	})
	rep := &Report{Prometheuses: []PrometheusReport{}}
	for i := range proms {
		rep.Prometheuses = append(rep.Prometheuses, measureOne(ctx, c, get, promserver.Of(&proms[i]), opts.N))
	}
	return rep, nil
}

// measureOne asks one ready pod of every shard of p.
func measureOne(ctx context.Context, c client.Reader, get Getter, p *promserver.Server, n int) PrometheusReport {
	pr := PrometheusReport{Namespace: p.Namespace, Name: p.Name, Monitors: []Row{}, Namespaces: []Row{}}
	fail := func(format string, args ...any) PrometheusReport {
		pr.Error = fmt.Sprintf(format, args...)
		return pr
	}
	scheme, portName, defaultPort, prefix, localOnly := promplan.WebAPI(p)
	if localOnly {
		return fail("spec.listenLocal: the web port listens on the pod's loopback only")
	}
	shards, err := promplan.Shards(p)
	if err != nil {
		return fail("%v", err)
	}
	pr.Shards = shards
	sel, err := labels.Parse(promplan.Selector(p))
	if err != nil {
		return fail("the pod selector: %v", err)
	}
	var pods corev1.PodList
	if err := c.List(ctx, &pods, client.InNamespace(p.Namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return fail("listing pods: %v", err)
	}
	chosen := shardpods.Choose(pods.Items, shards, nil)
	snap := monitorcost.NewSnapshot(monitorcost.LimitsOf(p.Spec))
	for shard := int32(0); shard < shards; shard++ {
		pod := chosen[shard]
		if pod == nil {
			return fail("shard %d: no ready pod", shard)
		}
		port := shardpods.WebPort(pod, portName, defaultPort)
		sh := snap.Shard()
		if err := get(ctx, pod, scheme, port, path.Join("/", prefix, "/api/v1/targets"), "state=active", func(r io.Reader) error {
			return targethealth.ParseTargets(r, sh.AddTarget)
		}); err != nil {
			return fail("shard %d (pod %s): targets: %v", shard, pod.Name, err)
		}
		if err := get(ctx, pod, scheme, port, path.Join("/", prefix, "/api/v1/query"), url.Values{"query": {monitorcost.Query}}.Encode(), func(r io.Reader) error {
			return monitorcost.ParseVector(r, sh.AddSample)
		}); err != nil {
			return fail("shard %d (pod %s): query: %v", shard, pod.Name, err)
		}
		sh.Done()
	}
	pr.Total = figures(snap.Total())
	pr.Unmatched = snap.Unmatched
	for _, e := range snap.Top(n) {
		pr.Monitors = append(pr.Monitors, Row{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, Figures: figures(e.Cost)})
	}
	for i, e := range snap.Namespaces() {
		if n > 0 && i >= n {
			break
		}
		pr.Namespaces = append(pr.Namespaces, Row{Namespace: e.Namespace, Figures: figures(e.Cost)})
	}
	return pr
}

func figures(c monitorcost.Cost) Figures {
	return Figures{Samples: c.Samples, SeriesAdded: c.SeriesAdded, MaxTargetSamples: c.MaxTargetSamples, Targets: c.Targets}
}
