package promcfg

import (
	"testing"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
)

// TestSampleLimitAsMonitorCostSees: the limit pkg/monitorcost compares a monitor's
// busiest target with is the job's sample_limit this package writes (effectiveLimit),
// or Prometheus's global one when the job has none.
func TestSampleLimitAsMonitorCostSees(t *testing.T) {
	vals := []*int64{nil, ptrTo(0), ptrTo(500), ptrTo(1000), ptrTo(5000)}
	for _, own := range vals {
		for _, enforced := range vals {
			for _, global := range vals {
				want := int64(0)
				if v := effectiveLimit(own, enforced); v != nil && *v > 0 {
					want = *v
				} else if global != nil && *global > 0 {
					want = *global
				}
				l := monitorcost.Limits{}
				if enforced != nil && *enforced > 0 {
					l.Enforced = *enforced
				}
				if global != nil && *global > 0 {
					l.Global = *global
				}
				if got := l.InForce(own).Value; got != want {
					t.Errorf("own %v enforced %v global %v: monitorcost says %d, the configuration %d", deref(own), deref(enforced), deref(global), got, want)
				}
			}
		}
	}
}

func ptrTo(v int64) *int64 { return &v }

func deref(p *int64) any {
	if p == nil {
		return "nil"
	}
	return *p
}
