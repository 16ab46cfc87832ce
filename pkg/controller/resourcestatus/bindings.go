package resourcestatus

import (
	"cmp"
	"slices"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/selection"
)

// OwnerState says how an owner named in a binding relates to this operator.
type OwnerState int

const (
	// OwnerForeign: the owner exists and another operator (or another Lookout instance)
	// manages it; its binding is not ours to touch.
	OwnerForeign OwnerState = iota
	// OwnerManaged: this operator manages the owner.
	OwnerManaged
	// OwnerGone: the owner no longer exists; its binding is stale.
	OwnerGone
)

// plan is what the status controller computed for one object.
type plan struct {
	// desired are the bindings this operator wants to hold, sorted.
	desired []monitoringv1.WorkloadBinding
	// ours are the live bindings this operator is responsible for, sorted.
	ours []monitoringv1.WorkloadBinding
}

// changed reports whether a write is needed.
func (p plan) changed() bool {
	if len(p.desired) == 0 && len(p.ours) == 0 {
		return false
	}
	return !equality.Semantic.DeepEqual(p.desired, p.ours)
}

// planBindings computes the bindings this operator holds on an object: one per owner with
// a verdict, plus the live bindings of managed owners that have not published since the
// operator started (so a restart does not blank them). The live bindings it is
// responsible for are those of owners with a verdict, managed owners and owners that no
// longer exist; bindings of foreign owners are left out of both lists. lastTransitionTime
// is kept while a condition's status does not change. state is asked only about owners
// without a verdict. An accepted object's binding also gets the TargetsHealthy or
// RulesHealthy condition health gives (or keeps the live one, see healthLookup).
func planBindings(live []monitoringv1.WorkloadBinding, generation int64, verdicts map[Owner]selection.Verdict,
	published func(Owner) bool, state func(Owner) OwnerState, health healthLookup, now metav1.Time) plan {
	var p plan
	liveByOwner := map[Owner]monitoringv1.WorkloadBinding{}
	for _, b := range live {
		o := Owner{Resource: b.Resource, Namespace: b.Namespace, Name: b.Name}
		liveByOwner[o] = b
		if _, judged := verdicts[o]; judged {
			p.ours = append(p.ours, b)
			continue
		}
		if b.Resource != monitoringv1.PrometheusName {
			continue // other workload kinds are not Lookout's yet
		}
		switch state(o) {
		case OwnerManaged:
			p.ours = append(p.ours, b)
			if !published(o) {
				p.desired = append(p.desired, b)
			}
		case OwnerGone:
			p.ours = append(p.ours, b)
		}
	}
	for o, v := range verdicts {
		cond := monitoringv1.ConfigResourceCondition{
			Type:               monitoringv1.Accepted,
			Status:             monitoringv1.ConditionTrue,
			Reason:             string(v.Reason),
			Message:            Truncate(v.Message, MaxMessageBytes),
			ObservedGeneration: generation,
			LastTransitionTime: now,
		}
		if v.Generation != 0 {
			cond.ObservedGeneration = v.Generation
		}
		if !v.Used() {
			cond.Status = monitoringv1.ConditionFalse
		}
		old, hadOld := liveByOwner[o]
		for _, c := range old.Conditions {
			if c.Type == cond.Type && c.Status == cond.Status {
				cond.LastTransitionTime = c.LastTransitionTime
			}
		}
		conds := []monitoringv1.ConfigResourceCondition{cond}
		if v.Used() {
			switch h, report, keep := health(o); {
			case report:
				conds = append(conds, healthCondition(h, cond.ObservedGeneration, old.Conditions, now))
			case keep && hadOld:
				for _, c := range old.Conditions {
					if isHealthCondition(c.Type) {
						conds = append(conds, c)
					}
				}
			}
		}
		p.desired = append(p.desired, monitoringv1.WorkloadBinding{
			Group: monitoringv1.SchemeGroupVersion.Group, Resource: o.Resource, Name: o.Name, Namespace: o.Namespace,
			Conditions: conds,
		})
	}
	sortBindings(p.desired)
	sortBindings(p.ours)
	return p
}

func sortBindings(bs []monitoringv1.WorkloadBinding) {
	slices.SortFunc(bs, func(a, b monitoringv1.WorkloadBinding) int {
		return cmp.Or(cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
}

// newlyRejected lists the rejections in desired that live did not already report (an
// Accepted condition turned False; target health is not a rejection and makes no event).
func newlyRejected(live, desired []monitoringv1.WorkloadBinding) []monitoringv1.WorkloadBinding {
	before := map[string]bool{}
	for _, b := range live {
		for _, c := range b.Conditions {
			if c.Type == monitoringv1.Accepted && c.Status == monitoringv1.ConditionFalse {
				before[b.Namespace+"/"+b.Name+"/"+c.Message] = true
			}
		}
	}
	var out []monitoringv1.WorkloadBinding
	for _, b := range desired {
		for _, c := range b.Conditions {
			if c.Type == monitoringv1.Accepted && c.Status == monitoringv1.ConditionFalse && !before[b.Namespace+"/"+b.Name+"/"+c.Message] {
				out = append(out, b)
			}
		}
	}
	return out
}
