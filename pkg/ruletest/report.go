package ruletest

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
)

// alert is a firing alert as a test sees it.
type alert struct{ labels, annotations labels.Labels }

type alerts []alert

func (as alerts) sort() {
	sort.SliceStable(as, func(i, j int) bool {
		if c := labels.Compare(as[i].labels, as[j].labels); c != 0 {
			return c < 0
		}
		return labels.Compare(as[i].annotations, as[j].annotations) < 0
	})
}

func (as alerts) equal(bs alerts) bool {
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		if !labels.Equal(as[i].labels, bs[i].labels) || !labels.Equal(as[i].annotations, bs[i].annotations) {
			return false
		}
	}
	return true
}

// String prints the alerts as promtool does: "[]", or a numbered list of labels and
// annotations.
func (as alerts) String() string {
	if len(as) == 0 {
		return "[]"
	}
	var b strings.Builder
	b.WriteString("[")
	for i, a := range as {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n%d:", i)
		b.WriteString(indent(fmt.Sprintf("\nLabels:%s\nAnnotations:%s", a.labels, a.annotations), "  "))
	}
	b.WriteString("\n]")
	return b.String()
}

// sample is one sample of a promql_expr_test.
type sample struct {
	labels    labels.Labels
	value     float64
	histogram string
}

type samples []sample

func (ss samples) sort() {
	sort.SliceStable(ss, func(i, j int) bool { return labels.Compare(ss[i].labels, ss[j].labels) < 0 })
}

func (ss samples) equal(os samples, eq func(a, b float64) bool) bool {
	if len(ss) != len(os) {
		return false
	}
	for i := range ss {
		if !labels.Equal(ss[i].labels, os[i].labels) || ss[i].histogram != os[i].histogram || !eq(ss[i].value, os[i].value) {
			return false
		}
	}
	return true
}

// String prints the samples as promtool does: "nil", or labels and value (in %E
// notation) or histogram, separated by commas.
func (ss samples) String() string {
	if len(ss) == 0 {
		return "nil"
	}
	parts := make([]string, len(ss))
	for i, s := range ss {
		if s.histogram != "" {
			parts[i] = s.labels.String() + " " + s.histogram
		} else {
			parts[i] = s.labels.String() + " " + strconv.FormatFloat(s.value, 'E', -1, 64)
		}
	}
	return strings.Join(parts, ", ")
}

// floatEqual compares values exactly, or with fuzzy_compare also when they are adjacent
// floating-point numbers.
func floatEqual(fuzzy bool) func(a, b float64) bool {
	return func(a, b float64) bool {
		if a == b {
			return true
		}
		return fuzzy && (math.Nextafter(a, math.Inf(-1)) == b || math.Nextafter(a, math.Inf(1)) == b)
	}
}

// indent prefixes every line of s but the first with prefix.
func indent(s, prefix string) string {
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// Write prints the report as promtool prints it: per test file "Processing test file:",
// its warnings, then SUCCESS, or FAILED: and each failure followed by an empty line.
// Unlike promtool, everything goes to w (promtool prints the failures on standard error).
func (r *Report) Write(w io.Writer) { r.write(w, false) }

// WriteVerbose is Write with a line per test group before the file's outcome:
// "  test group NAME: SUCCESS" (or FAILED, or BROKEN).
func (r *Report) WriteVerbose(w io.Writer) { r.write(w, true) }

func (r *Report) write(w io.Writer, verbose bool) {
	for _, f := range r.Files {
		fmt.Fprintf(w, "Processing test file: %s\n", f.File)
		for _, warn := range f.Warnings {
			fmt.Fprintf(w, "  WARNING: %s\n", warn)
		}
		for _, g := range f.Groups {
			if !verbose {
				break
			}
			outcome := "SUCCESS"
			switch {
			case g.Broken:
				outcome = "BROKEN"
			case len(g.Failures) > 0:
				outcome = "FAILED"
			}
			fmt.Fprintf(w, "  test group %s: %s (%.2fs)\n", g.Name, outcome, g.Duration.Seconds())
		}
		var msgs []string
		if f.Err != nil {
			msgs = append(msgs, f.Err.Error())
		}
		for _, g := range f.Groups {
			msgs = append(msgs, g.Failures...)
		}
		if len(msgs) == 0 {
			fmt.Fprintln(w, "  SUCCESS")
		} else {
			fmt.Fprintln(w, "  FAILED:")
			for _, m := range msgs {
				fmt.Fprintln(w, m)
				fmt.Fprintln(w)
			}
		}
		fmt.Fprintln(w)
	}
}

// JUnit XML: one testsuite per test file, one testcase per test group; a failed group
// has a failure per message, a broken group or file an error.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	ClassName string         `xml:"classname,attr"`
	Time      string         `xml:"time,attr"`
	Failures  []junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage  `xml:"error,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// message is the first line of a failure that is not the test group's name, for the
// message attribute.
func message(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "name: ") {
			return strings.TrimSuffix(l, ",")
		}
	}
	return s
}

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{}
	for _, f := range r.Files {
		s := junitSuite{Name: f.File, Time: seconds(f.Duration.Seconds()), Timestamp: f.Start.UTC().Format("2006-01-02T15:04:05")}
		if f.Err != nil {
			s.Errors++
			s.Cases = append(s.Cases, junitCase{Name: "load", ClassName: f.File, Time: "0",
				Error: &junitMessage{Message: oneLine(f.Err.Error()), Text: f.Err.Error()}})
		}
		for _, g := range f.Groups {
			c := junitCase{Name: g.Name, ClassName: f.File, Time: seconds(g.Duration.Seconds())}
			switch {
			case g.Broken:
				s.Errors++
				text := strings.Join(g.Failures, "\n\n")
				c.Error = &junitMessage{Message: oneLine(text), Text: text}
			case len(g.Failures) > 0:
				s.Failures++
				for _, m := range g.Failures {
					c.Failures = append(c.Failures, junitMessage{Message: message(m), Text: m})
				}
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// oneLine is s on one line, spaces collapsed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }
