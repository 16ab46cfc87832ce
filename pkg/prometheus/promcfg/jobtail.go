package promcfg

import monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

// startJob renders the head of the job of a monitor's endpoint: honor settings, the
// discovery, the scrape settings (the endpoint's, ep, with the monitor's d.limits) and
// the client (completed from the scrape class). It returns the job with the relabel rules
// every job of the monitor starts with.
func (rc *renderCtx) startJob(name string, d *targetDiscovery, client *httpClient, ep scrapeFields) (M, []M, error) {
	f := d.limits
	f.Interval, f.Timeout, f.Path, f.Scheme, f.Params = ep.Interval, ep.Timeout, ep.Path, ep.Scheme, ep.Params
	f.HonorLabels, f.HonorTimestamps, f.TrackTimestampsStaleness = ep.HonorLabels, ep.HonorTimestamps, ep.TrackTimestampsStaleness
	applyClassClient(client, rc.class)
	m := M{{"job_name", name}}
	rc.renderScrapeTiming(&m, &f)
	m.Set("kubernetes_sd_configs", []M{d.sd})
	if err := rc.renderScrapeSettings(&m, &f); err != nil {
		return nil, nil, err
	}
	if err := rc.client(&m, client); err != nil {
		return nil, nil, err
	}
	return m, append([]M{ruleTmpJobName}, d.selectorRules...), nil
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
	rules = append(rules, rc.shardingRules(t.hashSource, !t.ownHashmod || !hasHashmod(rules), !t.ownHashmod)...)
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
