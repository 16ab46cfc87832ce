package resourcestatus

import "unicode/utf8"

// Bounds on what status and events say about an object. A message may quote the tenant's
// input (a regular expression of a megabyte, every problem of twenty thousand rules):
// unbounded, the status write of the object is too large for the API server and the
// object shows no verdict at all, and the API server refuses an Event whose note is over
// 1,024 bytes, so the Warning event is lost. What a message names first (the field) is
// kept; the rest is cut.
const (
	// MaxMessageBytes is the most a condition message takes.
	MaxMessageBytes = 4096
	// MaxEventNoteBytes is the most an Event's note may take.
	MaxEventNoteBytes = 1024
)

// Truncate cuts s to at most n bytes, at a character boundary, ending in "…" when cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
