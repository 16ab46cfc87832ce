package reloader

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	t.Parallel()
	env := map[string]string{"POD_NAME": "prometheus-k8s-0", "SHARD": "1", "EMPTY": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct {
		in, want string
		unset    []string
	}{
		{"", "", nil},
		{"no refs", "no refs", nil},
		{"replica: $(POD_NAME)", "replica: prometheus-k8s-0", nil},
		{"$(POD_NAME)/$(SHARD)/$(POD_NAME)", "prometheus-k8s-0/1/prometheus-k8s-0", nil},
		{"x$(EMPTY)y", "xy", nil},
		{"a: $(NOPE) b: $(NOPE) c: $(SHARD)", "a: $(NOPE) b: $(NOPE) c: 1", []string{"NOPE", "NOPE"}},
		// Prometheus's own syntaxes are not references.
		{"replacement: $1 ${1} $POD_NAME ${POD_NAME}", "replacement: $1 ${1} $POD_NAME ${POD_NAME}", nil},
		{"$() $(A-B) $(POD_NAME", "$() $(A-B) $(POD_NAME", nil},
		{"$$(SHARD)", "$1", nil},
	} {
		got, unset := Expand([]byte(tc.in), lookup)
		if string(got) != tc.want || !slices.Equal(unset, tc.unset) {
			t.Errorf("Expand(%q) = %q, %v; want %q, %v", tc.in, got, unset, tc.want, tc.unset)
		}
	}
}

func FuzzExpand(f *testing.F) {
	f.Add("a $(X) b $(Y) $(")
	f.Fuzz(func(t *testing.T, in string) {
		// With every variable unset the output equals the input.
		out, _ := Expand([]byte(in), func(string) (string, bool) { return "", false })
		if string(out) != in {
			t.Fatalf("unset expansion changed %q to %q", in, out)
		}
	})
}

// regexpExpand is the reference semantics: prometheus-config-reloader's expansion, a
// regular expression replacement over the whole input.
func regexpExpand(in string, lookup func(string) (string, bool)) (string, []string) {
	var unset []string
	out := regexp.MustCompile(`\$\(([A-Za-z0-9_]+)\)`).ReplaceAllStringFunc(in, func(ref string) string {
		name := ref[2 : len(ref)-1]
		if v, ok := lookup(name); ok {
			return v
		}
		unset = append(unset, name)
		return ref
	})
	return out, unset
}

// expandChunked streams in through an expander in pieces cut at the given offsets.
func expandChunked(in string, cuts []byte, lookup func(string) (string, bool)) (string, []string, int) {
	var b strings.Builder
	e := newExpander(&b, lookup)
	rest := in
	for _, c := range cuts {
		n := min(int(c)%8, len(rest))
		_, _ = e.Write([]byte(rest[:n]))
		rest = rest[n:]
	}
	_, _ = e.Write([]byte(rest))
	_ = e.Close()
	return b.String(), e.unset, e.unsetCount
}

// FuzzExpandStreaming: expanding in pieces split anywhere gives what the regular
// expression gives on the whole input, with the same unset references.
func FuzzExpandStreaming(f *testing.F) {
	for _, s := range []string{"a $(X) b $(Y) $(", "$$(A)", "$(A$(B)", "$($(A))", "$(A)$(B)$", "x$(", "$(AB", "$()$(_)"} {
		f.Add(s, []byte{1, 2, 3})
	}
	env := map[string]string{"A": "alpha", "B": "$(A)", "_": "", "X": "$"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	f.Fuzz(func(t *testing.T, in string, cuts []byte) {
		want, wantUnset := regexpExpand(in, lookup)
		got, unset, count := expandChunked(in, cuts, lookup)
		if got != want {
			t.Fatalf("%q cut at %v: %q, want %q", in, cuts, got, want)
		}
		if count != len(wantUnset) || !slices.Equal(unset, wantUnset[:min(len(wantUnset), maxUnsetRecorded)]) {
			t.Fatalf("%q: unset %v (%d), want %v", in, unset, count, wantUnset)
		}
	})
}

func TestExpandLongName(t *testing.T) {
	t.Parallel()
	lookup := func(string) (string, bool) { return "v", true }
	// The longest name a variable can have is expanded, even across writes...
	name := strings.Repeat("N", maxRefName)
	got, _, _ := expandChunked("<$("+name+")>", []byte{7, 7, 7}, lookup)
	if got != "<v>" {
		t.Fatalf("longest name not expanded: %.20q", got)
	}
	// ...a longer one cannot exist and is copied as it is.
	in := "<$(" + name + "N)>"
	if got, _, _ := expandChunked(in, nil, lookup); got != in {
		t.Fatalf("over-long name changed: %.20q...", got)
	}
}

func TestExpandUnsetRecordedBounded(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("$(NOPE) ", 1000)
	got, unset, count := expandChunked(in, nil, func(string) (string, bool) { return "", false })
	if got != in || count != 1000 || len(unset) != maxUnsetRecorded {
		t.Fatalf("count %d, %d recorded", count, len(unset))
	}
}
