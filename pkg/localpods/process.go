package localpods

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// process is one container's process. Its output is appended to a log file; it runs in
// its own process group (a terminal's Ctrl-C reaches the runner, which stops containers in
// order) and is killed if the runner's thread dies.
type process struct {
	name     string
	cmd      *exec.Cmd
	log      string
	done     chan struct{}
	err      error     // Wait's result, valid once done is closed
	exitedAt time.Time // valid once done is closed
	stopping atomic.Bool
}

func startProcess(name, logPath string, cmd *exec.Cmd) (*process, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &process{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
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

func (p *process) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process ended without being stopped.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return !p.stopping.Load()
	default:
		return false
	}
}

// wait waits for the process to finish on its own (an init container).
func (p *process) wait(timeout time.Duration) error {
	select {
	case <-p.done:
	case <-time.After(timeout):
		p.stop(time.Second)
		return fmt.Errorf("%s did not finish within %s; end of %s:\n%s", p.name, timeout, p.log, tail(p.log, 20))
	}
	if p.err != nil {
		return fmt.Errorf("%s failed (%v); end of %s:\n%s", p.name, p.err, p.log, tail(p.log, 20))
	}
	return nil
}

// stop sends SIGTERM, waits up to grace, then kills the process group.
func (p *process) stop(grace time.Duration) {
	p.stopping.Store(true)
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
		<-p.done
	}
}

// tail is the last n lines of a file, indented.
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
