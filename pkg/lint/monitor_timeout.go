package lint

import (
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
)

func init() {
	register(&Check{
		Name:     "monitor-timeout-exceeds-interval",
		Severity: Error,
		Summary:  "an endpoint's scrapeTimeout is longer than its interval (the endpoint's, or else the selecting Prometheus's scrapeInterval, 30s by default)",
		Run:      monitorTimeout,
	})
}

func monitorTimeout(in *Inputs) []Finding {
	var out []Finding
	check := func(kind, ns, name, field string, interval, timeout monitoringv1.Duration) {
		if timeout == "" {
			return
		}
		t, err := parseDuration(string(timeout))
		if err != nil {
			return
		}
		var iv time.Duration
		from := "interval"
		if interval != "" {
			if iv, err = parseDuration(string(interval)); err != nil {
				return
			}
		} else {
			iv, from = ScrapeInterval(in.SelectedBy(kind, ns, name)), "the Prometheus's scrapeInterval"
		}
		if t > iv {
			out = append(out, at(kind, ns, name, "%s: scrapeTimeout %s is longer than %s %s; the operator rejects it", field, model.Duration(t), from, model.Duration(iv)))
		}
	}
	for _, sm := range in.Objects.Monitors.ServiceMonitors {
		for i, ep := range sm.Spec.Endpoints {
			check(monitoringv1.ServiceMonitorsKind, sm.Namespace, sm.Name, field("endpoints", i), ep.Interval, ep.ScrapeTimeout)
		}
	}
	for _, pm := range in.Objects.Monitors.PodMonitors {
		for i, ep := range pm.Spec.PodMetricsEndpoints {
			check(monitoringv1.PodMonitorsKind, pm.Namespace, pm.Name, field("podMetricsEndpoints", i), ep.Interval, ep.ScrapeTimeout)
		}
	}
	for _, p := range in.Objects.Monitors.Probes {
		check(monitoringv1.ProbesKind, p.Namespace, p.Name, "spec", p.Spec.Interval, p.Spec.ScrapeTimeout)
	}
	return out
}
