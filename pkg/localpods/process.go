package localpods

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

// Process is a child process whose output is appended to a log file. It is killed when
// the thread that started it exits (PR_SET_PDEATHSIG), so nothing outlives a crashed
// parent. The end-to-end suite runs its operators and containers with it too.
type Process struct {
	name     string
	cmd      *exec.Cmd
	log      string
	done     chan struct{}
	err      error     // Wait's result, valid once done is closed
	exitedAt time.Time // valid once done is closed
	stopping atomic.Bool
}

// StartProcess starts cmd with its stdout and stderr appended to logPath. cmd's
// SysProcAttr is kept (namespaces, a process group) and given the death signal.
func StartProcess(name, logPath string, cmd *exec.Cmd) (*Process, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = f, f
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	p := &Process{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() {
		p.err = cmd.Wait()
		p.exitedAt = time.Now()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

// Name is the name the process was started with.
func (p *Process) Name() string { return p.name }

// Log is the path of the process's log file.
func (p *Process) Log() string { return p.log }

// Args is the command line the process was started with.
func (p *Process) Args() []string { return p.cmd.Args }

// Pid is the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }

// Exited reports whether the process ended without being stopped.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return !p.stopping.Load()
	default:
		return false
	}
}

// Alive returns an error, with the end of the log, once the process has exited without
// being stopped.
func (p *Process) Alive() error {
	if !p.Exited() {
		return nil
	}
	return fmt.Errorf("%s exited unexpectedly (%v); last lines of %s:\n%s", p.name, p.err, p.log, Tail(p.log, 30))
}

// Wait waits for the process to finish on its own (an init container) and reports a
// non-zero exit.
func (p *Process) Wait(timeout time.Duration) error {
	select {
	case <-p.done:
	case <-time.After(timeout):
		_ = p.Stop(time.Second)
		return fmt.Errorf("%s did not finish within %s; last lines of %s:\n%s", p.name, timeout, p.log, Tail(p.log, 30))
	}
	if p.err != nil {
		return fmt.Errorf("%s failed (%v); last lines of %s:\n%s", p.name, p.err, p.log, Tail(p.log, 30))
	}
	return nil
}

// Stop sends SIGTERM, waits up to grace, then kills the process (and its process group
// when it leads one). It returns an error when the process did not exit cleanly (status
// 0) on SIGTERM.
func (p *Process) Stop(grace time.Duration) error {
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
		if p.cmd.SysProcAttr.Setpgid {
			_ = syscall.Kill(-p.Pid(), syscall.SIGKILL)
		}
		<-p.done
		return fmt.Errorf("%s did not stop within %s of SIGTERM and was killed", p.name, grace)
	}
}

func (p *Process) exitError() error {
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return fmt.Errorf("%s exited with %v; last lines of %s:\n%s", p.name, p.err, p.log, Tail(p.log, 10))
	}
	return p.err
}

// Tail returns the last n lines of a file, indented.
func Tail(path string, n int) string {
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

// Terminate sends proc SIGTERM and waits up to grace for done (the process's end), then
// kills it and waits for done again.
func Terminate[T any](proc *os.Process, done <-chan T, grace time.Duration) {
	_ = proc.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
		_ = proc.Kill()
		<-done
	}
}
