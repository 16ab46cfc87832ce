package monitorcost

import (
	"fmt"
	"strconv"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// ConditionType is the type of the binding condition a monitor's cost becomes.
const ConditionType monitoringv1.ConditionType = "SampleCost"

// Reasons of the SampleCost condition.
const (
	// ReasonWithinSampleLimit: the busiest target is at most WarnPercent of the limit
	// in force (True).
	ReasonWithinSampleLimit = "WithinSampleLimit"
	// ReasonNoSampleLimit: no sample limit applies (True).
	ReasonNoSampleLimit = "NoSampleLimit"
	// ReasonNearSampleLimit: the busiest target is above WarnPercent of the limit (False).
	ReasonNearSampleLimit = "NearSampleLimit"
)

// WarnPercent is the share of the sample limit above which the condition turns False.
const WarnPercent = 80

// Condition returns the status, reason and message of the SampleCost condition of a
// (rounded) cost under a limit. The percentage is of the busiest target's samples, the
// limit applying to every scrape of every target; it is computed from the rounded
// figure, so the message depends on the rounded figures only. Messages start with the
// samples, which is what the Samples column of kubectl get shows.
func Condition(c Cost, l Limit) (status monitoringv1.ConditionStatus, reason, message string) {
	msg := fmt.Sprintf("%s samples, %s series added per scrape from %s", Thousands(c.Samples), Thousands(c.SeriesAdded), targets(c))
	if l.Value <= 0 {
		return monitoringv1.ConditionTrue, ReasonNoSampleLimit, msg + " (no sample limit)"
	}
	pct := c.MaxTargetSamples * 100 / l.Value
	msg += fmt.Sprintf(" (busiest target at %d%% of %s %s)", pct, l.Field, Thousands(l.Value))
	if c.MaxTargetSamples*100 > WarnPercent*l.Value {
		return monitoringv1.ConditionFalse, ReasonNearSampleLimit, msg
	}
	return monitoringv1.ConditionTrue, ReasonWithinSampleLimit, msg
}

func targets(c Cost) string {
	s := "1 target"
	if c.Targets != 1 {
		s = strconv.Itoa(c.Targets) + " targets"
	}
	if c.Scraped < c.Targets {
		s += fmt.Sprintf(" (%d not scraped yet)", c.Targets-c.Scraped)
	}
	return s
}

// Thousands writes n with commas between groups of three digits: 12,345.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := false
	if n < 0 {
		neg, s = true, s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
