package packaging

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// TestOperatorRunsUnderPackagedRBAC installs the RBAC of the chart's defaults, of the chart
// with rbac.namespaced and of the namespace-restricted overlay for real, one after the other, and runs the operator with
// the rendered arguments as the packaged service account (impersonated): it must
// generate the configuration of a Prometheus selecting a ServiceMonitor in its
// namespace. A rule the operator needs and the package lacks shows here, not in a
// cluster.
func TestOperatorRunsUnderPackagedRBAC(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the operator")
	}
	cases := map[string]func(t *testing.T) []manifest.Object{
		"chart-defaults": func(t *testing.T) []manifest.Object { return template(t, nil) },
		"chart-namespaced": func(t *testing.T) []manifest.Object {
			v := map[string]any{}
			setPath(v, "rbac.namespaced", true)
			setPath(v, "namespaces.releaseNamespace", true)
			objs := template(t, v)
			for perm := range permissions(t, objs, "ClusterRole") {
				if perm != "/namespaces:get" && perm != "/namespaces:list" && perm != "/namespaces:watch" {
					t.Errorf("rbac.namespaced: the ClusterRole grants %s", perm)
				}
			}
			return objs
		},
		"namespace-restricted": func(t *testing.T) []manifest.Object { return kustomizeBuild(t, "config/overlays/namespace-restricted") },
	}
	for _, name := range []string{"chart-defaults", "chart-namespaced", "namespace-restricted"} {
		t.Run(name, func(t *testing.T) {
			objs := cases[name](t)
			c := apiServer(t)
			installRBAC(t, c, objs)
			args := operatorArgs(t, objs)[1:] // after "run"
			kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
			if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
				t.Fatal(err)
			}
			args = append(args,
				"--kubeconfig="+kubeconfig,
				"--as=system:serviceaccount:"+releaseNS+":lookout-operator",
				"--leader-election-namespace="+releaseNS,
				"--metrics-bind-address=0", "--health-probe-bind-address=0")
			runOperator(t, args)
			checkGenerates(t, c, releaseNS, name)
		})
	}
}

// installRBAC creates the namespace, service account and RBAC objects of a render, and
// deletes the RBAC objects at the end (the cases must not see each other's rights).
func installRBAC(t *testing.T, c client.Client, objs []manifest.Object) {
	t.Helper()
	ctx := context.Background()
	dryRun(t, nil, releaseNS) // the namespace
	for _, o := range objs {
		switch o.GetKind() {
		case "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding":
		default:
			continue
		}
		u := o.Unstructured.DeepCopy()
		if err := c.Create(ctx, u); err != nil && !(apierrors.IsAlreadyExists(err) && o.GetKind() == "ServiceAccount") {
			t.Fatalf("%s %s: %v", o.GetKind(), o.GetName(), err)
		}
		if o.GetKind() == "ServiceAccount" {
			continue
		}
		t.Cleanup(func() {
			if err := c.Delete(context.Background(), u); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s %s: %v", u.GetKind(), u.GetName(), err)
			}
		})
	}
}

// runOperator runs the operator in this process with args until the test ends.
func runOperator(t *testing.T, args []string) {
	t.Helper()
	var out bytes.Buffer
	p, err := operator.ParseArgs(args, &out)
	if err != nil {
		t.Fatalf("parsing %q: %v\n%s", args, err, out.String())
	}
	opts := p.Options
	opts.SkipControllerNameValidation = true
	opts.Registry = prometheus.NewRegistry()
	opts.GracefulShutdown = 5 * time.Second
	cfg, err := opts.Client.RESTConfig("lookout-operator/packaging-test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	mgr, err := operator.New(ctx, cfg, opts)
	if err != nil {
		cancel()
		t.Fatalf("building the operator from %q: %v", args, err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("operator: %v", err)
		}
	})
}

// checkGenerates creates a Prometheus and a ServiceMonitor it selects in ns and waits for
// the config Secret with the monitor's job.
func checkGenerates(t *testing.T, c client.Client, ns, name string) {
	t.Helper()
	ctx := context.Background()
	objs := decode(t, []byte(fmt.Sprintf(`
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: %[1]s, namespace: %[2]s}
spec:
  serviceMonitorSelector: {matchLabels: {case: %[1]s}}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: %[1]s, namespace: %[2]s, labels: {case: %[1]s}}
spec:
  selector: {matchLabels: {app: x}}
  endpoints: [{port: web}]
`, name, ns)), "test objects")
	for _, o := range objs {
		u := o.Unstructured.DeepCopy()
		if err := c.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Delete(context.Background(), u) })
	}
	job := "job_name: serviceMonitor/" + ns + "/" + name + "/0"
	deadline := time.Now().Add(60 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		var s corev1.Secret
		last = c.Get(ctx, client.ObjectKey{Namespace: ns, Name: layout.Prometheus(name).ConfigSecret()}, &s)
		if last == nil {
			cfg, err := gunzipConfig(s.Data)
			if err == nil && strings.Contains(cfg, job) {
				return
			}
			last = fmt.Errorf("config without %q (%v)", job, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	p := &unstructured.Unstructured{}
	p.SetAPIVersion("monitoring.coreos.com/v1")
	p.SetKind("Prometheus")
	_ = c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, p)
	t.Fatalf("no config Secret with the ServiceMonitor's job: %v; Prometheus status %v", last, p.Object["status"])
}

// gunzipConfig decompresses the generated configuration of a config Secret.
func gunzipConfig(data map[string][]byte) (string, error) {
	r, err := gzip.NewReader(bytes.NewReader(data[layout.ConfigCompressedKey]))
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(r)
	return string(b), err
}
