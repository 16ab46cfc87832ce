package packaging

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// kustomizations are the kustomize base (example/, the manifests of example/install) and
// the overlays.
var kustomizations = []string{"example", "config/overlays/cluster-wide", "config/overlays/namespace-restricted"}

func kustomizeBuild(t *testing.T, dir string) []manifest.Object {
	t.Helper()
	return decode(t, mustRun(t, "kustomize", "build", dir), "kustomize build "+dir)
}

// TestKustomizeBaseIsInstall: the base builds exactly the objects of example/install.
func TestKustomizeBaseIsInstall(t *testing.T) {
	install, err := manifest.ReadPaths(filepath.Join(repoRoot(t), "example", "install"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(kustomizeBuild(t, "example")), kinds(install); !slices.Equal(got, want) {
		t.Errorf("kustomize base builds\n%q\nexample/install holds\n%q", got, want)
	}
}

// TestKustomizeDryRun builds the base and both overlays and has the API server (with the
// CRDs installed) dry-run every object.
func TestKustomizeDryRun(t *testing.T) {
	for _, dir := range kustomizations {
		t.Run(dir, func(t *testing.T) {
			dryRun(t, kustomizeBuild(t, dir))
		})
	}
}

// TestKustomizeOverlays: both overlays pin the operator and reloader images to the
// chart's appVersion; their operator arguments parse; the namespace-restricted overlay
// watches only its namespace and grants namespaced rights by a Role only.
func TestKustomizeOverlays(t *testing.T) {
	tag := "v" + chartAppVersion(t)
	for _, dir := range kustomizations[1:] {
		objs := kustomizeBuild(t, dir)
		var dep *manifest.Object
		for i := range objs {
			if objs[i].GetKind() == "Deployment" {
				dep = &objs[i]
			}
		}
		if dep == nil {
			t.Fatalf("%s: no Deployment", dir)
		}
		args := operatorArgs(t, []manifest.Object{*dep})
		c := dep.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
		if img := c["image"]; img != "ghcr.io/lookout-operator/lookout-operator:"+tag {
			t.Errorf("%s: operator image %v, want tag %s", dir, img, tag)
		}
		var errs bytes.Buffer
		if args[0] != "run" {
			t.Fatalf("%s: arguments %q do not start with run", dir, args)
		}
		p, err := operator.ParseArgs(args[1:], &errs)
		if err != nil {
			t.Fatalf("%s: %v %s", dir, err, errs.String())
		}
		if got, want := p.Options.Workload.ConfigReloaderImage, "ghcr.io/lookout-operator/config-reloader:"+tag; got != want {
			t.Errorf("%s: reloader image %s, want %s", dir, got, want)
		}
		restricted := strings.HasSuffix(dir, "namespace-restricted")
		if restricted != slices.Equal(p.Options.Namespaces, []string{"lookout"}) {
			t.Errorf("%s: --namespaces %q", dir, p.Options.Namespaces)
		}
		if !restricted {
			continue
		}
		// Cluster-wide rights: only what has no namespace.
		for perm := range permissions(t, objs, "ClusterRole") {
			if !strings.HasPrefix(perm, "/namespaces:") {
				t.Errorf("%s: a ClusterRole grants %s, which a Role can", dir, perm)
			}
		}
		// The Role: the namespaced rules of example/install, less the kubelet
		// controller's (they are in kube-system) and the leader election Lease (its own
		// Role, as in the base).
		install, err := manifest.ReadPaths(filepath.Join(repoRoot(t), "example", "install"))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for perm := range permissions(t, install, "ClusterRole") {
			// StorageClasses are cluster-scoped: without a ClusterRole the operator skips
			// the storage class check.
			if strings.HasPrefix(perm, "/namespaces:") || strings.HasPrefix(perm, "storage.k8s.io/storageclasses:") || slices.Contains(optionalPermissions["kubeletService.enabled"], perm) || slices.Contains(optionalPermissions["crds.upgrade"], perm) {
				continue
			}
			want[perm] = true
		}
		for perm := range permissions(t, install, "Role") {
			want[perm] = true
		}
		got := permissions(t, objs, "Role")
		if g, w := sortedKeys(got), sortedKeys(want); !slices.Equal(g, w) {
			t.Errorf("%s: Roles grant\n%q\nwant\n%q", dir, g, w)
		}
	}
}
