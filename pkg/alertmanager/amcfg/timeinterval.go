package amcfg

import (
	"fmt"
	"strconv"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/timeinterval"
	yaml "go.yaml.in/yaml/v2"
)

// timeIntervals converts spec.muteTimeIntervals. Each interval is parsed with
// Alertmanager's own timeinterval package so a bad one is reported at its field.
func (c *conv) timeIntervals(in []monitoringv1alpha1.MuteTimeInterval) ([]any, *problem) {
	var out []any
	seen := map[string]bool{}
	for i, mti := range in {
		f := fmt.Sprintf("spec.muteTimeIntervals[%d]", i)
		if mti.Name == "" {
			return nil, invalid(f+".name", "the name must not be empty")
		}
		if seen[mti.Name] {
			return nil, invalid(f+".name", "duplicate time interval name %q", mti.Name)
		}
		seen[mti.Name] = true
		var tis []any
		for j, ti := range mti.TimeIntervals {
			o := &obj{}
			var times []any
			for _, t := range ti.Times {
				times = append(times, (&obj{}).set("start_time", string(t.StartTime)).set("end_time", string(t.EndTime)).ms)
			}
			o.set("times", times)
			o.set("weekdays", strs(ti.Weekdays))
			var doms []string
			for _, d := range ti.DaysOfMonth {
				if d.End == 0 || d.End == d.Start {
					doms = append(doms, strconv.Itoa(d.Start))
				} else {
					doms = append(doms, strconv.Itoa(d.Start)+":"+strconv.Itoa(d.End))
				}
			}
			o.set("days_of_month", doms)
			o.set("months", strs(ti.Months))
			o.set("years", strs(ti.Years))
			b, err := yaml.Marshal(o.ms)
			if err == nil {
				var check timeinterval.TimeInterval
				err = yaml.UnmarshalStrict(b, &check)
			}
			if err != nil {
				return nil, invalid(fmt.Sprintf("%s.timeIntervals[%d]", f, j), "invalid time interval: %v", err)
			}
			tis = append(tis, o.ms)
		}
		out = append(out, (&obj{}).set("name", c.named(mti.Name)).put2("time_intervals", tis).ms)
	}
	return out, nil
}

// put2 sets key even when v is empty (Alertmanager requires time_intervals).
func (o *obj) put2(key string, v []any) *obj {
	if v == nil {
		v = []any{}
	}
	o.put(key, v)
	return o
}

func strs[T ~string](in []T) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = string(s)
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }
