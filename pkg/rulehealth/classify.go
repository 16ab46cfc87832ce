package rulehealth

import (
	"regexp"
	"strings"

	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// evalClasses are the evaluation errors of PromQL and of the rule manager that carry
// series or numbers in their text: the class keeps the stable part. They are checked in
// order, the first match wins.
var evalClasses = []string{
	"many-to-many matching not allowed: matching labels must be unique on one side",
	"many-to-one matching must be explicit (group_left/group_right)",
	"grouping labels must ensure unique matches",
	"vector contains metrics with the same labelset after applying alert labels",
	"vector contains metrics with the same labelset after applying rule labels",
	"vector cannot contain metrics with the same labelset",
	"query timed out",
	"query was canceled",
	"query processing would load too many samples into memory",
	"query would load too many series into memory",
	"query would read too many samples",
}

var (
	// limitExceeded is the rule manager's "exceeded limit of 10 with 12 alerts": the
	// counts change from one evaluation to the next.
	limitExceeded = regexp.MustCompile(`exceeded limit of [0-9]+ with [0-9]+ (alerts|series)`)
	// labelSet is a series or a label set in an error text.
	labelSet = regexp.MustCompile(`\{[^{}]*\}`)
)

// Classify returns the class of a rule's evaluation error (its lastError): a short text
// without series, values or addresses that stays the same while the cause does, so that
// a rule failing the same way at every evaluation causes no status write. An empty error
// has the class "".
func Classify(err string) string {
	err = strings.TrimSpace(err)
	if err == "" {
		return ""
	}
	for _, c := range evalClasses {
		if strings.Contains(err, c) {
			return c
		}
	}
	if m := limitExceeded.FindStringSubmatch(err); m != nil {
		return "limit exceeded: too many " + m[1]
	}
	// Thanos Ruler's queries and remote storage fail as network errors do: the target
	// health classes (connection refused, HTTP status, timeouts), or the last part of the
	// error with quoted text and addresses removed.
	return targethealth.Classify(labelSet.ReplaceAllString(err, "{…}"))
}
