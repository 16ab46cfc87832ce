package promctrl

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

func TestWithoutCostCondition(t *testing.T) {
	live := monitoringv1.PrometheusStatus{Replicas: 2, Conditions: []monitoringv1.Condition{{Type: "Available"}, {Type: "TopMonitors"}, {Type: "Reconciled"}}}
	got := withoutCostCondition(live)
	if len(got.Conditions) != 2 || got.Conditions[0].Type != "Available" || got.Conditions[1].Type != "Reconciled" || got.Replicas != 2 {
		t.Errorf("got %+v", got)
	}
	if live.Conditions[1].Type != "TopMonitors" || live.Conditions[2].Type != "Reconciled" {
		t.Errorf("the live status changed: %+v", live.Conditions)
	}
	if got := withoutCostCondition(monitoringv1.PrometheusStatus{}); len(got.Conditions) != 0 {
		t.Errorf("empty: %+v", got)
	}
}
