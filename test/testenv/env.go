package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/lookout-operator/lookout/pkg/crds"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// Env is a running control plane.
type Env struct {
	env    *envtest.Environment
	Config *rest.Config
	Client client.Client
	// KubeConfig is an admin kubeconfig for the control plane.
	KubeConfig []byte
}

// RepoRoot finds the repository root by walking up to the directory holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "test", "tools")); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root not found (no go.mod with test/tools above the working directory)")
		}
		dir = parent
	}
}

// AssetsDir returns the directory holding kube-apiserver and etcd: $KUBEBUILDER_ASSETS,
// or the repository's bin/.
func AssetsDir() (string, error) {
	if d := os.Getenv("KUBEBUILDER_ASSETS"); d != "" {
		return d, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "bin"), nil
}

// Options tune the control plane.
type Options struct {
	// APIServerArgs are extra kube-apiserver flags ("--flag=value").
	APIServerArgs []string
	// SkipCRDs leaves the CRDs out.
	SkipCRDs bool
}

// Start brings up etcd and kube-apiserver and installs the CRDs with server-side apply.
func Start(ctx context.Context, o Options) (*Env, error) {
	assets, err := AssetsDir()
	if err != nil {
		return nil, err
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			return nil, fmt.Errorf("%s not found in %s: run `make tools` first (%w)", bin, assets, err)
		}
	}
	e := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		ControlPlaneStartTimeout: 90 * time.Second,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	api := e.ControlPlane.GetAPIServer()
	for _, a := range o.APIServerArgs {
		name, value := splitFlag(a)
		api.Configure().Append(name, value)
	}
	cfg, err := e.Start()
	if err != nil {
		return nil, fmt.Errorf("starting control plane: %w", err)
	}
	cfg.QPS, cfg.Burst = 1000, 2000
	c, err := client.New(cfg, client.Options{Scheme: operator.NewScheme()})
	if err != nil {
		_ = e.Stop()
		return nil, err
	}
	env := &Env{env: e, Config: cfg, Client: c, KubeConfig: e.KubeConfig}
	if !o.SkipCRDs {
		if err := crds.Install(ctx, c); err != nil {
			_ = e.Stop()
			return nil, err
		}
	}
	return env, nil
}

// Stop stops kube-apiserver and etcd and removes their data.
func (e *Env) Stop() error { return e.env.Stop() }

func splitFlag(a string) (string, string) {
	for len(a) > 0 && a[0] == '-' {
		a = a[1:]
	}
	for i := range a {
		if a[i] == '=' {
			return a[:i], a[i+1:]
		}
	}
	return a, ""
}
