package promcfg

import (
	"strconv"
	"strings"
)

// Validating every monitor's jobs with Prometheus's loader is the expensive part of
// generation (YAML parsing dominates). Two things keep it cheap without giving it up:
//
//  1. Relabel rules the operator builds from inputs that cannot make them invalid are
//     tagged trusted (relabelRule.trusted): constant rules, rules from validated label
//     selectors (values regexp.QuoteMeta'd, names sanitized) and label copies. They are
//     left out of the text handed to the loader. Rules carrying user text the loader must
//     judge (port names used as regexes, the user's relabelings) are never trusted.
//  2. The job name and the discovery namespaces (any string is valid there) are replaced
//     by constants, and the loader's verdict is memoized by the SHA-256 of the resulting
//     text together with the global section. Monitors of the same shape share one load.
//
// FuzzGenerate and the golden tests load whole generated configs to check that nothing the
// shortcut accepts is rejected by Prometheus.

// validationShape returns the job as the loader sees it for memoization.
func validationShape(job M, i int) M {
	out := make(M, 0, len(job))
	for _, kv := range job {
		switch kv.K {
		case "job_name":
			kv.V = "job-" + strconv.Itoa(i)
		case "scrape_classic_histograms":
			// Prometheus 2.x spelling; the linked loader knows the 3.x name.
			kv.K = "always_scrape_classic_histograms"
		case "kubernetes_sd_configs":
			kv.V = normalizeSD(kv.V)
		case "relabel_configs":
			rules, _ := kv.V.([]M)
			kept := make([]M, 0, len(rules))
			for _, r := range rules {
				if !isTrusted(r) {
					kept = append(kept, r)
				}
			}
			if len(kept) == 0 && len(rules) > 0 {
				// Prometheus checks static targets for URLs only when a job has no
				// relabelings; keep one so the verdict is the same as for the full job.
				kept = rules[:1]
			}
			kv.V = kept
		}
		out = append(out, kv)
	}
	return out
}

func normalizeSD(v any) any {
	sds, ok := v.([]M)
	if !ok {
		return v
	}
	out := make([]M, len(sds))
	for i, sd := range sds {
		c := make(M, 0, len(sd))
		for _, kv := range sd {
			if kv.K == "namespaces" {
				kv.V = M{{"names", []string{"ns"}}}
			}
			c = append(c, kv)
		}
		out[i] = c
	}
	return out
}

func isTrusted(r M) bool {
	return len(r) > 0 && r[len(r)-1].K == trustedMarker
}

// validateShapes validates the jobs' shapes against the global section with l.
func validateShapes(l *loader, globalOnly []byte, jobs []M) error {
	var b strings.Builder
	b.Write(globalOnly)
	b.WriteString("scrape_configs:\n")
	for i, j := range jobs {
		b.Write(EncodeListItem(validationShape(j, i)))
	}
	return l.load([]byte(b.String()))
}
