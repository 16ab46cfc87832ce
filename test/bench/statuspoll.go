package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/rulehealth"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// pollFigures are what the fake Prometheus API served in a period and the operator's CPU
// in it: the cost of the status poll (target health, sample cost and rule health).
type pollFigures struct {
	counts apiCounts
	cpu    time.Duration
}

// polls is the number of polls made: each asks /api/v1/targets once per shard, and the
// benchmark Prometheus has one shard.
func (p pollFigures) polls() int { return p.counts[pathTargets].requests }

// requestsPerPoll is the requests of all paths divided by the polls.
func (p pollFigures) requestsPerPoll() float64 {
	if p.polls() == 0 {
		return 0
	}
	n := 0
	for _, c := range p.counts {
		n += c.requests
	}
	return float64(n) / float64(p.polls())
}

// bytesPerPoll is, summed over the paths, the bytes of one answer of each (a poll asks
// every path once; the target and rule pollers tick independently, so one path may be
// asked once more than another in a period).
func (p pollFigures) bytesPerPoll() int64 {
	var n int64
	for _, c := range p.counts {
		if c.requests > 0 {
			n += c.bytes / int64(c.requests)
		}
	}
	return n
}

// cpuPerPoll is the operator's CPU in the period divided by the polls.
func (p pollFigures) cpuPerPoll() time.Duration {
	if p.polls() == 0 {
		return 0
	}
	return p.cpu / time.Duration(p.polls())
}

// byPath is "targets 1.2 MiB ×6, ..." for the report.
func (p pollFigures) byPath() string {
	var parts []string
	for _, path := range append(apiPaths, "other") {
		c, ok := p.counts[path]
		if !ok || c.requests == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("`%s` %d × %s", path, c.requests, bytesStr(int(c.bytes/int64(c.requests)))))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, ", ")
}

// statusConditions counts the objects whose binding to the benchmark Prometheus carries
// the conditions the status poll writes.
type statusConditions struct {
	monitors, targetsHealthy, sampleCost int
	rules, rulesHealthy                  int
}

// countStatusConditions lists the ServiceMonitors and PrometheusRules and counts the
// bindings of the benchmark Prometheus with TargetsHealthy, SampleCost and RulesHealthy.
func countStatusConditions(ctx context.Context, cl *cluster) (statusConditions, error) {
	var out statusConditions
	var sms monitoringv1.ServiceMonitorList
	if err := cl.c.List(ctx, &sms); err != nil {
		return out, err
	}
	for i := range sms.Items {
		out.monitors++
		has := bindingConditions(sms.Items[i].Status.Bindings)
		if has[string(targethealth.ConditionType)] {
			out.targetsHealthy++
		}
		if has[string(monitorcost.ConditionType)] {
			out.sampleCost++
		}
	}
	var prs monitoringv1.PrometheusRuleList
	if err := cl.c.List(ctx, &prs); err != nil {
		return out, err
	}
	for i := range prs.Items {
		out.rules++
		if bindingConditions(prs.Items[i].Status.Bindings)[string(rulehealth.ConditionType)] {
			out.rulesHealthy++
		}
	}
	return out, nil
}

// bindingConditions returns the condition types of the benchmark Prometheus's binding.
func bindingConditions(bs []monitoringv1.WorkloadBinding) map[string]bool {
	out := map[string]bool{}
	for _, b := range bs {
		if b.Resource != "prometheuses" || b.Namespace != promNamespace || b.Name != promName {
			continue
		}
		for _, c := range b.Conditions {
			out[string(c.Type)] = true
		}
	}
	return out
}

func (c statusConditions) String() string {
	return fmt.Sprintf("%d/%d monitors with TargetsHealthy, %d/%d with SampleCost; %d/%d PrometheusRules with RulesHealthy",
		c.targetsHealthy, c.monitors, c.sampleCost, c.monitors, c.rulesHealthy, c.rules)
}
