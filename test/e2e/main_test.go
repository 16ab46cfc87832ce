//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/lookout-operator/lookout/test/testenv"
)

// The test binary has four roles, chosen by the environment:
//
//	(none)            re-execute itself in new network and mount namespaces (reexecIsolated)
//	envIsolated=1     the suite: control plane, operator, Alertmanager, scenarios
//	envContainer=F    a container of a pod: set up its mounts and identity, exec F's binary
//	envPause=1        the pause process that holds a pod's network namespace
const (
	envIsolated  = "LOOKOUT_E2E_ISOLATED"
	envContainer = "LOOKOUT_E2E_CONTAINER"
	envPause     = "LOOKOUT_E2E_PAUSE"
	// envKubeletSync overrides the kubelet's volume sync period (default defaultKubeletSync).
	envKubeletSync = "LOOKOUT_E2E_KUBELET_SYNC"
	// envArtifacts names the directory for logs and pod files, kept after the run (default:
	// a new temporary directory, removed when every scenario passed).
	envArtifacts = "LOOKOUT_E2E_ARTIFACTS"
)

// suite is what every scenario shares.
type suite struct {
	env        *testenv.Env
	k8s        client.Client
	bin        string // directory of the binaries
	artifacts  string // logs and pod directories
	kubeconfig string // admin kubeconfig of the control plane
	apiHost    string // 127.0.0.1
	apiPort    string
	caPEM      []byte // CA of the API server's serving certificate
	images     map[string]string
	kubeSync   time.Duration
	ips        *ipam
	am         *alertmanager
	stops      []func() // run in reverse order at teardown
}

var s *suite

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(envContainer) != "":
		runContainer(os.Getenv(envContainer)) // does not return
	case os.Getenv(envPause) != "":
		pause()
	case os.Getenv(envIsolated) == "":
		os.Exit(reexecIsolated())
	}
	os.Exit(runSuite(m))
}

// reexecIsolated runs this binary again in a new network namespace and a new mount
// namespace, and returns its exit code. Nothing the suite does is visible outside them.
func reexecIsolated() int {
	if os.Geteuid() != 0 {
		fmt.Fprintln(os.Stderr, "e2e: the suite needs root (it creates network and mount namespaces); run it as root, e.g. in CI or with sudo")
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	cmd := exec.Command(self, os.Args[1:]...)
	cmd.Env = append(os.Environ(), envIsolated+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWNET | syscall.CLONE_NEWNS,
		Pdeathsig:  syscall.SIGKILL,
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: creating the namespaces:", err)
		return 1
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		for sig := range sigs {
			_ = cmd.Process.Signal(sig)
		}
	}()
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return 0
}

// pause holds a pod's network namespace until it is told to stop.
func pause() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	<-sigs
	os.Exit(0)
}

// runSuite sets up what the scenarios share, runs them and tears down.
func runSuite(m *testing.M) int {
	start := time.Now()
	ctx := context.Background()
	if _, err := setUp(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: setting up:", err)
		if s != nil {
			s.tearDown()
		}
		return 1
	}
	fmt.Printf("e2e: suite ready in %s; logs and pod files in %s\n", time.Since(start).Round(time.Millisecond), s.artifacts)
	code := m.Run()
	s.tearDown()
	took := time.Since(start).Round(time.Second)
	if code == 0 && os.Getenv(envArtifacts) == "" {
		fmt.Printf("e2e: suite took %s\n", took)
		_ = os.RemoveAll(s.artifacts)
	} else {
		fmt.Printf("e2e: suite took %s; logs and pod files in %s\n", took, s.artifacts)
	}
	return code
}

func setUp(ctx context.Context) (*suite, error) {
	// Mounts made from here on stay in this namespace.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("making / private: %w", err)
	}
	if err := setUpNetwork(); err != nil {
		return nil, err
	}
	st := &suite{ips: newIPAM(), kubeSync: defaultKubeletSync}
	s = st
	var err error
	st.bin, err = testenv.AssetsDir()
	if err != nil {
		return nil, err
	}
	if v := os.Getenv(envKubeletSync); v != "" {
		if st.kubeSync, err = time.ParseDuration(v); err != nil || st.kubeSync <= 0 {
			return nil, fmt.Errorf("%s=%q: want a positive duration", envKubeletSync, v)
		}
	}
	st.artifacts = os.Getenv(envArtifacts)
	if st.artifacts == "" {
		st.artifacts, err = os.MkdirTemp("", "lookout-e2e-")
	} else {
		err = os.MkdirAll(st.artifacts, 0o755)
	}
	if err != nil {
		return nil, err
	}
	if st.images, err = imageStore(st.bin); err != nil {
		return nil, err
	}
	// The suite's API client logs (deprecation warnings for Endpoints) go to a file.
	clientLog, err := os.Create(filepath.Join(st.artifacts, "suite-client.log"))
	if err != nil {
		return nil, err
	}
	st.stops = append(st.stops, func() { clientLog.Close() })
	ctrl.SetLogger(zap.New(zap.WriteTo(clientLog)))

	t0 := time.Now()
	// The namespace has no default route, from which the API server would pick the address
	// it advertises (in the kubernetes Service's endpoints): give it the bridge's.
	st.env, err = testenv.Start(ctx, testenv.Options{APIServerArgs: []string{"--advertise-address=" + gateway}})
	if err != nil {
		return nil, err
	}
	st.k8s = st.env.Client
	fmt.Printf("e2e: control plane up in %s\n", time.Since(t0).Round(time.Millisecond))
	u, err := url.Parse(st.env.Config.Host)
	if err != nil {
		return st, err
	}
	st.apiHost, st.apiPort = u.Hostname(), u.Port()
	st.caPEM = st.env.Config.CAData
	if st.apiHost != "127.0.0.1" || len(st.caPEM) == 0 {
		return st, fmt.Errorf("unexpected control plane endpoint %s (CA %d bytes): pods reach the API server through a forwarder on 127.0.0.1", st.env.Config.Host, len(st.caPEM))
	}
	st.kubeconfig = filepath.Join(st.artifacts, "kubeconfig")
	if err := os.WriteFile(st.kubeconfig, st.env.KubeConfig, 0o600); err != nil {
		return st, err
	}
	if err := createDiscoveryRole(ctx, st.k8s); err != nil {
		return st, err
	}
	if err := startMainOperator(st); err != nil {
		return st, err
	}
	if st.am, err = startAlertmanager(ctx, st); err != nil {
		return st, err
	}
	return st, nil
}

func (st *suite) tearDown() {
	for i := len(st.stops) - 1; i >= 0; i-- {
		st.stops[i]()
	}
	if st.env != nil {
		if err := st.env.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: stopping the control plane:", err)
		}
	}
}

// binaryPath returns the path of a binary built into bin/, or an error telling how to build it.
func binaryPath(dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		how := "make build"
		if !strings.HasPrefix(name, "lookout") && name != "config-reloader" {
			how = "make tools"
		}
		return "", fmt.Errorf("%s not found (run `%s`): %w", p, how, err)
	}
	return p, nil
}
