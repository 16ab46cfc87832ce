package resourcestatus

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/rulehealth"
)

// Rule health (issue 35): the RulesHealthy condition of the PrometheusRules' bindings,
// from the rules API of the Prometheus or ThanosRuler that selected them. It works as
// target health does (health.go): the poller publishes one snapshot per owner, the store
// queues only the objects whose health changed, and until an owner's first poll the live
// condition is kept.

// isRuleHealthKind reports whether kind's bindings carry a RulesHealthy condition.
func isRuleHealthKind(kind string) bool { return kind == monitoringv1.PrometheusRuleKind }

// EnableRuleHealth says that a poller publishes rule health: until an owner's first
// poll, the RulesHealthy conditions already in its bindings are kept. Without it,
// bindings carry no RulesHealthy condition (and lose one an earlier run wrote).
func (s *Store) EnableRuleHealth() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ruleHealthOn = true
}

// PublishRuleHealth replaces what the last poll of owner's rules API found, and queues
// every PrometheusRule it accepted whose health changed. Nothing is queued when nothing
// changed.
func (s *Store) PublishRuleHealth(owner Owner, snap *rulehealth.Snapshot) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ruleHealth == nil {
		s.ruleHealth = map[Owner]*rulehealth.Snapshot{}
	}
	old, hadOld := s.ruleHealth[owner]
	s.enqueueChangedLocked(owner, ruleKinds, func(_ string, nn types.NamespacedName) bool {
		return !hadOld || old.Health(nn.Namespace, nn.Name) != snap.Health(nn.Namespace, nn.Name)
	})
	s.ruleHealth[owner] = snap
}

// RuleHealthOwners are the owners that published PrometheusRule verdicts: the
// Prometheus and ThanosRuler objects whose rules API to poll, sorted by resource,
// namespace and name.
func (s *Store) RuleHealthOwners() []Owner { return s.ownersOf(ruleKinds) }

// ruleHealthOfLocked returns the health lookup of one PrometheusRule; the caller holds
// s.mu.
func (s *Store) ruleHealthOfLocked(nn types.NamespacedName) healthLookup {
	if !s.ruleHealthOn || s.healthOff[monitoringv1.PrometheusRuleKind] {
		return noHealth
	}
	snaps := make(map[Owner]rulehealth.Health, len(s.ruleHealth))
	for o, snap := range s.ruleHealth {
		snaps[o] = snap.Health(nn.Namespace, nn.Name)
	}
	return func(o Owner) (healthReport, bool, bool) {
		h, ok := snaps[o]
		return h, ok, !ok
	}
}

// RulesHealthyMessage is "<status> <reason> <message>" of the RulesHealthy condition
// owner's binding on a PrometheusRule would get now, "" when none (tests of other
// packages).
func RulesHealthyMessage(s *Store, namespace, name string, owner Owner) string {
	h, report, _ := s.healthOf(monitoringv1.PrometheusRuleKind, types.NamespacedName{Namespace: namespace, Name: name})(owner)
	if !report {
		return ""
	}
	status, reason, message := h.Condition()
	return string(status) + " " + reason + " " + message
}
