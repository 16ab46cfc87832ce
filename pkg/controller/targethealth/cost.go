package targethealth

import (
	"context"
	"io"
	"net/url"
	"path"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// CostFieldOwner is the field manager of the TopMonitors condition the poller applies
// to a Prometheus's status: the instance controller applies the other conditions as
// resourcestatus.FieldOwner, and the conditions list is keyed by type, so neither
// write removes the other's.
const CostFieldOwner = "lookout-operator-monitor-cost"

// Cost measures, on the same poll, what each monitor costs its Prometheus (ADR 0034):
// one instant query per shard beside the targets answer, joined by pkg/monitorcost.
type Cost struct {
	// Status applies the TopMonitors condition of the Prometheus objects (nil: not
	// written; the monitors' SampleCost conditions are still published).
	Status client.Client
}

// costPoll gathers one poll's costs; a nil *costPoll measures nothing.
type costPoll struct {
	costs *monitorcost.Snapshot
	shard *monitorcost.Shard
	// failed says why a shard's query failed: the poll then publishes no cost.
	failed string
}

// startCost begins the cost of one poll of prom: nil when the poller measures no cost or
// prom is a PrometheusAgent (an agent has no query API).
func (p *Poller) startCost(prom *promserver.Server) *costPoll {
	if p.Cost == nil || prom.IsAgent() {
		return nil
	}
	return &costPoll{costs: monitorcost.NewSnapshot(monitorcost.LimitsOf(prom.Spec))}
}

// beginShard starts the join of the next shard's answers.
func (c *costPoll) beginShard() {
	if c != nil {
		c.shard = c.costs.Shard()
	}
}

// addTarget records one active target of the current shard.
func (c *costPoll) addTarget(t targethealth.Target) {
	if c != nil && c.shard != nil {
		c.shard.AddTarget(t)
	}
}

// queryShard asks the shard's pod for both scrape series of every target and joins them
// with the shard's targets. A failure is remembered, not returned: target health does
// not depend on it.
func (p *Poller) queryShard(ctx context.Context, c *costPoll, base url.URL, prefix string) {
	if c == nil || c.failed != "" {
		return
	}
	err := p.get(ctx, base, path.Join("/", prefix, "/api/v1/query"), url.Values{"query": {monitorcost.Query}}.Encode(), func(r io.Reader) error {
		return monitorcost.ParseVector(r, c.shard.AddSample)
	})
	if err != nil {
		c.failed = targethealth.Classify(err.Error())
		return
	}
	c.shard.Done()
}

// finishCost publishes a successful poll's costs and writes the Prometheus's
// TopMonitors condition when its message changed. After a failed query the last costs
// stand.
func (p *Poller) finishCost(ctx context.Context, o resourcestatus.Owner, prom *promserver.Server, c *costPoll) {
	if c == nil {
		return
	}
	if c.failed != "" {
		log.FromContext(ctx).V(1).Info("monitor cost: the query failed", "owner", o, "error", c.failed)
		return
	}
	p.Store.PublishCost(o, c.costs)
	if p.Cost.Status == nil || prom.Prometheus == nil {
		return
	}
	cond, changed := topCondition(prom, c.costs, metav1.Now())
	if !changed {
		return
	}
	status := struct {
		Conditions []monitoringv1.Condition `json:"conditions"`
	}{[]monitoringv1.Condition{cond}}
	if _, err := resourcestatus.ApplyStatusAs(ctx, p.Cost.Status, CostFieldOwner, prom.APIVersion(), prom.Kind(), prom.Namespace, prom.Name, status); err != nil {
		log.FromContext(ctx).Error(err, "monitor cost: writing the TopMonitors condition", "owner", o)
	}
}

// topCondition is prom's TopMonitors condition from costs, and whether it differs from
// the live one (status, reason, message or generation); the live transition time stays.
func topCondition(prom *promserver.Server, costs *monitorcost.Snapshot, now metav1.Time) (monitoringv1.Condition, bool) {
	cond := monitoringv1.Condition{
		Type: monitorcost.TopConditionType, Status: monitoringv1.ConditionTrue, Reason: monitorcost.ReasonSamplesMeasured,
		Message:            resourcestatus.Truncate(costs.TopMessage(), resourcestatus.MaxMessageBytes),
		ObservedGeneration: prom.Generation,
		LastTransitionTime: now,
	}
	if prom.Status == nil {
		return cond, true
	}
	for _, l := range prom.Status.Conditions {
		if l.Type != cond.Type {
			continue
		}
		if l.Status == cond.Status {
			cond.LastTransitionTime = l.LastTransitionTime
		}
		return cond, l.Status != cond.Status || l.Reason != cond.Reason || l.Message != cond.Message || l.ObservedGeneration != cond.ObservedGeneration
	}
	return cond, true
}
