package lint

import "strings"

func init() {
	register(&Check{
		Name:     "rule-missing-annotations",
		Severity: Warning,
		Summary:  "an alert has no `summary` or no `description` annotation: the notification says too little",
		Run:      ruleMissingAnnotations,
	}, &Check{
		Name:     "rule-missing-runbook",
		Severity: Info,
		Summary:  "an alert has no `runbook_url` annotation: whoever is paged has nothing to follow",
		Run:      ruleMissingRunbook,
	})
}

func ruleMissingAnnotations(in *Inputs) []Finding {
	var out []Finding
	eachRule(in, func(r ruleRef) {
		if !r.Alert() {
			return
		}
		var missing []string
		for _, a := range []string{"summary", "description"} {
			if strings.TrimSpace(r.Rule.Annotations[a]) == "" {
				missing = append(missing, a)
			}
		}
		if len(missing) > 0 {
			out = append(out, r.finding("no %s annotation", strings.Join(missing, " and no ")))
		}
	})
	return out
}

func ruleMissingRunbook(in *Inputs) []Finding {
	var out []Finding
	eachRule(in, func(r ruleRef) {
		if r.Alert() && strings.TrimSpace(r.Rule.Annotations["runbook_url"]) == "" {
			out = append(out, r.finding("no runbook_url annotation"))
		}
	})
	return out
}
