package lint

import (
	"fmt"
	"sort"
)

// Finding is one problem a check found in one object.
type Finding struct {
	Check    string   `json:"check"`
	Severity Severity `json:"severity"`
	// Kind, Namespace and Name are the object's.
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// File and Line are where the object was read from (empty and 0 when unknown).
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`

	// own is set when the check chose the severity (below its own, see Check.Severity).
	own bool
}

// withSeverity returns f with its own severity.
func (f Finding) withSeverity(s Severity) Finding {
	f.Severity, f.own = s, true
	return f
}

// Object returns "Kind namespace/name".
func (f Finding) Object() string { return f.Kind + " " + f.Namespace + "/" + f.Name }

// at returns a finding about the object kind namespace/name.
func at(kind, namespace, name, format string, args ...any) Finding {
	return Finding{Kind: kind, Namespace: namespace, Name: name, Message: fmt.Sprintf(format, args...)}
}

// sortFindings orders findings by file, line, object, check and message.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Object() != b.Object():
			return a.Object() < b.Object()
		case a.Check != b.Check:
			return a.Check < b.Check
		}
		return a.Message < b.Message
	})
}
