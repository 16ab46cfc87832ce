// Command lookout-operator runs the Lookout operator and its offline tools.
//
//	lookout-operator [run] [flags]   run the operator (the default)
//	lookout-operator [flags] [start] the same, as prometheus-operator is called
//	lookout-operator crds            print the CustomResourceDefinitions
//	lookout-operator render -f PATH  print the prometheus.yaml the operator would generate
//	lookout-operator explain KIND NS/NAME  follow a monitor, Service or Pod to its targets
//	lookout-operator top             the monitors and namespaces that cost each Prometheus most
//	lookout-operator test TESTFILE...       unit-test rules (promtool's test files) on PrometheusRules
//	lookout-operator lint PATH...    check manifests of rules and monitors (a CI gate)
//	lookout-operator diff OLD NEW    diff what the operator would generate for two trees of manifests
//	lookout-operator version         print the version
//
// Installed as kubectl-lookout, the binary is a kubectl plugin: `kubectl lookout COMMAND`
// runs every command but run (plugin.go).
//
// The run flags include every flag of prometheus-operator's operator binary, so its
// Deployment arguments work unchanged.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lookout-operator/lookout/pkg/buildinfo"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// version is the release version (pkg/buildinfo, set at build time with -ldflags -X).
var version = buildinfo.Get().Version

func main() {
	if isPlugin(os.Args[0]) {
		os.Exit(pluginDispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(dispatch(os.Args[1:]))
}

func dispatch(args []string) int {
	if len(args) == 0 || len(args[0]) == 0 || args[0][0] == '-' {
		return runOperator(args)
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "run", "start":
		return runOperator(args)
	case "crds", "full-crds":
		return printCRDs(os.Stdout)
	case "render":
		return renderCmd(args, os.Stdout, os.Stderr)
	case "explain":
		return explainCmd(args, os.Stdout, os.Stderr)
	case "top":
		return topCmd(args, os.Stdout, os.Stderr)
	case "test":
		return testCmd(args, os.Stdout, os.Stderr)
	case "lint":
		return lintCmd(args, os.Stdout, os.Stderr)
	case "diff":
		return diffCmd(args, os.Stdout, os.Stderr)
	case "version":
		fmt.Println(buildinfo.String())
		return 0
	case "help":
		usage(os.Stdout)
		return 0
	default:
		fmt.Fprintf(os.Stderr, "lookout-operator: unknown command %q\n", cmd)
		usage(os.Stderr)
		return 2
	}
}

// usage prints the commands and the run flags.
func usage(w io.Writer) {
	fmt.Fprint(w, `usage: lookout-operator [command] [flags]
       lookout-operator [flags] [start|crds]   (prometheus-operator's form)

commands:
  run       run the operator (the default; "start" is the same)
  crds      print the monitoring.coreos.com CustomResourceDefinitions as YAML ("full-crds" is the same)
  render    print the Prometheus configuration the operator would generate, offline ("render -h")
  explain   follow a ServiceMonitor, PodMonitor, Service or Pod to its scrape targets, live or offline ("explain -h")
  top       the monitors and namespaces whose scrapes cost each Prometheus most, live ("top -h")
  test      unit-test alerting and recording rules of PrometheusRules with promtool's test files ("test -h")
  lint      check manifests of rules, monitors and Prometheuses: a gate for CI; --live reads the cluster ("lint -h")
  diff      diff the configuration and rules the operator would generate for two trees of manifests, or a tree and the cluster ("diff -h")
  version   print the version, commit and build date

flags of run (every flag of prometheus-operator's operator is accepted; see
Documentation/operator.md for which ones Lookout acts on):
`)
	fs, _ := operator.NewFlagSet("run", w)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// versionFlagLine is what --version prints, in the "NAME, version X (...)" form of
// prometheus-operator's --version: "lookout-operator, version 0.1.0 (commit C, built D)".
func versionFlagLine() string {
	return strings.Replace(buildinfo.String(), "lookout-operator ", "lookout-operator, version ", 1)
}
