package promplan

import "github.com/lookout-operator/lookout/pkg/workload"

// BuildCase is one golden case, exported for the external API-server test.
type BuildCase struct {
	Name    string
	Input   Input
	Options workload.Options
	Shard   int32
}

// BuildCasesForTest returns the golden cases with their inputs resolved.
func BuildCasesForTest() []BuildCase {
	var out []BuildCase
	for _, c := range buildCases() {
		in, opts := c.input()
		out = append(out, BuildCase{Name: c.name, Input: in, Options: opts, Shard: c.shard})
	}
	return out
}
