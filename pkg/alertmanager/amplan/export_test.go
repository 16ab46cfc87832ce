package amplan

import "github.com/lookout-operator/lookout/pkg/workload"

// AlertmanagerCase is one Alertmanager golden case, exported for the API-server test.
type AlertmanagerCase struct {
	Name    string
	Input   AlertmanagerInput
	Options workload.Options
}

// AlertmanagerCasesForTest returns the Alertmanager golden cases with their inputs.
func AlertmanagerCasesForTest() []AlertmanagerCase {
	var out []AlertmanagerCase
	for _, c := range amCases() {
		in, opts := c.input()
		out = append(out, AlertmanagerCase{Name: c.name, Input: in, Options: opts})
	}
	return out
}
