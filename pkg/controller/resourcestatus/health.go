package resourcestatus

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/rulehealth"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// isHealthKind reports whether kind's bindings carry a TargetsHealthy condition: the
// monitor kinds.
func isHealthKind(kind string) bool { return monitorkind.Named(kind) != nil }

// healthReport is a health a binding shows as a condition beside Accepted:
// targethealth.Health (TargetsHealthy) or rulehealth.Health (RulesHealthy).
type healthReport interface {
	ConditionType() monitoringv1.ConditionType
	Condition() (status monitoringv1.ConditionStatus, reason, message string)
}

// isHealthCondition reports whether t is the type of a health condition.
func isHealthCondition(t monitoringv1.ConditionType) bool {
	return t == targethealth.ConditionType || t == rulehealth.ConditionType
}

// healthLookup tells what health condition (TargetsHealthy, RulesHealthy) an owner's
// binding gets: report, the health to report; keep (when there is none to report yet),
// keep the live condition as it is, so that a restarted operator rewrites nothing before
// its first poll.
type healthLookup func(Owner) (h healthReport, report, keep bool)

// noHealth is the lookup of kinds and operators without target or rule health.
func noHealth(Owner) (healthReport, bool, bool) { return nil, false, false }

// EnableHealth says that a poller publishes target health: until an owner's first poll,
// the TargetsHealthy conditions already in its bindings are kept. Without it, bindings
// carry no TargetsHealthy condition (and lose one an earlier run wrote).
func (s *Store) EnableHealth() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.healthOn = true
}

// PublishHealth replaces what the last poll of owner's Prometheus found, and queues every
// object it accepted whose health changed. Nothing is queued when nothing changed.
func (s *Store) PublishHealth(owner Owner, snap *targethealth.Snapshot) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, hadOld := s.health[owner]
	s.enqueueChangedLocked(owner, monitorKinds, func(kind string, nn types.NamespacedName) bool {
		k := targethealth.Key{Kind: kind, Namespace: nn.Namespace, Name: nn.Name}
		return !hadOld || old.Health(k) != snap.Health(k)
	})
	s.health[owner] = snap
}

// HealthOwners are the owners that published verdicts of a kind with target health: the
// Prometheus and PrometheusAgent objects to poll, sorted by resource, namespace and name.
func (s *Store) HealthOwners() []Owner { return s.ownersOf(monitorKinds) }

// healthOf returns the health lookup of one object.
func (s *Store) healthOf(kind string, nn types.NamespacedName) healthLookup {
	if s == nil || !isHealthKind(kind) && !isRuleHealthKind(kind) {
		return noHealth
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if isRuleHealthKind(kind) {
		return s.ruleHealthOfLocked(nn)
	}
	if !s.healthOn || s.healthOff[kind] {
		return noHealth
	}
	snaps := make(map[Owner]targethealth.Health, len(s.health))
	for o, snap := range s.health {
		snaps[o] = snap.Health(targethealth.Key{Kind: kind, Namespace: nn.Namespace, Name: nn.Name})
	}
	return func(o Owner) (healthReport, bool, bool) {
		h, ok := snaps[o]
		return h, ok, !ok
	}
}

// healthRefused reports whether err is the API server refusing a TargetsHealthy or
// RulesHealthy condition (a CRD whose condition type enum is upstream's: Accepted only)
// and then turns target or rule health off for the kind, so that its bindings are written
// without it.
func (s *Store) healthRefused(kind string, err error) bool {
	rules := isRuleHealthKind(kind)
	typ := targethealth.ConditionType
	if rules {
		typ = rulehealth.ConditionType
	}
	if s == nil || !refusesConditionType(err, typ) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if on := s.healthOn && !rules || s.ruleHealthOn && rules; !on || s.healthOff[kind] {
		return false
	}
	if s.healthOff == nil {
		s.healthOff = map[string]bool{}
	}
	s.healthOff[kind] = true
	return true
}

// healthCondition is the health condition of h, keeping the transition time of the live
// condition while its status does not change.
func healthCondition(h healthReport, generation int64, live []monitoringv1.ConfigResourceCondition, now metav1.Time) monitoringv1.ConfigResourceCondition {
	status, reason, message := h.Condition()
	c := monitoringv1.ConfigResourceCondition{
		Type:               h.ConditionType(),
		Status:             status,
		Reason:             reason,
		Message:            Truncate(message, MaxMessageBytes),
		ObservedGeneration: generation,
		LastTransitionTime: now,
	}
	for _, l := range live {
		if l.Type == c.Type && l.Status == c.Status {
			c.LastTransitionTime = l.LastTransitionTime
		}
	}
	return c
}

// TargetsHealthyMessage is "<status> <reason> <message>" of the TargetsHealthy condition
// owner's binding on an object would get now, "" when none (tests of other packages).
func TargetsHealthyMessage(s *Store, kind, namespace, name string, owner Owner) string {
	h, report, _ := s.healthOf(kind, types.NamespacedName{Namespace: namespace, Name: name})(owner)
	if !report {
		return ""
	}
	status, reason, message := h.Condition()
	return string(status) + " " + reason + " " + message
}
