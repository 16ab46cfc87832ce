// Package workloadtest holds the test helpers the builder packages by kind share
// (pkg/prometheus/promplan, pkg/alertmanager/amplan, pkg/thanosruler/trplan): a
// kube-apiserver for server-side dry runs of the generated objects, and the check that
// generated reloader arguments are ones upstream's reloader accepts.
package workloadtest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/workload"
	"github.com/lookout-operator/lookout/test/testenv"
)

// APIServer starts a kube-apiserver (no CRDs) with the namespace "monitoring" and
// returns a client of it; it stops with the test.
func APIServer(t *testing.T) (context.Context, client.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	env, err := testenv.Start(ctx, testenv.Options{SkipCRDs: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	c := env.Client
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "monitoring"}}); err != nil {
		t.Fatal(err)
	}
	return ctx, c
}

// DryRunCreate sends every object to the API server as a server-side dry-run create: the
// API server's own validation is the proof they are valid objects.
func DryRunCreate(ctx context.Context, t *testing.T, c client.Client, objects map[string]client.Object) {
	t.Helper()
	for name, obj := range objects {
		if err := c.Create(ctx, obj, client.DryRunAll); err != nil {
			t.Errorf("%s: the API server rejects it: %v", name, err)
		}
	}
}

// UpstreamReloaderFlags are the flags prometheus-operator's prometheus-config-reloader
// v0.93 defines (cmd/prometheus-config-reloader/main.go, and pkg/versionutil's
// --version/--short-version), help aside.
var UpstreamReloaderFlags = []string{
	"config-file", "config-envsubst-file", "watch-interval", "delay-interval", "retry-interval",
	"reload-timeout", "auto-gomemlimit-ratio", "watched-dir", "reload-method", "process-executable-name",
	"statefulset-ordinal-from-envvar", "listen-address", "web-config-file", "log-format", "log-level",
	"reload-url", "runtimeinfo-url", "version", "short-version",
}

// APIWatchReloaderFlags are Lookout's own, allowed only with workload.Options.ReloaderWatchAPI.
var APIWatchReloaderFlags = []string{"watch-secret", "watch-configmap", "kubeconfig"}

// ConfigPartsReloaderFlags are Lookout's own, given only for a configuration spread over
// several Secrets (Input.ConfigParts > 1), which upstream's operator never generates.
var ConfigPartsReloaderFlags = []string{"config-part-file"}

// ReloaderCase is one generated pod's reloader containers.
type ReloaderCase struct {
	Name           string
	API            bool
	Parts          bool
	Report         bool
	PodName        string
	InitC, Sidecar corev1.Container
}

// ReloaderContainers finds the reloader containers of sts's pod.
func ReloaderContainers(t *testing.T, name string, sts *appsv1.StatefulSet) (initC, sidecar corev1.Container) {
	t.Helper()
	for _, ic := range sts.Spec.Template.Spec.InitContainers {
		if ic.Name == workload.ReloaderInitName {
			initC = ic
		}
	}
	for _, sc := range sts.Spec.Template.Spec.Containers {
		if sc.Name == workload.ReloaderContainerName {
			sidecar = sc
		}
	}
	if initC.Name == "" || sidecar.Name == "" {
		t.Fatalf("%s: no reloader containers", name)
	}
	return initC, sidecar
}

// FlagName returns the name of "--name=value" or "--name".
func FlagName(arg string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
	return name
}

// CheckReloaderArgsUpstreamCompatible checks that the reloader containers of every case
// get only flags upstream's reloader defines, unless API-watch mode is on, which adds its
// own and nothing else, or --reloader-report-config, which adds --report-pod to the
// sidecar (the operator refuses both with upstream's image).
func CheckReloaderArgsUpstreamCompatible(t *testing.T, cases []ReloaderCase) {
	t.Helper()
	for _, rc := range cases {
		for _, c := range []corev1.Container{rc.InitC, rc.Sidecar} {
			apiFlags := 0
			for _, a := range c.Args {
				if !strings.HasPrefix(a, "--") {
					t.Errorf("%s/%s: argument %q is not a flag", rc.Name, c.Name, a)
					continue
				}
				switch n := FlagName(a); {
				case slices.Contains(UpstreamReloaderFlags, n):
				case slices.Contains(ConfigPartsReloaderFlags, n):
					if !rc.Parts {
						t.Errorf("%s/%s: %s for a configuration in one Secret", rc.Name, c.Name, a)
					}
				case n == "report-pod":
					if !rc.Report || c.Name != workload.ReloaderContainerName {
						t.Errorf("%s/%s: %s without --reloader-report-config (upstream's reloader rejects it), or in the init container", rc.Name, c.Name, a)
					}
				case slices.Contains(APIWatchReloaderFlags, n):
					apiFlags++
					if !rc.API {
						t.Errorf("%s/%s: %s without API-watch mode: upstream's reloader rejects it", rc.Name, c.Name, a)
					}
				default:
					t.Errorf("%s/%s: %s is not a flag of upstream's reloader", rc.Name, c.Name, a)
				}
			}
			if rc.API && apiFlags == 0 {
				t.Errorf("%s/%s: API-watch mode without its flags", rc.Name, c.Name)
			}
		}
	}
}
