package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/ruletest"
)

const testUsage = `usage: lookout-operator test [--prometheus FILE|NAME] [-f PATH ...] [--junit FILE] [--run REGEXP] [-v] TESTFILE...

Runs unit tests of alerting and recording rules written in the test file format of
"promtool test rules". rule_files may name PrometheusRule manifests (several documents per
file; other kinds are ignored) as well as plain Prometheus rule files, relative to the
test file, with globs, or "namespace/name" of a PrometheusRule given with -f. A
PrometheusRule is tested as the operator serves it: validated, and with --prometheus given
the namespace-label enforcement of that Prometheus applied (spec.enforcedNamespaceLabel,
excludedFromEnforcement). Without --prometheus the rules are tested as written.
Exit status: 0 when every test passed, 1 when a test failed, 2 for a usage error or a test
or rule file that cannot be read, parsed or validated.

flags (anywhere on the line):
`

// testCmd runs `lookout-operator test`.
func testCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var files, runs stringList
	fs.Var(&files, "f", "manifest file or directory with the Prometheus (and PrometheusRules rule_files may name) (repeatable; - for standard input)")
	which := fs.String("prometheus", "", "test the rules as this Prometheus runs them: a manifest file holding one Prometheus, or the name (or namespace/name) of a Prometheus given with -f")
	junit := fs.String("junit", "", "also write the results as JUnit XML to this file")
	ns := fs.String("namespace", "default", "namespace of objects that name none")
	verbose := fs.Bool("v", false, "also print a line per test group with its outcome and duration")
	fs.Var(&runs, "run", "run only the test groups whose name matches this regular expression (repeatable)")
	fs.Usage = func() {
		fmt.Fprint(stderr, testUsage)
		fs.PrintDefaults()
	}
	tests, err := parseInterspersed(fs, args)
	if err == flag.ErrHelp {
		return 0
	} else if err != nil {
		return 2
	}
	if len(tests) == 0 {
		fs.Usage()
		return 2
	}
	opts := ruletest.Options{Namespace: *ns}
	if len(runs) > 0 {
		re, err := regexp.Compile(strings.Join(runs, "|"))
		if err != nil {
			fmt.Fprintln(stderr, "error: --run:", err)
			return 2
		}
		opts.Run = re
	}
	objs := &render.Objects{}
	if len(files) > 0 {
		var err error
		if objs, err = render.Load(*ns, files...); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 2
		}
	}
	opts.Rules, opts.NamespaceLabels = objs.PrometheusRules, objs.NamespaceLabels()
	if *which != "" {
		p, err := pickPrometheus(*which, *ns, objs)
		if err != nil {
			fmt.Fprintln(stderr, "error: --prometheus:", err)
			return 2
		}
		opts.Prometheus = p
	}
	rep, err := ruletest.Run(opts, tests...)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if *verbose {
		rep.WriteVerbose(stdout)
	} else {
		rep.Write(stdout)
	}
	code := rep.ExitCode()
	if *junit != "" {
		if err := writeJUnit(*junit, rep); err != nil {
			fmt.Fprintln(stderr, "error: --junit:", err)
			return 2
		}
	}
	return code
}

// pickPrometheus finds the Prometheus --prometheus names: a manifest file holding one
// Prometheus, or the name or namespace/name of one in the -f manifests.
func pickPrometheus(which, ns string, objs *render.Objects) (*promserver.Server, error) {
	if st, err := os.Stat(which); err == nil && !st.IsDir() {
		fromFile, err := render.Load(ns, which)
		if err != nil {
			return nil, err
		}
		if len(fromFile.Prometheuses) != 1 {
			return nil, fmt.Errorf("%s holds %d Prometheus objects, want one (or give it with -f and name the Prometheus)", which, len(fromFile.Prometheuses))
		}
		return fromFile.Prometheuses[0], nil
	}
	pns, name, ok := strings.Cut(which, "/")
	var found []*promserver.Server
	for _, p := range objs.Prometheuses {
		if p.Name == name && (p.Namespace == pns || !ok) || !ok && p.Name == which {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no file and no Prometheus %q in the -f manifests", which)
	default:
		return nil, fmt.Errorf("several Prometheus objects are named %q: give namespace/name", which)
	}
}

func writeJUnit(path string, rep *ruletest.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rep.WriteJUnit(f); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
