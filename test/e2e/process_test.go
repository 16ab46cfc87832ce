//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"

	"github.com/lookout-operator/lookout/pkg/localpods"
)

// proc is a child process whose output goes to a log file, killed with the suite's
// thread: localpods.Process, which make run's local pods use too.
type proc = localpods.Process

// startProc starts cmd with its stdout and stderr appended to logPath.
func startProc(name, logPath string, cmd *exec.Cmd) (*proc, error) {
	return localpods.StartProcess(name, logPath, cmd)
}

// tail returns the last n lines of a file.
func tail(path string, n int) string { return localpods.Tail(path, n) }

// run runs a short command (ip, nsenter) and returns its combined output on failure.
func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}
