package resourcestatus

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// costState is what the Store keeps of the monitors' sample cost (ADR 0034), beside
// target health and like it: the last poll of each owner, whether a poller publishes
// it, and the kinds whose CRD refused the SampleCost condition.
type costState struct {
	on    bool
	snaps map[Owner]*monitorcost.Snapshot
	off   map[string]bool
}

// costLookup tells what SampleCost condition an owner's binding gets: report, the cost
// and the Prometheus's limits; keep (nothing to report yet), keep the live condition.
type costLookup func(Owner) (c monitorcost.Cost, l monitorcost.Limits, report, keep bool)

func noCost(Owner) (monitorcost.Cost, monitorcost.Limits, bool, bool) {
	return monitorcost.Cost{}, monitorcost.Limits{}, false, false
}

// EnableCost says that a poller publishes sample costs: until an owner's first
// published cost, the SampleCost conditions already in its bindings are kept (a restart
// rewrites nothing; a PrometheusAgent, which has no query API, keeps none). Without it,
// bindings carry no SampleCost condition.
func (s *Store) EnableCost() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cost.on = true
}

// PublishCost replaces the sample costs owner's last poll found, and queues every
// object it accepted whose rounded cost, or whose Prometheus's limits, changed. Nothing
// is queued when nothing changed.
func (s *Store) PublishCost(owner Owner, snap *monitorcost.Snapshot) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, hadOld := s.cost.snaps[owner]
	s.enqueueChangedLocked(owner, monitorKinds, func(kind string, nn types.NamespacedName) bool {
		k := monitorcost.Key{Kind: kind, Namespace: nn.Namespace, Name: nn.Name}
		return !hadOld || old.Limits != snap.Limits || old.Cost(k) != snap.Cost(k)
	})
	if s.cost.snaps == nil {
		s.cost.snaps = map[Owner]*monitorcost.Snapshot{}
	}
	s.cost.snaps[owner] = snap
}

// forgetCostLocked drops a gone owner's costs; the caller holds s.mu.
func (s *Store) forgetCostLocked(owner Owner) { delete(s.cost.snaps, owner) }

// costOf returns the cost lookup of one object.
func (s *Store) costOf(kind string, nn types.NamespacedName) costLookup {
	if s == nil || monitorkind.Named(kind) == nil {
		return noCost
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.cost.on || s.cost.off[kind] {
		return noCost
	}
	type found struct {
		c monitorcost.Cost
		l monitorcost.Limits
	}
	k := monitorcost.Key{Kind: kind, Namespace: nn.Namespace, Name: nn.Name}
	by := make(map[Owner]found, len(s.cost.snaps))
	for o, snap := range s.cost.snaps {
		by[o] = found{snap.Cost(k), snap.Limits}
	}
	return func(o Owner) (monitorcost.Cost, monitorcost.Limits, bool, bool) {
		f, ok := by[o]
		return f.c, f.l, ok, !ok
	}
}

// costRefused reports whether err is the API server refusing a SampleCost condition (a
// CRD without Lookout's enum value) and then turns sample cost off for the kind.
func (s *Store) costRefused(kind string, err error) bool {
	if s == nil || !refusesConditionType(err, monitorcost.ConditionType) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.cost.on || s.cost.off[kind] {
		return false
	}
	if s.cost.off == nil {
		s.cost.off = map[string]bool{}
	}
	s.cost.off[kind] = true
	return true
}

// withCost adds the SampleCost condition to the desired binding of every owner that
// accepted the object (own is the object's spec.sampleLimit), or keeps the live one
// while there is no cost to report yet. Bindings carried over from the live object are
// left as they are.
func withCost(p plan, live []monitoringv1.WorkloadBinding, verdicts map[Owner]selection.Verdict, own *int64, cost costLookup, now metav1.Time) plan {
	liveByOwner := map[Owner]monitoringv1.WorkloadBinding{}
	for _, b := range live {
		liveByOwner[Owner{Resource: b.Resource, Namespace: b.Namespace, Name: b.Name}] = b
	}
	for i, b := range p.desired {
		o := Owner{Resource: b.Resource, Namespace: b.Namespace, Name: b.Name}
		v, judged := verdicts[o]
		if !judged || !v.Used() || len(b.Conditions) == 0 {
			continue
		}
		old := liveByOwner[o]
		c, limits, report, keep := cost(o)
		switch {
		case report:
			status, reason, message := monitorcost.Condition(c, limits.InForce(own))
			cond := monitoringv1.ConfigResourceCondition{
				Type: monitorcost.ConditionType, Status: status, Reason: reason,
				Message:            Truncate(message, MaxMessageBytes),
				ObservedGeneration: b.Conditions[0].ObservedGeneration,
				LastTransitionTime: now,
			}
			for _, l := range old.Conditions {
				if l.Type == cond.Type && l.Status == cond.Status {
					cond.LastTransitionTime = l.LastTransitionTime
				}
			}
			p.desired[i].Conditions = append(b.Conditions, cond)
		case keep:
			for _, l := range old.Conditions {
				if l.Type == monitorcost.ConditionType {
					p.desired[i].Conditions = append(b.Conditions, l)
				}
			}
		}
	}
	return p
}

// SampleCostMessage is "<status> <reason> <message>" of the SampleCost condition
// owner's binding on an object with spec.sampleLimit own would get now, "" when none
// (tests of other packages).
func SampleCostMessage(s *Store, kind, namespace, name string, own *int64, owner Owner) string {
	c, l, report, _ := s.costOf(kind, types.NamespacedName{Namespace: namespace, Name: name})(owner)
	if !report {
		return ""
	}
	status, reason, message := monitorcost.Condition(c, l.InForce(own))
	return string(status) + " " + reason + " " + message
}

// refusesConditionType reports whether err is the API server refusing the condition type
// t as not in the CRD's enum ("Unsupported value: \"SampleCost\": supported values:
// ..."): a CRD that knows TargetsHealthy but not SampleCost refuses only the latter.
func refusesConditionType(err error, t monitoringv1.ConditionType) bool {
	return apierrors.IsInvalid(err) && strings.Contains(err.Error(), `Unsupported value: "`+string(t)+`"`)
}
