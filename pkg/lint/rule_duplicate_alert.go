package lint

import (
	"fmt"
	"sort"
	"strings"
)

func init() {
	register(&Check{
		Name:     "rule-duplicate-alert",
		Severity: Warning,
		Summary:  "two alerts of one namespace have the same name and the same labels: their alerts cannot be told apart",
		Run:      ruleDuplicateAlert,
	})
}

// ruleDuplicateAlert finds alerts of one namespace with the same name and static labels.
// Alerts sharing a name but not their labels (the usual warning/critical pair with
// severity labels) are distinct and not reported.
func ruleDuplicateAlert(in *Inputs) []Finding {
	var out []Finding
	first := map[string]ruleRef{}
	eachRule(in, func(r ruleRef) {
		if !r.Alert() {
			return
		}
		k := r.PR.Namespace + "\x00" + r.Rule.Alert + "\x00" + labelString(r.Rule.Labels)
		prev, dup := first[k]
		if !dup {
			first[k] = r
			return
		}
		out = append(out, r.finding("duplicates the alert of PrometheusRule %s/%s (group %q, rule %d) with the same labels %s",
			prev.PR.Namespace, prev.PR.Name, prev.Group, prev.Index, labelString(r.Rule.Labels)))
	})
	return out
}

func labelString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%q", k, m[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}
