package promcfg

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/relabel"
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
		if err := compileRelabelRegex(fmt.Sprintf("bound-%d+", i)); err != nil {
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

// TestSimpleRegexCompiles: every expression simpleRegex calls simple compiles as a relabel
// rule's regex, for random strings over its alphabet and the characters around it, and
// the usual selector and port expressions are simple.
func TestSimpleRegexCompiles(t *testing.T) {
	const alphabet = "aZ09_-.,;:/=@ |^$()?*+{}[]\\"
	rng := rand.New(rand.NewPCG(9, 10))
	cases := []string{"", "()", "(|)", "(a|b);true", "web", "(svc-1);true", strings.Repeat("(", 100) + strings.Repeat(")", 100), strings.Repeat("(", 101) + strings.Repeat(")", 101), "a)(b", "(?i)a", "a**"}
	for range 50000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	simple := 0
	for _, s := range cases {
		if !simpleRegex(s) {
			continue
		}
		simple++
		if _, err := relabel.NewRegexp(s); err != nil {
			t.Errorf("%q is simple but does not compile: %v", s, err)
		}
	}
	if simple < 2000 {
		t.Errorf("only %d simple expressions among the cases", simple)
	}
	for _, s := range []string{"(a|b);true", "web", "(svc-1);true", "__meta_kubernetes_service_label_(.+)"} {
		if want := !strings.ContainsAny(s, "+"); simpleRegex(s) != want {
			t.Errorf("simpleRegex(%q) = %v", s, !want)
		}
	}
}
