package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/lookout-operator/lookout/pkg/lint"
)

const lintUsage = `usage: lookout-operator lint [flags] PATH...

Checks manifests of PrometheusRules, monitors and the Prometheus objects that select them
before they reach a cluster (offline; PATH is a file or directory, - for standard input).
Each finding names its check, severity, object, file and line; see Documentation/lint.md
for every check with a failing example and its fix. A check is switched off for a run
with --disable, for a file with a comment line "# lookout-lint: disable=CHECK,...", for
one object with the annotation lint.lookout.dev/disable: "CHECK,...".
Exit status: 0 when no finding is at or above --fail-on, 1 when one is, 2 for a usage
error or a file that cannot be read or decoded.

flags (anywhere on the line):
`

// lintCmd runs `lookout-operator lint`.
func lintCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var files, enable, disable stringList
	fs.Var(&files, "f", "manifest file or directory (repeatable; the same as a PATH argument)")
	output := fs.String("o", "text", "output: "+strings.Join(lint.Formats, ", "))
	failOn := fs.String("fail-on", "error", "exit 1 when a finding has this severity or a higher one: info, warning or error")
	fs.Var(&enable, "enable", "run only these checks (comma-separated, repeatable)")
	fs.Var(&disable, "disable", "do not run these checks (comma-separated, repeatable)")
	ns := fs.String("n", "default", "namespace of objects that name none")
	list := fs.Bool("list", false, "list the checks with their severity and exit")
	fs.Usage = func() {
		fmt.Fprint(stderr, lintUsage)
		fs.PrintDefaults()
	}
	paths, err := parseInterspersed(fs, args)
	if err == flag.ErrHelp {
		return 0
	} else if err != nil {
		return 2
	}
	if *list {
		for _, c := range lint.Checks() {
			fmt.Fprintf(stdout, "%-34s %-8s %s\n", c.Name, c.Severity, c.Summary)
		}
		return 0
	}
	paths = append(paths, files...)
	threshold, err := lint.ParseSeverity(*failOn)
	if err != nil {
		fmt.Fprintln(stderr, "error: --fail-on:", err)
		return 2
	}
	if !validFormat(*output) {
		fmt.Fprintf(stderr, "error: -o %q: want one of %s\n", *output, strings.Join(lint.Formats, ", "))
		return 2
	}
	if len(paths) == 0 {
		fs.Usage()
		return 2
	}
	// Discovery (monitor-relabel-drops-all) reports its informers through klog.
	klog.SetLogger(logr.Discard())
	res, err := lint.LintPaths(paths, lint.Options{Enable: splitList(enable), Disable: splitList(disable), DefaultNamespace: *ns})
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if err := lint.Write(stdout, *output, res); err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if worst, any := res.Worst(); any && worst >= threshold {
		return 1
	}
	return 0
}

func validFormat(f string) bool {
	for _, n := range lint.Formats {
		if n == f {
			return true
		}
	}
	return false
}

// splitList splits each comma-separated value.
func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}
