package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/lookout-operator/lookout/pkg/crds"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/test/testenv"
)

// cluster is a local control plane with an audit log of the operator user's requests.
type cluster struct {
	env *envtest.Environment
	// cs talks protobuf, for the built-in kinds; c talks JSON, for the custom resources.
	cs kubernetes.Interface
	c  client.Client
	// kubeconfig is the operator user's kubeconfig file.
	kubeconfig string
	audit      string
}

// startCluster starts etcd and kube-apiserver with an audit policy for user, installs the
// CRDs, and writes user's kubeconfig (a client certificate of its own, member of
// system:masters) into dir.
func startCluster(ctx context.Context, dir, user string) (*cluster, error) {
	assets, err := testenv.AssetsDir()
	if err != nil {
		return nil, err
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			return nil, fmt.Errorf("%s not found in %s: run `make tools` first (%w)", bin, assets, err)
		}
	}
	policy := filepath.Join(dir, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(auditPolicy(user)), 0o644); err != nil {
		return nil, err
	}
	cl := &cluster{audit: filepath.Join(dir, "audit.log"), kubeconfig: filepath.Join(dir, "operator.kubeconfig")}
	cl.env = &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	api := cl.env.ControlPlane.GetAPIServer().Configure()
	api.Append("audit-policy-file", policy)
	api.Append("audit-log-path", cl.audit)
	api.Append("audit-log-format", "json")
	api.Append("audit-log-mode", "blocking")
	api.Append("audit-log-maxsize", "100000") // MB: never rotate under the harness
	cfg, err := cl.env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting control plane: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			_ = cl.env.Stop()
		}
	}()

	u, err := cl.env.ControlPlane.AddUser(envtest.User{Name: user, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return nil, fmt.Errorf("adding user %s: %w", user, err)
	}
	kc, err := u.KubeConfig()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(cl.kubeconfig, kc, 0o600); err != nil {
		return nil, err
	}

	// The harness must never be the bottleneck: no client-side rate limit.
	cfg = rest.CopyConfig(cfg)
	cfg.RateLimiter = flowcontrol.NewFakeAlwaysRateLimiter()
	cfg.Timeout = 2 * time.Minute
	if cl.c, err = client.New(cfg, client.Options{Scheme: operator.NewScheme()}); err != nil {
		return nil, err
	}
	pcfg := rest.CopyConfig(cfg)
	pcfg.ContentType = "application/vnd.kubernetes.protobuf"
	pcfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	if cl.cs, err = kubernetes.NewForConfig(pcfg); err != nil {
		return nil, err
	}
	if err := crds.Install(ctx, cl.c); err != nil {
		return nil, err
	}
	ok = true
	return cl, nil
}

func (cl *cluster) stop() error { return cl.env.Stop() }
