package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	"github.com/lookout-operator/lookout/pkg/localpods"
)

// The reloader modes of -reloader.
const (
	reloaderAPI      = "api"      // Lookout's reloader reads the config Secret through the API
	reloaderFile     = "file"     // Lookout's reloader reads the kubelet-synced volume
	reloaderUpstream = "upstream" // prometheus-operator's reloader (and operator), volume
)

// The images the operators are given or default to, and what plays them.
const (
	prometheusImageRepo   = "quay.io/prometheus/prometheus"
	lookoutReloaderImage  = "localhost/lookout/config-reloader:bench"
	upstreamReloaderImage = "localhost/prometheus-operator/prometheus-config-reloader:bench"
	// benchServiceAccount is the Prometheus's spec.serviceAccountName, whose token the
	// pods find at the in-cluster path.
	benchServiceAccount = "bench-prometheus"
	// saDir is where in-cluster clients (client-go's rest.InClusterConfig, Prometheus's
	// Kubernetes discovery) read their token, CA and namespace.
	saDir = "/var/run/secrets/kubernetes.io/serviceaccount"
	// mountNSEnv marks the harness re-executed in a mount namespace of its own.
	mountNSEnv = "LOOKOUT_BENCH_MOUNT_NAMESPACE"
)

// e2eOptions are the end-to-end mode's flags.
type e2eOptions struct {
	on               bool
	reloader         string
	replicas, shards int
	kubeletSync      time.Duration
	editTimeout      time.Duration
	prometheus       string // binaries
	lookoutReloader  string
	upstreamReloader string
	version          string // bin/prometheus's version, the Prometheus's spec.version
	keepLogs         bool   // -keep: the pods' container logs stay in the work directory
}

// upstream tells whether the run is prometheus-operator's (no ConfigLoaded).
func (e e2eOptions) upstream() bool { return e.reloader == reloaderUpstream }

// describe is the mode in a few words, for section titles and logs.
func (e e2eOptions) describe() string {
	s := fmt.Sprintf("%s reloader, %d replicas", e.reloader, e.replicas)
	if e.shards > 1 {
		s = fmt.Sprintf("%s reloader, %d shards × %d replicas", e.reloader, e.shards, e.replicas)
	}
	if e.reloader != reloaderAPI {
		s += fmt.Sprintf(", kubelet sync %s", e.kubeletSync)
	}
	return s
}

// operatorFlags are what the harness appends to -operator in the end-to-end mode.
func (e e2eOptions) operatorFlags() string {
	switch e.reloader {
	case reloaderAPI:
		return " --prometheus-config-reloader=" + lookoutReloaderImage + " --reloader-watch-api --reloader-report-config"
	case reloaderFile:
		return " --prometheus-config-reloader=" + lookoutReloaderImage + " --reloader-report-config"
	}
	return " --prometheus-config-reloader=" + upstreamReloaderImage
}

// setup checks the end-to-end flags and binaries and finds bin/prometheus's version.
func (e *e2eOptions) setup(changeLimit time.Duration) error {
	switch e.reloader {
	case reloaderAPI, reloaderFile, reloaderUpstream:
	default:
		return fmt.Errorf("-reloader: %q is not api, file or upstream", e.reloader)
	}
	if e.replicas < 1 || e.shards < 1 {
		return fmt.Errorf("-replicas and -shards must be at least 1")
	}
	if e.kubeletSync <= 0 {
		return fmt.Errorf("-kubelet-sync must be positive")
	}
	if e.editTimeout == 0 {
		e.editTimeout = changeLimit + 2*e.kubeletSync
	}
	// The containers run in their pod's directory: absolute paths.
	bins := []*string{&e.prometheus, &e.lookoutReloader}
	if e.upstream() {
		bins = []*string{&e.prometheus, &e.upstreamReloader}
	}
	for _, b := range bins {
		if _, err := os.Stat(*b); err != nil {
			return fmt.Errorf("%w (make tools builds bin/prometheus and bin/prometheus-config-reloader, make build bin/config-reloader)", err)
		}
		abs, err := filepath.Abs(*b)
		if err != nil {
			return err
		}
		*b = abs
	}
	out, err := exec.Command(e.prometheus, "--version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %w", e.prometheus, err)
	}
	m := regexp.MustCompile(`^prometheus, version (\S+)`).FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("%s --version: unexpected output %q", e.prometheus, out)
	}
	e.version = string(m[1])
	return nil
}

// images maps the images the operators put in the pod spec to the local binaries: the
// Prometheus image of bin/prometheus's version, and the reloader image of the mode.
func (e e2eOptions) images(image string) (localpods.Image, error) {
	switch image {
	case prometheusImageRepo + ":v" + e.version:
		return localpods.Image{Binary: e.prometheus, ListenFlag: "--web.listen-address"}, nil
	case lookoutReloaderImage:
		return localpods.Image{Binary: e.lookoutReloader}, nil
	case upstreamReloaderImage:
		return localpods.Image{Binary: e.upstreamReloader}, nil
	}
	return localpods.Image{}, fmt.Errorf("image %s has no local binary in the harness (Prometheus v%s, %s, %s)", image, e.version, lookoutReloaderImage, upstreamReloaderImage)
}

// enterMountNamespace re-executes the harness in a mount namespace of its own, as root,
// and exits with its status: there a tmpfs over /var/run/secrets holds the service
// account files the pods' in-cluster clients read, which nothing outside sees. In the
// re-executed harness it mounts that tmpfs and returns.
func enterMountNamespace() {
	if os.Getenv(mountNSEnv) != "" {
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			fatalf("-e2e: making / private in the mount namespace: %v", err)
		}
		if err := syscall.Mount("tmpfs", "/var/run/secrets", "tmpfs", 0, "mode=0755,size=16m"); err != nil {
			fatalf("-e2e: mounting a tmpfs on /var/run/secrets: %v", err)
		}
		if err := os.MkdirAll(saDir, 0o755); err != nil {
			fatalf("-e2e: %v", err)
		}
		return
	}
	if os.Geteuid() != 0 {
		fatalf("-e2e needs root, like the end-to-end suite: the harness mounts the service account files of the Prometheus pods " +
			"at " + saDir + " (where Prometheus's in-cluster Kubernetes discovery and the reloader read them) in a mount namespace of its own")
	}
	// The mount point must exist; an empty directory is left on the host only while the
	// harness runs.
	created := false
	if _, err := os.Stat("/var/run/secrets"); os.IsNotExist(err) {
		if err := os.Mkdir("/var/run/secrets", 0o755); err != nil {
			fatalf("-e2e: %v", err)
		}
		created = true
	}
	cmd := exec.Command("/proc/self/exe", os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), mountNSEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS, Pdeathsig: syscall.SIGKILL}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	if err := cmd.Start(); err != nil {
		fatalf("-e2e: re-executing in a mount namespace: %v", err)
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	if created {
		_ = os.Remove("/var/run/secrets")
	}
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		fatalf("-e2e: %v", err)
	}
	os.Exit(0)
}
