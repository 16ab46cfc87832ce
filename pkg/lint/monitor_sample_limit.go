package lint

import (
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

const sampleLimitCheck = "monitor-sample-limit-exceeded"

func init() {
	register(&Check{
		Name:     sampleLimitCheck,
		Severity: Error,
		Summary:  "live only: a target of the monitor exposes more samples than the sample limit in force (error: the scrape fails), or more than 80% of it (warning)",
		Run:      monitorSampleLimit,
	})
}

// monitorSampleLimit compares, for each monitor of the cluster a measured Prometheus
// scrapes, its busiest target's samples per scrape (after metric relabeling, what
// sample_limit counts) with the limit in force: the monitor's sampleLimit and the
// Prometheus's enforcedSampleLimit and sampleLimit as pkg/monitorcost decides, read from
// the objects linted (a file's replaces the cluster's). Monitors only in the files have
// no measurement and are not judged; nor are those the files make the Prometheus drop.
func monitorSampleLimit(in *Inputs) []Finding {
	if in.measured == nil {
		return nil
	}
	monitors := map[string]client.Object{}
	for _, k := range monitorkind.All {
		k.Each(&in.Objects.Monitors, func(m client.Object) { monitors[key(k.Name, m.GetNamespace(), m.GetName())] = m })
	}
	proms := map[string]*promserver.Server{}
	for _, p := range in.Objects.Prometheuses {
		proms[p.Namespace+"/"+p.Name] = p
	}
	var out []Finding
	for _, pr := range in.measured.Prometheuses {
		by := pr.Namespace + "/" + pr.Name
		var limits monitorcost.Limits
		if p := proms[by]; p != nil {
			limits = monitorcost.LimitsOf(p.Spec)
		}
		for _, row := range pr.Monitors {
			k := key(row.Kind, row.Namespace, row.Name)
			m := monitors[k]
			if m == nil || !in.inCluster[k] || dropped(in.Verdicts(row.Kind, row.Namespace, row.Name), "Prometheus "+by) {
				continue
			}
			l := limits.InForce(monitorcost.SampleLimitOf(m))
			if l.Value <= 0 {
				continue
			}
			n := row.MaxTargetSamples
			switch {
			case n > l.Value:
				out = append(out, at(row.Kind, row.Namespace, row.Name,
					"in Prometheus %s the busiest of its %s exposes %s samples per scrape (after metric relabeling), more than %s %s: Prometheus fails its scrapes (sample limit exceeded, up == 0)",
					by, targetCount(row.Targets), monitorcost.Thousands(n), l.Field, monitorcost.Thousands(l.Value)))
			case n*100 > monitorcost.WarnPercent*l.Value:
				out = append(out, at(row.Kind, row.Namespace, row.Name,
					"in Prometheus %s the busiest of its %s exposes %s samples per scrape (after metric relabeling), %d%% of %s %s: a little growth and its scrapes fail",
					by, targetCount(row.Targets), monitorcost.Thousands(n), n*100/l.Value, l.Field, monitorcost.Thousands(l.Value)).withSeverity(Warning))
			}
		}
	}
	return out
}

// dropped reports whether the verdicts hold one of by's and it does not bind the
// monitor (the files changed the monitor or the Prometheus so that it is not scraped).
func dropped(vs []Verdict, by string) bool {
	for _, v := range vs {
		if v.By == by {
			return !v.Binds()
		}
	}
	return false
}

func targetCount(n int) string {
	if n == 1 {
		return "1 target"
	}
	return fmt.Sprintf("%d targets", n)
}
