package lint

import "regexp"

func init() {
	register(&Check{
		Name:     "rule-record-name",
		Severity: Info,
		Summary:  "a recording rule's name is not in the `level:metric:operations` form",
		Run:      ruleRecordName,
	})
}

// recordName is level:metric:operations: at least three non-empty parts joined by colons.
var recordName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*(:[a-zA-Z0-9_]+){2,}$`)

func ruleRecordName(in *Inputs) []Finding {
	var out []Finding
	eachRule(in, func(r ruleRef) {
		if r.Rule.Record != "" && !recordName.MatchString(r.Rule.Record) {
			out = append(out, r.finding("the name is not level:metric:operations (for example instance:http_requests:rate5m)"))
		}
	})
	return out
}
