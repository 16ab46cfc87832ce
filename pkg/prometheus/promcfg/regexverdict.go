package promcfg

import (
	"strings"
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
	if simpleRegex(s) {
		return nil
	}
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

// maxSimpleDepth bounds the groups a simple expression nests; Go's parser refuses
// nesting past 1,000.
const maxSimpleDepth = 100

// simpleRegex reports whether s is made only of literal characters (letters, digits and
// _ - . , ; : / = @ and space), alternations, anchors and groups nested at most
// maxSimpleDepth deep that open and close in order: such an expression always compiles,
// so it needs no compiling to be judged (a selector's (value);true, a port name). Any
// repetition, class, escape or flag makes it not simple.
func simpleRegex(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case strings.IndexByte("_-.,;:/=@ |^$", c) >= 0:
		case c == '(':
			if depth++; depth > maxSimpleDepth {
				return false
			}
		case c == ')':
			if depth--; depth < 0 {
				return false
			}
		default:
			return false
		}
	}
	return depth == 0
}
