package monitorcost

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

func TestRound(t *testing.T) {
	for in, want := range map[int64]int64{0: 0, 7: 7, 56: 56, 99: 99, 100: 100, 104: 100, 105: 110, 1234: 1200, 1250: 1300, 9960: 10000, 123456: 120000, -1234: -1200} {
		if got := Round(in); got != want {
			t.Errorf("Round(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for in, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12345: "-12,345"} {
		if got := Thousands(in); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", in, got, want)
		}
	}
}

func ptr(v int64) *int64 { return &v }

// TestInForce follows the generated configuration: the smaller of the monitor's limit
// and the enforced one, the enforced one alone, then the global one.
func TestInForce(t *testing.T) {
	for _, tc := range []struct {
		l    Limits
		own  *int64
		want Limit
	}{
		{Limits{}, nil, Limit{}},
		{Limits{}, ptr(0), Limit{}},
		{Limits{}, ptr(500), Limit{500, "sampleLimit"}},
		{Limits{Enforced: 1000}, nil, Limit{1000, "enforcedSampleLimit"}},
		{Limits{Enforced: 1000}, ptr(500), Limit{500, "sampleLimit"}},
		{Limits{Enforced: 1000}, ptr(5000), Limit{1000, "enforcedSampleLimit"}},
		{Limits{Global: 20000}, nil, Limit{20000, "the Prometheus's sampleLimit"}},
		{Limits{Global: 20000}, ptr(500), Limit{500, "sampleLimit"}},
		{Limits{Enforced: 1000, Global: 20000}, nil, Limit{1000, "enforcedSampleLimit"}},
	} {
		if got := tc.l.InForce(tc.own); got != tc.want {
			t.Errorf("%+v.InForce(%v) = %+v, want %+v", tc.l, tc.own, got, tc.want)
		}
	}
}

func TestSampleLimitOf(t *testing.T) {
	sm := &monitoringv1.ServiceMonitor{}
	sm.Spec.SampleLimit = ptr(7)
	if got := SampleLimitOf(sm); got == nil || *got != 7 {
		t.Errorf("ServiceMonitor: %v", got)
	}
	if SampleLimitOf(&monitoringv1.PrometheusRule{}) != nil || SampleLimitOf(&monitoringv1.Probe{}) != nil {
		t.Error("a limit where there is none")
	}
}

// TestCondition: the message and the warning above 80% of the limit, from the busiest
// target's samples.
func TestCondition(t *testing.T) {
	c := Cost{Samples: 1234, SeriesAdded: 56, MaxTargetSamples: 800, Targets: 2, Scraped: 2}.Rounded()
	for _, tc := range []struct {
		c               Cost
		l               Limit
		status          monitoringv1.ConditionStatus
		reason, message string
	}{
		{c, Limit{}, "True", ReasonNoSampleLimit, "1,200 samples, 56 series added per scrape from 2 targets (no sample limit)"},
		{c, Limit{10000, "sampleLimit"}, "True", ReasonWithinSampleLimit, "1,200 samples, 56 series added per scrape from 2 targets (busiest target at 8% of sampleLimit 10,000)"},
		{c, Limit{1000, "enforcedSampleLimit"}, "True", ReasonWithinSampleLimit, "1,200 samples, 56 series added per scrape from 2 targets (busiest target at 80% of enforcedSampleLimit 1,000)"},
		{c, Limit{999, "sampleLimit"}, "False", ReasonNearSampleLimit, "1,200 samples, 56 series added per scrape from 2 targets (busiest target at 80% of sampleLimit 999)"},
		{c, Limit{500, "sampleLimit"}, "False", ReasonNearSampleLimit, "1,200 samples, 56 series added per scrape from 2 targets (busiest target at 160% of sampleLimit 500)"},
		{Cost{Targets: 1}, Limit{500, "sampleLimit"}, "True", ReasonWithinSampleLimit, "0 samples, 0 series added per scrape from 1 target (1 not scraped yet) (busiest target at 0% of sampleLimit 500)"},
		{Cost{}, Limit{}, "True", ReasonNoSampleLimit, "0 samples, 0 series added per scrape from 0 targets (no sample limit)"},
	} {
		status, reason, msg := Condition(tc.c, tc.l)
		if status != tc.status || reason != tc.reason || msg != tc.message {
			t.Errorf("Condition(%+v, %+v) =\n %s %s %q\nwant\n %s %s %q", tc.c, tc.l, status, reason, msg, tc.status, tc.reason, tc.message)
		}
	}
}

func TestLimitsOf(t *testing.T) {
	spec := &monitoringv1.CommonPrometheusFields{EnforcedSampleLimit: ptr(1000), SampleLimit: ptr(20000)}
	if got := LimitsOf(spec); got != (Limits{Enforced: 1000, Global: 20000}) {
		t.Errorf("LimitsOf = %+v", got)
	}
	spec.EnforcedSampleLimit = ptr(0)
	if got := LimitsOf(spec); got != (Limits{Global: 20000}) {
		t.Errorf("LimitsOf with enforcedSampleLimit 0 = %+v", got)
	}
	if got := LimitsOf(nil); got != (Limits{}) {
		t.Errorf("LimitsOf(nil) = %+v", got)
	}
}
