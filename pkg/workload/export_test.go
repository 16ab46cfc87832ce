package workload

// BuildCase is one golden case, exported for the external API-server test.
type BuildCase struct {
	Name    string
	Input   Input
	Options Options
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

// AlertmanagerCase is one Alertmanager golden case, exported for the API-server test.
type AlertmanagerCase struct {
	Name    string
	Input   AlertmanagerInput
	Options Options
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

// ThanosRulerCase is one ThanosRuler golden case, exported for the API-server test.
type ThanosRulerCase struct {
	Name    string
	Input   ThanosRulerInput
	Options Options
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
