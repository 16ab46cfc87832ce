// Command lookout-operator runs the Lookout operator and its offline tools.
//
//	lookout-operator [run] [flags]   run the operator (the default)
//	lookout-operator crds            print the CustomResourceDefinitions
//	lookout-operator render -f PATH  print the prometheus.yaml the operator would generate
//	lookout-operator version         print the version
package main

import (
	"fmt"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

func dispatch(args []string) int {
	cmd := "run"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "run":
		return runOperator(args)
	case "crds":
		return printCRDs(os.Stdout)
	case "render":
		return renderCmd(args, os.Stdout, os.Stderr)
	case "version":
		fmt.Println(version)
		return 0
	case "help":
		usage()
		return 0
	default:
		fmt.Fprintf(os.Stderr, "lookout-operator: unknown command %q\n", cmd)
		usage()
		return 2
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: lookout-operator [command] [flags]

commands:
  run       run the operator (default); "lookout-operator run -h" lists its flags
  crds      print the monitoring.coreos.com CustomResourceDefinitions as YAML
  render    print the Prometheus configuration the operator would generate, offline
  version   print the version
`)
}
