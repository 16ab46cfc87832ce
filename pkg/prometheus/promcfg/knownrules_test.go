package promcfg

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
)

// TestElideKnownRules: rules seen load are left out of later loads, but the first rule of
// each list; a rule is learned only when its text loaded; a job with its own name
// validation scheme keeps every rule.
func TestElideKnownRules(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	c := newFileCheck(newLoader(), nil, false, global)
	rule := func(target string) M { return M{{"source_labels", []string{"a"}}, {"target_label", target}} }
	job := func(name string, rules, metricRules []M, extra ...KV) []byte {
		m := M{{"job_name", name}, {"static_configs", []M{{{"targets", []string{"a:80"}}}}}}
		m = append(m, extra...)
		m = append(m, KV{"relabel_configs", rules})
		if metricRules != nil {
			m = append(m, KV{"metric_relabel_configs", metricRules})
		}
		return EncodeListItem(m)
	}
	first := job("a", []M{rule("x"), rule("y"), rule("z")}, []M{rule("m"), rule("n")})
	if got, kept := c.elideKnownRules(first); string(got) != string(first) || len(kept) != 5 {
		t.Fatalf("nothing known yet: %d rules kept, text\n%s", len(kept), got)
	}
	if err := c.jobs([][]byte{first}, [][]string{{"a"}}, true); err != nil {
		t.Fatal(err)
	}
	second := job("b", []M{rule("x"), rule("y"), rule("new"), rule("z")}, []M{rule("m"), rule("n")})
	got, kept := c.elideKnownRules(second)
	want := string(job("b", []M{rule("x"), rule("new")}, []M{rule("m")}))
	if string(got) != want || len(kept) != 1 {
		t.Errorf("%d rules kept, text\n%s\nwant\n%s", len(kept), got, want)
	}
	// A refused text teaches nothing: the invalid rule stays in every later load.
	bad := job("c", []M{rule("x"), {{"source_labels", []string{"a"}}, {"action", "replace"}}}, nil)
	for range 2 {
		if err := c.jobs([][]byte{bad}, [][]string{{"c"}}, true); err == nil {
			t.Fatal("a replace rule without target_label was accepted")
		}
	}
	// A job with a scheme of its own keeps its rules, which are judged by that scheme.
	dotted := job("d", []M{rule("x"), rule("team.name")}, nil)
	if err := c.jobs([][]byte{dotted}, [][]string{{"d"}}, true); err != nil {
		t.Fatal(err)
	}
	legacy := job("e", []M{rule("x"), rule("team.name")}, nil, KV{"metric_name_validation_scheme", "legacy"})
	if got, _ := c.elideKnownRules(legacy); string(got) != string(legacy) {
		t.Errorf("a job with its own scheme lost rules:\n%s", got)
	}
	if err := c.jobs([][]byte{legacy}, [][]string{{"e"}}, true); err == nil || !strings.Contains(err.Error(), "team.name") {
		t.Errorf("a dotted target under the legacy scheme: %v, want a refusal", err)
	}
}

// TestKnownRulesKeepVerdicts: batches of jobs drawn from valid and invalid rules, static
// targets written as URLs and empty rule lists get the same verdict with the known rules
// left out as loaded as written, whatever was learned before.
func TestKnownRulesKeepVerdicts(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	pool := []M{
		{{"source_labels", []string{"job"}}, {"target_label", "__tmp_job"}},
		{{"source_labels", []string{"a", "b"}}, {"regex", "(x);true"}, {"action", "keep"}},
		{{"source_labels", []string{"a"}}, {"regex", "(unclosed"}, {"action", "keep"}}, // invalid regex
		{{"source_labels", []string{"a"}}, {"action", "replace"}},                      // no target
		{{"target_label", "endpoint"}, {"replacement", "web"}},
		{{"source_labels", []string{"a"}}, {"target_label", "1abc"}},
		{{"action", "hashmod"}, {"source_labels", []string{"a"}}, {"target_label", "h"}, {"modulus", 0}}, // modulus 0
		{{"regex", "__meta_(.+)"}, {"action", "labelmap"}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	job := func(i int) ([]byte, string) {
		name := fmt.Sprintf("j%d", i)
		target := "a:80"
		if rng.IntN(6) == 0 {
			target = "http://a:80" // refused only when relabel_configs is empty
		}
		m := M{{"job_name", name}, {"static_configs", []M{{{"targets", []string{target}}}}}}
		for _, key := range []string{"relabel_configs", "metric_relabel_configs"} {
			n := rng.IntN(4)
			if n == 0 {
				continue
			}
			var rules []M
			for range n {
				rules = append(rules, pool[rng.IntN(len(pool))])
			}
			m = append(m, KV{key, rules})
		}
		return EncodeListItem(m), name
	}
	c := newFileCheck(newLoader(), nil, false, global)
	accepted := sameVerdictsElided(t, c, global, 300, func(i int) (texts [][]byte, names [][]string) {
		for k := range 1 + rng.IntN(3) {
			text, name := job(i*10 + k)
			texts, names = append(texts, text), append(names, []string{name})
		}
		return texts, names
	})
	if accepted < 20 || accepted > 280 {
		t.Errorf("%d of 300 batches accepted: the cases do not exercise both verdicts", accepted)
	}
}

// sameVerdictsElided loads n batches, batch(i) giving batch i's texts and job names, with
// c and elision, and with a new check under global as written; it fails the test at the
// first batch whose verdicts differ and returns how many batches were accepted.
func sameVerdictsElided(t *testing.T, c *fileCheck, global []byte, n int, batch func(i int) ([][]byte, [][]string)) int {
	t.Helper()
	accepted := 0
	for i := range n {
		texts, names := batch(i)
		asWritten := newFileCheck(newLoader(), nil, false, global).jobs(texts, names, false)
		elided := c.jobs(texts, names, true)
		if (asWritten == nil) != (elided == nil) {
			t.Fatalf("batch %d: as written %v, with known rules and shapes left out %v:\n%s", i, asWritten, elided, texts)
		}
		if asWritten == nil {
			accepted++
		}
	}
	return accepted
}

// TestPlainValueAsYAML: where plainValue reads a scalar without yaml.v2, it reads what
// yaml.v2 reads, for random scalars over its alphabet and the resolvable words.
func TestPlainValueAsYAML(t *testing.T) {
	const alphabet = "aZ09()|;.*+?^$_=-:# '\"\\[]{},!&%@`<>~\t"
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []string{"null", "Null", "NULL", "~", "yes", "off", "0x10", ".inf", ".NaN", "1e3", "-1", "?a", "a:b", "(a|b);true"}
	for range 20000 {
		b := make([]byte, 1+rng.IntN(8))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	fast := 0
	for _, raw := range cases {
		got, ok := plainValue([]byte(raw))
		if !ok {
			continue
		}
		fast++
		var v struct {
			Regex string `yaml:"regex"`
		}
		if err := yaml.UnmarshalStrict([]byte("regex: "+raw), &v); err != nil || v.Regex != got {
			t.Errorf("%q: plainValue %q, yaml.v2 %q (%v)", raw, got, v.Regex, err)
		}
	}
	if fast < 1000 {
		t.Errorf("only %d scalars took the fast path", fast)
	}
}
