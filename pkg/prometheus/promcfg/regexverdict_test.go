package promcfg

import (
	"fmt"
	"testing"
)

// TestCompileRelabelRegex: a remembered verdict is the verdict, for an expression that
// compiles and for one that does not, and the memory stays within its bound.
func TestCompileRelabelRegex(t *testing.T) {
	for range 2 {
		if err := compileRelabelRegex("(a|b);true"); err != nil {
			t.Errorf("(a|b);true: %v", err)
		}
		if err := compileRelabelRegex("(unclosed"); err == nil {
			t.Error("(unclosed compiled")
		}
	}
	for i := range maxRegexVerdicts + 10 {
		if err := compileRelabelRegex(fmt.Sprintf("bound-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	regexVerdicts.Lock()
	n := len(regexVerdicts.m)
	regexVerdicts.Unlock()
	if n > maxRegexVerdicts {
		t.Errorf("%d verdicts remembered, more than %d", n, maxRegexVerdicts)
	}
}
