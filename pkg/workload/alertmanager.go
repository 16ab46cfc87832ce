package workload

import (
	"regexp"
)

// goDuration is the syntax of the API's GoDuration fields (what the CRD enforces).
var goDuration = regexp.MustCompile(`^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$`)
