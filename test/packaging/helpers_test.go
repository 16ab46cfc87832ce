package packaging

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/test/testenv"
)

var (
	envOnce sync.Once
	env     *testenv.Env
	envErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if env != nil {
		if err := env.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
		}
	}
	os.Exit(code)
}

// apiServer starts one control plane (with Lookout's CRDs and minimal cert-manager CRDs)
// for the whole package, on first use.
func apiServer(t *testing.T) client.Client {
	t.Helper()
	envOnce.Do(func() {
		env, envErr = testenv.Start(context.Background(), testenv.Options{})
		if envErr == nil {
			envErr = installCertManagerCRDs(env.Client)
		}
	})
	if envErr != nil {
		t.Fatalf("control plane: %v", envErr)
	}
	return env.Client
}

func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// tool returns the path of a tool hack/build-tool.sh builds into bin/.
func tool(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: run `make tool-%s` (hack/build-tool.sh %s): %v", name, name, name, err)
	}
	return p
}

// run runs a tool from the repository root and returns its stdout; stderr goes into the
// error.
func run(t *testing.T, name string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(tool(t, name), args...)
	cmd.Dir = repoRoot(t)
	// helm keeps its caches and repositories out of $HOME.
	tmp := t.TempDir()
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+tmp, "HELM_CONFIG_HOME="+tmp, "HELM_DATA_HOME="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes(), nil
}

func mustRun(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := run(t, name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func decode(t *testing.T, data []byte, source string) []manifest.Object {
	t.Helper()
	objs, err := manifest.Decode(data, source)
	if err != nil {
		t.Fatalf("%s: %v", source, err)
	}
	if len(objs) == 0 {
		t.Fatalf("%s: no objects", source)
	}
	return objs
}

// dryRun sends every object to the API server as a server-side apply with dry run, so
// the API server's validation (and the CRDs' schemas) judge them. Namespaces are created
// for real first, as the objects in them could not be checked otherwise.
func dryRun(t *testing.T, objs []manifest.Object, extraNamespaces ...string) {
	t.Helper()
	c := apiServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	namespaces := map[string]bool{}
	for _, ns := range extraNamespaces {
		namespaces[ns] = true
	}
	for _, o := range objs {
		if o.GetKind() == "Namespace" {
			namespaces[o.GetName()] = true
		}
		if ns := o.GetNamespace(); ns != "" {
			namespaces[ns] = true
		}
	}
	for ns := range namespaces {
		n := &unstructured.Unstructured{}
		n.SetAPIVersion("v1")
		n.SetKind("Namespace")
		n.SetName(ns)
		if err := c.Create(ctx, n); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("namespace %s: %v", ns, err)
		}
	}
	for _, o := range objs {
		u := o.Unstructured.DeepCopy()
		err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u),
			client.FieldOwner("lookout-packaging-test"), client.ForceOwnership, client.DryRunAll)
		if err != nil {
			t.Errorf("%s %s/%s (%s): refused by the API server: %v", o.GetKind(), o.GetNamespace(), o.GetName(), o.Source, err)
		}
	}
}

// kinds lists "Kind namespace/name" of the objects, sorted.
func kinds(objs []manifest.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetKind()+" "+o.GetNamespace()+"/"+o.GetName())
	}
	sort.Strings(out)
	return out
}

// certManagerCRDs are stand-ins for cert-manager's Issuer and Certificate CRDs (any
// content), enough for the chart's cert-manager option to be dry-run.
const certManagerCRDs = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: issuers.cert-manager.io
spec:
  group: cert-manager.io
  names: {kind: Issuer, listKind: IssuerList, plural: issuers, singular: issuer}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
spec:
  group: cert-manager.io
  names: {kind: Certificate, listKind: CertificateList, plural: certificates, singular: certificate}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

func installCertManagerCRDs(c client.Client) error {
	objs, err := manifest.Decode([]byte(certManagerCRDs), "cert-manager CRDs")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, o := range objs {
		if err := c.Create(ctx, o.Unstructured.DeepCopy()); err != nil {
			return err
		}
	}
	// Wait until the API server serves them.
	for _, o := range []string{"Issuer", "Certificate"} {
		for {
			l := &unstructured.UnstructuredList{}
			l.SetAPIVersion("cert-manager.io/v1")
			l.SetKind(o + "List")
			if err := c.List(ctx, l); err == nil {
				break
			} else if ctx.Err() != nil {
				return fmt.Errorf("cert-manager %s CRD not served: %w", o, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return nil
}
