package promcfg

import (
	"testing"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "gopkg.in/yaml.v3"
)

// FuzzQuote: every string the emitter writes reads back as the same string with both the
// YAML library Prometheus uses (v2) and yaml.v3.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "yes", "No", "on", "~", "null", "123", "1e3", "0x1f", "1_000", ".inf", "-", "- a", "a: b", "a #b",
		"#x", "{x}", "[x]", "*x", "&x", "!x", "|", ">", "'", `"`, "%", "@", "`", "tab\there", "new\nline", "trailing ", " leading",
		"ünïcödé", "\x00\x01", "$(SHARD);|.+;.+", "${1}", "(.+)", "Node;(.*)", "2001-12-14", "1:20", "=", "<<", "+1", ".5", "30s", "1d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		doc := Encode(M{{"k", s}, {"l", []string{s}}})
		var v2 map[string]any
		if err := yaml2.Unmarshal(doc, &v2); err != nil {
			t.Fatalf("yaml.v2 cannot read %q as %q: %v", s, doc, err)
		}
		if v2["k"] != s {
			t.Fatalf("yaml.v2 read %q back as %#v (emitted %q)", s, v2["k"], doc)
		}
		var v3 struct {
			K string   `yaml:"k"`
			L []string `yaml:"l"`
		}
		if err := yaml3.Unmarshal(doc, &v3); err != nil || v3.K != s || len(v3.L) != 1 || v3.L[0] != s {
			t.Fatalf("yaml.v3 read %q back as %#v (%v)", s, v3, err)
		}
	})
}
