// Command config-reloader is the sidecar that keeps Prometheus in step with its mounted
// configuration: it renders the config (gunzip, $(VAR) expansion), watches the config and
// rule directories, reloads Prometheus when their content changes and confirms each
// reload. It accepts the flags of prometheus-config-reloader. With --watch-interval=0 it
// renders once and exits (the init container). With --watch-secret/--watch-configmap it
// reads those objects through the Kubernetes API instead of waiting for the kubelet's
// volume sync. See Documentation/config-reloader.md.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/lookout-operator/lookout/pkg/buildinfo"
)

// version is the release version (pkg/buildinfo, set at build time with -ldflags -X).
var version = buildinfo.Get().Version

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr, hooks{installLogger: installKlog})
	stop()
	os.Exit(code)
}

// exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func fatalf(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "config-reloader: "+format+"\n", args...)
	return exitError
}

// versionFlagLine is what --version prints (to stderr, where upstream's kingpin prints
// it), in prometheus-config-reloader's "NAME, version X (...)" form:
// "config-reloader, version 0.1.0 (commit C, built D, go1.26.8)".
func versionFlagLine() string {
	i := buildinfo.Get()
	s := "config-reloader, version " + i.Version + " ("
	if i.Commit != "" {
		s += "commit " + i.Commit + ", "
	}
	if i.Date != "" {
		s += "built " + i.Date + ", "
	}
	return s + runtime.Version() + ")"
}
