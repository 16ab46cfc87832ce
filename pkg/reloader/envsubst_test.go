package reloader

import (
	"slices"
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
