package promctrl

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

func TestStatusChange(t *testing.T) {
	old := monitoringv1.PrometheusStatus{Replicas: 1, Conditions: []monitoringv1.Condition{
		{Type: monitoringv1.Reconciled, Status: monitoringv1.ConditionFalse, Reason: "ApplyFailed", Message: "conflict"},
		{Type: monitoringv1.Available, Status: monitoringv1.ConditionFalse, Reason: "NoPodReady", Message: "0/1"},
	}}
	cur := monitoringv1.PrometheusStatus{Replicas: 1, Conditions: []monitoringv1.Condition{
		{Type: monitoringv1.Reconciled, Status: monitoringv1.ConditionTrue, Reason: "ReconcileSucceeded"},
		{Type: monitoringv1.Available, Status: monitoringv1.ConditionFalse, Reason: "NoPodReady", Message: "shard 0: not found"},
	}}
	got := statusChange(old, cur)
	for _, want := range []string{"Reconciled: False/ApplyFailed -> True/ReconcileSucceeded", `Available message: "0/1" -> "shard 0: not found"`} {
		if !strings.Contains(got, want) {
			t.Errorf("statusChange = %q, want it to contain %q", got, want)
		}
	}
	if got := statusChange(old, old); !strings.Contains(got, "other fields") {
		t.Errorf("no visible change: %q", got)
	}
}
