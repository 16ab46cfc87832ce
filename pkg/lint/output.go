package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats are the output formats of Write.
var Formats = []string{"text", "json", "github", "sarif"}

// Write prints res in format: text, json, github (workflow commands that annotate a pull
// request) or sarif (SARIF 2.1.0).
func Write(w io.Writer, format string, res *Result) error {
	switch format {
	case "text":
		return writeText(w, res)
	case "json":
		return writeJSON(w, res)
	case "github":
		return writeGitHub(w, res)
	case "sarif":
		return writeSARIF(w, res)
	}
	return fmt.Errorf("unknown output %q (want %s)", format, strings.Join(Formats, ", "))
}

// location is "file:line: " (or "file: ", or "" when the object came from no file).
func location(f Finding) string {
	switch {
	case f.File == "":
		return ""
	case f.Line == 0:
		return f.File + ": "
	}
	return fmt.Sprintf("%s:%d: ", f.File, f.Line)
}

func writeText(w io.Writer, res *Result) error {
	counts := map[Severity]int{}
	for _, f := range res.Findings {
		counts[f.Severity]++
		if _, err := fmt.Fprintf(w, "%s%s [%s] %s: %s\n", location(f), f.Severity, f.Check, f.Object(), f.Message); err != nil {
			return err
		}
	}
	clusterOnly := ""
	if res.ClusterOnly > 0 {
		clusterOnly = fmt.Sprintf(", %d on objects only in the cluster not reported", res.ClusterOnly)
	}
	_, err := fmt.Fprintf(w, "%d objects, %d checks: %d errors, %d warnings, %d info (%d suppressed%s)\n",
		res.Objects, len(res.Checks), counts[Error], counts[Warning], counts[Info], res.Suppressed, clusterOnly)
	return err
}

// jsonReport is the json output.
type jsonReport struct {
	Findings   []Finding      `json:"findings"`
	Checks     []string       `json:"checks"`
	Objects    int            `json:"objects"`
	Suppressed int            `json:"suppressed"`
	Counts     map[string]int `json:"counts"`
	// ClusterOnly and Notes are live mode's (Result).
	ClusterOnly int      `json:"clusterOnly,omitempty"`
	Notes       []string `json:"notes,omitempty"`
}

func writeJSON(w io.Writer, res *Result) error {
	r := jsonReport{Findings: res.Findings, Objects: res.Objects, Suppressed: res.Suppressed, ClusterOnly: res.ClusterOnly, Notes: res.Notes, Counts: map[string]int{"error": 0, "warning": 0, "info": 0}}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	for _, c := range res.Checks {
		r.Checks = append(r.Checks, c.Name)
	}
	for _, f := range res.Findings {
		r.Counts[f.Severity.String()]++
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// githubLevels are the workflow commands of each severity.
var githubLevels = map[Severity]string{Error: "error", Warning: "warning", Info: "notice"}

// writeGitHub prints one workflow command a finding:
// "::warning file=F,line=L,title=CHECK::MESSAGE", with GitHub's escapes.
func writeGitHub(w io.Writer, res *Result) error {
	for _, f := range res.Findings {
		var props []string
		if f.File != "" {
			props = append(props, "file="+ghProperty(f.File))
			if f.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.Line))
			}
		}
		props = append(props, "title="+ghProperty(f.Check))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubLevels[f.Severity], strings.Join(props, ","), ghData(f.Object()+": "+f.Message)); err != nil {
			return err
		}
	}
	return nil
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
