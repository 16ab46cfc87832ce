package promcfg

import monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

// startJob renders the head of a Kubernetes-discovered job: honor settings, the discovery,
// timing, protocols, path, params, scheme and the HTTP client settings.
func (sc *scrapeContext) startJob(name string, f *scrapeFields, sd M, client *httpClient, rec *recorder, ns string, warn *[]string, where string) (M, error) {
	m := M{{"job_name", name}}
	if err := sc.renderScrapeTiming(&m, f, warn, where); err != nil {
		return nil, err
	}
	m.Set("kubernetes_sd_configs", []M{sd})
	if err := sc.renderScrapeSettings(&m, f, warn, where); err != nil {
		return nil, err
	}
	if err := client.render(&m, rec, ns, sc.Version); err != nil {
		return nil, err
	}
	return m, nil
}

// jobTail is what every kind's job ends with, in this order: the scrape class's and the
// object's relabelings, the enforced namespace label, the sharding rules, the limits, the
// histogram settings and the metric relabelings (scrape class's, object's, enforcement).
type jobTail struct {
	class             *monitoringv1.ScrapeClass
	relabelings       []monitoringv1.RelabelConfig
	relabelField      string
	metricRelabelings []monitoringv1.RelabelConfig
	enforced          string
	namespace         string
	// hashSource is the label sharding hashes ("__address__", "__param_target" for probes).
	hashSource string
}

// finishJob appends the tail to a job whose operator-derived relabel rules are rules.
func (sc *scrapeContext) finishJob(m *M, rules []M, f *scrapeFields, t jobTail, warn *[]string, where string) error {
	rules, err := sc.appendUserRelabelings(rules, t.class, t.relabelings, t.relabelField)
	if err != nil {
		return err
	}
	if t.enforced != "" {
		rules = append(rules, relabelRule{TargetLabel: t.enforced, Replacement: strp(t.namespace)}.trusted())
	}
	rules = append(rules, sc.shardingRules(t.hashSource)...)
	m.Set("relabel_configs", rules)
	if err := sc.renderLimits(m, f, warn, where); err != nil {
		return err
	}
	if err := sc.renderHistograms(m, f, warn, where); err != nil {
		return err
	}
	metricRules, err := sc.metricRelabelings(t.class, t.metricRelabelings, t.enforced, t.namespace)
	if err != nil {
		return err
	}
	m.Set("metric_relabel_configs", metricRules)
	return nil
}

// tlsOf widens a SafeTLSConfig (no file fields) to a TLSConfig.
func tlsOf(t *monitoringv1.SafeTLSConfig) *monitoringv1.TLSConfig {
	if t == nil {
		return nil
	}
	return &monitoringv1.TLSConfig{SafeTLSConfig: *t}
}
