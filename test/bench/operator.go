package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// operatorProc is the operator under test, running as a child process.
type operatorProc struct {
	cmd     *exec.Cmd
	started time.Time
	exited  chan struct{}
	err     error
	log     string
	// kubeconfig is the path the operator was given, for a restart.
	kubeconfig string
}

// startOperator runs command through /bin/sh with exec, so that the measured pid is the
// operator itself (give a binary, not `go run`, or the go tool is what gets measured).
// Every {kubeconfig} in appended is replaced with the kubeconfig path; KUBECONFIG is set
// too.
func startOperator(command, appended, kubeconfig, logPath string) (*operatorProc, error) {
	line := "exec " + command
	if a := strings.TrimSpace(appended); a != "" {
		line += " " + strings.ReplaceAll(a, "{kubeconfig}", shellQuote(kubeconfig))
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &operatorProc{cmd: cmd, exited: make(chan struct{}), log: logPath, kubeconfig: kubeconfig}
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %q: %w", line, err)
	}
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		close(p.exited)
	}()
	return p, nil
}

func (p *operatorProc) pid() int { return p.cmd.Process.Pid }

// alive returns an error when the operator has exited.
func (p *operatorProc) alive() error {
	select {
	case <-p.exited:
		return fmt.Errorf("the operator exited early (%v); its log: %s", p.err, p.log)
	default:
		return nil
	}
}

// wait lets d pass while the operator runs; it returns early with ctx's error, or with
// alive's when the operator exits.
func (p *operatorProc) wait(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-p.exited:
		return p.alive()
	case <-time.After(d):
		return nil
	}
}

// stop sends SIGTERM and waits, then kills the process group.
func (p *operatorProc) stop(grace time.Duration) error {
	select {
	case <-p.exited:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		var ee *exec.ExitError
		if p.err != nil && !errors.As(p.err, &ee) {
			return p.err
		}
		return nil
	case <-time.After(grace):
		_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
		<-p.exited
		return fmt.Errorf("the operator did not stop within %s of SIGTERM; killed", grace)
	}
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func execOutput(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).Output()
	return string(out), err
}
