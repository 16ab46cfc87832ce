package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/costtop"
	"github.com/lookout-operator/lookout/pkg/lint"
	"github.com/lookout-operator/lookout/pkg/operator"
)

const lintUsage = `usage: lookout-operator lint [flags] PATH...
       lookout-operator lint --live [flags] [PATH...]

Checks manifests of PrometheusRules, monitors and the Prometheus objects that select them
before they reach a cluster (offline; PATH is a file or directory, - for standard input).
With --live it reads the cluster of --kubeconfig (read-only, with your permissions) and
lints its objects, or the files' objects laid over the cluster's (a file's object
replaces the cluster's of the same kind, namespace and name; only the files' findings
are reported); monitor-sample-limit-exceeded then asks each Prometheus, through the API
server's pod proxy, what its targets expose.
Each finding names its check, severity, object, file and line; see Documentation/lint.md
for every check with a failing example and its fix. A check is switched off for a run
with --disable, for a file with a comment line "# lookout-lint: disable=CHECK,...", for
one object with the annotation lint.lookout.dev/disable: "CHECK,...".
Exit status: 0 when no finding is at or above --fail-on, 1 when one is, 2 for a usage
error or a file that cannot be read or decoded.

flags (anywhere on the line):
`

// lintOwnFlags are the flags lint's usage lists (the operator's are accepted too).
var lintOwnFlags = []string{"f", "o", "fail-on", "enable", "disable", "n", "list", "live", "timeout", "kubeconfig"}

// lintCmd runs `lookout-operator lint`.
func lintCmd(args []string, stdout, stderr io.Writer) int {
	return runLintCmd(args, stdout, stderr, nil)
}

// runLintCmd runs lint with cluster as live mode's cluster access (nil: the cluster of
// --kubeconfig; tests give a fake one).
func runLintCmd(args []string, stdout, stderr io.Writer, cluster *topCluster) int {
	fs, finish := operator.NewFlagSet("lint", stderr)
	var files, enable, disable stringList
	fs.Var(&files, "f", "manifest file or directory (repeatable; the same as a PATH argument)")
	output := fs.String("o", "text", "output: "+strings.Join(lint.Formats, ", "))
	failOn := fs.String("fail-on", "error", "exit 1 when a finding has this severity or a higher one: info, warning or error")
	fs.Var(&enable, "enable", "run only these checks (comma-separated, repeatable)")
	fs.Var(&disable, "disable", "do not run these checks (comma-separated, repeatable)")
	ns := fs.String("n", "default", "namespace of objects that name none")
	list := fs.Bool("list", false, "list the checks with their severity and exit")
	live := fs.Bool("live", false, "lint the cluster of --kubeconfig (read-only), with the PATHs' objects laid over it")
	timeout := fs.Duration("timeout", 2*time.Minute, "bound on reading and measuring the cluster (--live)")
	fs.Usage = func() {
		fmt.Fprint(stderr, lintUsage)
		for _, n := range lintOwnFlags {
			if f := fs.Lookup(n); f != nil {
				fmt.Fprintf(stderr, "  -%s\t%s\n", n, f.Usage)
			}
		}
	}
	paths, err := parseInterspersed(fs, args)
	if err == flag.ErrHelp {
		fs.Usage()
		return 0
	} else if err != nil {
		return 2
	}
	parsed, err := finish()
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
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
	if (len(paths) == 0 && !*live) || *timeout <= 0 {
		fs.Usage()
		return 2
	}
	// Discovery (monitor-relabel-drops-all) reports its informers through klog.
	klog.SetLogger(logr.Discard())
	opts := lint.Options{Enable: splitList(enable), Disable: splitList(disable), DefaultNamespace: *ns}
	if *live {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		ctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		if cluster == nil {
			if cluster, err = lintCluster(parsed); err != nil {
				fmt.Fprintln(stderr, "error:", err)
				return 2
			}
		}
		if opts.Live, err = lint.ReadLive(ctx, cluster.reader, cluster.get); err != nil {
			fmt.Fprintln(stderr, "error: reading the cluster:", err)
			return 2
		}
	}
	res, err := lint.LintPaths(paths, opts)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, "note:", n)
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

// lintCluster is the cluster of --kubeconfig: a reader and the pod proxy.
func lintCluster(parsed *operator.Parsed) (*topCluster, error) {
	cfg, err := parsed.Options.Client.RESTConfig("lookout-operator-lint")
	if err != nil {
		return nil, fmt.Errorf("no cluster to read (give --kubeconfig): %w", err)
	}
	c, err := client.New(cfg, client.Options{Scheme: costtop.Scheme()})
	if err != nil {
		return nil, err
	}
	get, err := costtop.ProxyGetter(cfg)
	if err != nil {
		return nil, err
	}
	return &topCluster{reader: c, get: get}, nil
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
