package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// loadAvg is the 1, 5 and 15 minute load averages of /proc/loadavg ("?" when unreadable).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// cpuTimes reads the machine's idle and total CPU time (jiffies) from /proc/stat.
func cpuTimes() (idle, total uint64, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, false
	}
	for i, v := range f[1:] {
		var n uint64
		if _, err := fmt.Sscan(v, &n); err != nil {
			return 0, 0, false
		}
		total += n
		if i == 3 || i == 4 { // idle, iowait
			idle += n
		}
	}
	return idle, total, true
}

// waitIdle waits until the machine's CPUs were at least minIdle idle over one second
// (the API server and etcd done with the objects just created), for at most max. It
// returns the idle share of the last second and how long it waited.
func waitIdle(minIdle float64, max time.Duration) (float64, time.Duration) {
	start := time.Now()
	idle0, total0, ok := cpuTimes()
	if !ok {
		return -1, 0
	}
	for {
		time.Sleep(time.Second)
		idle1, total1, ok := cpuTimes()
		if !ok || total1 == total0 {
			return -1, time.Since(start)
		}
		share := float64(idle1-idle0) / float64(total1-total0)
		if share >= minIdle || time.Since(start) >= max {
			return share, time.Since(start)
		}
		idle0, total0 = idle1, total1
	}
}

// commandLine is the harness invocation, as `go run ./test/bench ...`.
func commandLine() string {
	parts := []string{"go run ./test/bench"}
	for _, a := range os.Args[1:] {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// logf logs a timestamped line to stderr.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
}

// fatalf reports a usage or setup error and exits with status 2.
func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(2)
}
