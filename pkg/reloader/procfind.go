package reloader

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// commLen is the length the kernel truncates process names (/proc/PID/comm) to.
const commLen = 15

// FindProcesses returns the ids of the processes under procRoot (normally /proc) named
// name: the base name of their first argument, or, for a process whose command line is
// unreadable or empty, its comm (the kernel's name, truncated to 15 bytes, so only names
// shorter than that match this way). The calling process is never returned.
func FindProcesses(procRoot, name string) ([]int, error) {
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return nil, fmt.Errorf("listing processes in %s: %w", procRoot, err)
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		if processName(filepath.Join(procRoot, e.Name())) == name {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// processName names the process whose proc directory is dir; "" when unknown. The
// process may exit while it is inspected, so unreadable files just mean unknown.
func processName(dir string) string {
	if cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
		if arg0, _, _ := bytes.Cut(cmdline, []byte{0}); len(arg0) > 0 {
			return filepath.Base(string(arg0))
		}
	}
	comm, err := os.ReadFile(filepath.Join(dir, "comm"))
	if err != nil {
		return ""
	}
	name := string(bytes.TrimRight(comm, "\n"))
	if len(name) >= commLen {
		return "" // possibly truncated
	}
	return name
}
