package promcfg

import monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

// startJob renders the head of a Kubernetes-discovered job: honor settings, the discovery,
// timing, protocols, path, params, scheme and the HTTP client settings.
func (rc *renderCtx) startJob(name string, f *scrapeFields, sd M, client *httpClient) (M, error) {
	m := M{{"job_name", name}}
	rc.renderScrapeTiming(&m, f)
	m.Set("kubernetes_sd_configs", []M{sd})
	if err := rc.renderScrapeSettings(&m, f); err != nil {
		return nil, err
	}
	if err := rc.client(&m, client); err != nil {
		return nil, err
	}
	return m, nil
}

// jobTail is what every kind's job ends with, in this order: the scrape class's and the
// object's relabelings, the enforced namespace label, the sharding rules, the limits, the
// histogram settings and the metric relabelings (scrape class's, object's, enforcement).
type jobTail struct {
	relabelings       []monitoringv1.RelabelConfig
	relabelField      string
	metricRelabelings []monitoringv1.RelabelConfig
	// hashSource is the label sharding hashes ("__address__", "__param_target" for probes).
	hashSource string
	// ownHashmod: a hashmod rule among the relabelings (scrape class's or the object's)
	// replaces the operator's (ScrapeConfigs, as prometheus-operator has it).
	ownHashmod bool
}

// finishJob appends the tail to a job whose operator-derived relabel rules are rules.
func (rc *renderCtx) finishJob(m *M, rules []M, f *scrapeFields, t jobTail) error {
	rules, err := rc.appendUserRelabelings(rules, t.relabelings, t.relabelField)
	if err != nil {
		return err
	}
	if rc.enforced != "" {
		rules = append(rules, relabelRule{TargetLabel: rc.enforced, Replacement: strp(rc.namespace)}.yaml())
	}
	rules = append(rules, rc.shardingRules(t.hashSource, !t.ownHashmod || !hasHashmod(rules))...)
	m.Set("relabel_configs", rules)
	if err := rc.renderLimits(m, f); err != nil {
		return err
	}
	if err := rc.renderHistograms(m, f); err != nil {
		return err
	}
	metricRules, err := rc.metricRelabelings(t.metricRelabelings)
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
