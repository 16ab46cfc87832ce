package lint

import (
	"fmt"
	"sort"
	"strings"
)

// Check is one named check of the registry.
type Check struct {
	// Name is how runs, files and annotations refer to it ("rule-missing-for").
	Name string
	// Severity is that of every finding of the check, unless the check gives a finding a
	// lower one (monitor-sample-limit-exceeded warns near the limit).
	Severity Severity
	// Summary is one line for `lint --list`, the SARIF rule metadata and the docs.
	Summary string
	// Run returns the check's findings over in; the runner fills in Check, Severity and
	// the location.
	Run func(in *Inputs) []Finding
}

// registry is every check, by name.
var registry = map[string]*Check{}

// register adds checks to the registry; a check file calls it from init.
func register(cs ...*Check) {
	for _, c := range cs {
		if _, dup := registry[c.Name]; dup {
			panic("lint: check " + c.Name + " registered twice")
		}
		registry[c.Name] = c
	}
}

// Checks returns every check, sorted by name.
func Checks() []*Check {
	out := make([]*Check, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the check called name, or nil.
func Lookup(name string) *Check { return registry[name] }

// selectChecks returns the checks a run runs: enable (when not empty) or every check,
// less disable. An unknown name is an error.
func selectChecks(enable, disable []string) ([]*Check, error) {
	for _, n := range append(append([]string(nil), enable...), disable...) {
		if registry[n] == nil {
			return nil, fmt.Errorf("unknown check %q (known: %s)", n, strings.Join(names(), ", "))
		}
	}
	off := map[string]bool{}
	for _, n := range disable {
		off[n] = true
	}
	on := map[string]bool{}
	for _, n := range enable {
		on[n] = true
	}
	var out []*Check
	for _, c := range Checks() {
		if !off[c.Name] && (len(on) == 0 || on[c.Name]) {
			out = append(out, c)
		}
	}
	return out, nil
}

func names() []string {
	var out []string
	for _, c := range Checks() {
		out = append(out, c.Name)
	}
	return out
}
