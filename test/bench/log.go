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
