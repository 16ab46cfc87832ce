package main

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"
)

// runPeakRSS runs cmd to completion and returns its peak resident memory (VmHWM, KiB),
// read at the moment it exits.
//
// The exit status's rusage cannot be used: os/exec starts children with vfork, and the
// kernel records the parent's high-water mark into the child's ru_maxrss when the child
// execs, so it reports the benchmark process's own peak. Instead the child is traced
// (PTRACE_O_TRACEEXIT) and its /proc/PID/status read in the exit stop, while its memory
// still exists. cmd must not have been started; its output must not need copying
// goroutines (set Stdout/Stderr to files or nil), as cmd.Wait is not called.
func runPeakRSS(cmd *exec.Cmd) (peakKiB int64, err error) {
	// Every ptrace request must come from the thread that started the tracee.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Ptrace = true
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	defer func() { _ = cmd.Process.Release() }()
	var ws syscall.WaitStatus
	// The tracee stops with SIGTRAP after its exec.
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		return 0, fmt.Errorf("waiting for the exec stop: %w", err)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT); err != nil {
		return 0, fmt.Errorf("PTRACE_SETOPTIONS: %w", err)
	}
	sig := 0
	for {
		if err := syscall.PtraceCont(pid, sig); err != nil {
			return 0, fmt.Errorf("PTRACE_CONT: %w", err)
		}
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return 0, fmt.Errorf("waiting: %w", err)
		}
		switch {
		case ws.Exited() || ws.Signaled():
			if peakKiB == 0 {
				return 0, fmt.Errorf("exited (%v) without an exit stop", ws)
			}
			if ws.Exited() && ws.ExitStatus() != 0 {
				return peakKiB, fmt.Errorf("exit status %d", ws.ExitStatus())
			}
			return peakKiB, nil
		case ws.Stopped() && ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_EXIT:
			if _, peakKiB, err = memory(pid); err != nil {
				return 0, err
			}
			sig = 0
		case ws.Stopped():
			// A signal for the tracee (the Go runtime's own, such as SIGURG): deliver it.
			sig = int(ws.StopSignal())
		}
	}
}
