package rulehealth

import (
	"encoding/json"
	"io"

	"github.com/lookout-operator/lookout/pkg/promanswer"
)

// Group is what is kept of one rule group of /api/v1/rules.
type Group struct {
	Name string `json:"name"`
	// File is the path of the rule file the group comes from.
	File string `json:"file"`
	// Interval and EvaluationTime are in seconds: the group's evaluation interval and how
	// long its last evaluation took.
	Interval       float64 `json:"interval"`
	EvaluationTime float64 `json:"evaluationTime"`
	Rules          []Rule  `json:"rules"`
}

// Rule is what is kept of one rule of a group.
type Rule struct {
	Name string `json:"name"`
	// Health is "ok", "err" or "unknown" (not evaluated yet).
	Health    string `json:"health"`
	LastError string `json:"lastError"`
	// Alerts are the active alerts of an alerting rule; only their state is kept.
	Alerts []Alert `json:"alerts"`
}

// Alert is the state of one active alert: "pending" or "firing".
type Alert struct {
	State string `json:"state"`
}

// Firing is the number of firing alerts of the rule.
func (r Rule) Firing() int {
	n := 0
	for _, a := range r.Alerts {
		if a.State == "firing" {
			n++
		}
	}
	return n
}

// ParseRules reads an answer of /api/v1/rules and calls fn for every rule group, one at
// a time: the answer, megabytes with thousands of rules, their queries, labels,
// annotations and active alerts, is never held whole. Of a group only its name, file,
// interval, evaluation time and rules (name, health, last error, alert states) are kept.
// A Prometheus error answer ("status":"error") is an error.
func ParseRules(r io.Reader, fn func(Group)) error {
	return promanswer.Stream(r, "rules", func(key string, dec *json.Decoder) error {
		if key != "groups" {
			return promanswer.Skip(dec)
		}
		return promanswer.Elements(dec, func(dec *json.Decoder) error {
			var g Group
			if err := dec.Decode(&g); err != nil {
				return err
			}
			fn(g)
			return nil
		})
	})
}
