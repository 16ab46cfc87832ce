//go:build e2e

package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// proc is a child process whose output goes to a log file. It dies with the suite
// (SIGKILL when its parent thread exits) so nothing outlives a crashed run.
type proc struct {
	name     string
	cmd      *exec.Cmd
	log      string
	done     chan struct{}
	err      error // the result of Wait, valid once done is closed
	stopping atomic.Bool
}

// startProc starts cmd with its stdout and stderr appended to logPath.
func startProc(name, logPath string, cmd *exec.Cmd) (*proc, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = f, f
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	p := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

// alive returns an error, with the end of the log, once the process has exited without
// being stopped.
func (p *proc) alive() error {
	select {
	case <-p.done:
		if p.stopping.Load() {
			return nil
		}
		return fmt.Errorf("%s exited unexpectedly (%v); last lines of %s:\n%s", p.name, p.err, p.log, tail(p.log, 30))
	default:
		return nil
	}
}

// wait waits for the process to exit on its own (an init container) and reports a
// non-zero exit.
func (p *proc) wait(timeout time.Duration) error {
	select {
	case <-p.done:
	case <-time.After(timeout):
		p.stop(time.Second)
		return fmt.Errorf("%s did not finish within %s; last lines of %s:\n%s", p.name, timeout, p.log, tail(p.log, 30))
	}
	if p.err != nil {
		return fmt.Errorf("%s failed (%v); last lines of %s:\n%s", p.name, p.err, p.log, tail(p.log, 30))
	}
	return nil
}

// stop sends SIGTERM, waits up to grace, then kills. It returns an error when the process
// did not exit cleanly (status 0) on SIGTERM.
func (p *proc) stop(grace time.Duration) error {
	p.stopping.Store(true)
	select {
	case <-p.done:
		return p.exitError()
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.exitError()
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("%s did not stop within %s of SIGTERM and was killed", p.name, grace)
	}
}

func (p *proc) exitError() error {
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return fmt.Errorf("%s exited with %v; last lines of %s:\n%s", p.name, p.err, p.log, tail(p.log, 10))
	}
	return p.err
}

// tail returns the last n lines of a file.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.ReplaceAll(string(bytes.Join(lines, []byte("\n"))), "\n", "\n    ")
}

// run runs a short command (ip, nsenter) and returns its combined output on failure.
func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}
