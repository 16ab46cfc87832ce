package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// pluginName is the binary's name as a kubectl plugin: kubectl runs kubectl-lookout for
// `kubectl lookout ...`.
const pluginName = "kubectl-lookout"

// isPlugin reports whether the binary was started as the kubectl plugin (argv[0]
// kubectl-lookout, with or without .exe).
func isPlugin(argv0 string) bool {
	return strings.TrimSuffix(filepath.Base(argv0), ".exe") == pluginName
}

// pluginDispatch runs a command as `kubectl lookout COMMAND`: every command of the
// operator binary except running the operator itself, which a plugin has no business
// doing; with no command, the usage.
func pluginDispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		pluginUsage(stderr)
		return 2
	}
	switch cmd := args[0]; {
	case cmd == "help" || cmd == "-h" || cmd == "--help" || cmd == "-help":
		pluginUsage(stdout)
		return 0
	case cmd == "run" || cmd == "start" || strings.HasPrefix(cmd, "-"):
		fmt.Fprintf(stderr, "kubectl lookout: %q runs the operator, which the kubectl plugin does not do; run lookout-operator\n", cmd)
		pluginUsage(stderr)
		return 2
	}
	return dispatch(args)
}

// pluginUsage lists the commands of the binary's usage (so every command added to
// dispatch and its usage is a plugin command too), but run.
func pluginUsage(w io.Writer) {
	fmt.Fprint(w, "usage: kubectl lookout COMMAND [flags]\n\ncommands (each as \"lookout-operator COMMAND\"; \"kubectl lookout COMMAND -h\" for its flags):\n")
	for _, l := range commandLines() {
		if name, _, _ := strings.Cut(strings.TrimSpace(l), " "); name != "run" {
			fmt.Fprintln(w, l)
		}
	}
}

// commandLines are the lines of the usage's "commands:" section.
func commandLines() []string {
	var b strings.Builder
	usage(&b)
	_, rest, _ := strings.Cut(b.String(), "\ncommands:\n")
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		out = append(out, l)
	}
	return out
}
