package promctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
)

// withoutCostCondition is a live status without the TopMonitors condition, which the
// target health poller applies with a field manager of its own (ADR 0034): the status
// this controller computes never holds it, and comparing with a live status that does
// would make every reconcile write. The live conditions are not changed.
func withoutCostCondition(s monitoringv1.PrometheusStatus) monitoringv1.PrometheusStatus {
	for i, c := range s.Conditions {
		if c.Type != monitorcost.TopConditionType {
			continue
		}
		conds := make([]monitoringv1.Condition, 0, len(s.Conditions)-1)
		conds = append(conds, s.Conditions[:i]...)
		s.Conditions = append(conds, s.Conditions[i+1:]...)
		return s
	}
	return s
}
