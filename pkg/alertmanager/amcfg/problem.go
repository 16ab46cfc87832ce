package amcfg

import (
	"errors"
	"fmt"
)

// problem is why one AlertmanagerConfig cannot be used: the Verdict it becomes.
type problem struct {
	reason, field, message string
}

func (p *problem) Error() string {
	if p.field == "" {
		return p.message
	}
	return p.field + ": " + p.message
}

func invalid(field, format string, args ...any) *problem {
	return &problem{reason: ReasonInvalid, field: field, message: fmt.Sprintf(format, args...)}
}

// refProblem turns an Assets error into a problem; unavailable values keep the error so
// Check can tell them apart.
func refProblem(field string, err error) *problem {
	reason := ReasonInvalid
	if errors.Is(err, ErrNotFound) {
		reason = ReasonNotFound
	}
	return &problem{reason: reason, field: field, message: err.Error()}
}

func (p *problem) verdict() Verdict {
	return Verdict{Accepted: false, Reason: p.reason, Field: p.field, Message: p.message}
}
