package lint

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
)

// The SARIF 2.1.0 subset lint writes: one run, the checks that ran as the tool's rules,
// one result per finding with its file and line.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		HelpURI              string       `json:"helpUri"`
		DefaultConfiguration struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// sarifLevels are SARIF's levels of each severity.
var sarifLevels = map[Severity]string{Error: "error", Warning: "warning", Info: "note"}

// docsURI is where each check is documented (its anchor is its name).
const docsURI = "https://github.com/lookout-operator/lookout/blob/main/Documentation/lint.md"

func writeSARIF(w io.Writer, res *Result) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "lookout-operator lint", InformationURI: docsURI}}, Results: []sarifResult{}}
	index := map[string]int{}
	for i, c := range res.Checks {
		r := sarifRule{ID: c.Name, ShortDescription: sarifMessage{Text: c.Summary}, HelpURI: docsURI + "#" + c.Name}
		r.DefaultConfiguration.Level = sarifLevels[c.Severity]
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, r)
		index[c.Name] = i
	}
	for _, f := range res.Findings {
		r := sarifResult{RuleID: f.Check, RuleIndex: index[f.Check], Level: sarifLevels[f.Severity], Message: sarifMessage{Text: f.Object() + ": " + f.Message}}
		if f.File != "" {
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation.URI = artifactURI(f.File)
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line}
			}
			r.Locations = append(r.Locations, loc)
		}
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// artifactURI is a relative path as it is (SARIF resolves it against the repository), an
// absolute one as a file URI.
func artifactURI(file string) string {
	if filepath.IsAbs(file) {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
	}
	return filepath.ToSlash(file)
}
