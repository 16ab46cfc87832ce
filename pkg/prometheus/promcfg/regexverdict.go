package promcfg

import (
	"sync"

	"github.com/prometheus/prometheus/model/relabel"
)

// regexVerdicts remembers whether strings compile as relabel regular expressions: the
// checks made while rendering meet the same few (a port name, a user's rule copied into
// many monitors) again and again. It forgets everything when full.
var regexVerdicts = struct {
	sync.Mutex
	m map[string]error
}{m: map[string]error{}}

const maxRegexVerdicts = 4096

// setRegex is what validateRelabel gives Config.Validate for a regex that compiles: the
// check compares a rule's regex with the default and reads nothing else of it.
var setRegex = relabel.MustNewRegexp("")

// compileRelabelRegex returns the error relabel.NewRegexp(s) returns, compiling each
// distinct s once while it is remembered.
func compileRelabelRegex(s string) error {
	regexVerdicts.Lock()
	err, ok := regexVerdicts.m[s]
	regexVerdicts.Unlock()
	if ok {
		return err
	}
	_, err = relabel.NewRegexp(s)
	regexVerdicts.Lock()
	defer regexVerdicts.Unlock()
	if len(regexVerdicts.m) >= maxRegexVerdicts {
		clear(regexVerdicts.m)
	}
	regexVerdicts.m[s] = err
	return err
}
