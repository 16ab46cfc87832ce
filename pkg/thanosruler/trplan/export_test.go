package trplan

import "github.com/lookout-operator/lookout/pkg/workload"

// ThanosRulerCase is one ThanosRuler golden case, exported for the API-server test.
type ThanosRulerCase struct {
	Name    string
	Input   ThanosRulerInput
	Options workload.Options
}

// ThanosRulerCasesForTest returns the ThanosRuler golden cases with their inputs.
func ThanosRulerCasesForTest() []ThanosRulerCase {
	var out []ThanosRulerCase
	for _, c := range rulerCases() {
		in, opts := c.input()
		out = append(out, ThanosRulerCase{Name: c.name, Input: in, Options: opts})
	}
	return out
}
