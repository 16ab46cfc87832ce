package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/dirhash"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/testenv"
)

// TestReportPod: with --report-pod the sidecar writes the hash of each configuration
// Prometheus confirmed loading onto its pod's status, beside the kubelet's conditions, on
// a real kube-apiserver; a pod that does not exist yet is retried.
func TestReportPod(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env, kubeconfig := startAPI(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "config", "prometheus.yaml.gz"), filepath.Join(dir, "out", "prometheus.env.yaml")
	for _, d := range []string{filepath.Dir(in), filepath.Dir(out)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(marker string) string {
		t.Helper()
		if err := os.WriteFile(in, reloadertest.Gzip(t, configYAML(marker)), 0o644); err != nil {
			t.Fatal(err)
		}
		return confighash.Sum([]byte(configYAML(marker)))
	}
	hash1 := write("v1")
	// What the init container renders, so that Prometheus starts.
	if err := os.WriteFile(out, []byte(configYAML("v1")), 0o644); err != nil {
		t.Fatal(err)
	}
	p := reloadertest.Start(t, out, reloadertest.Options{})
	s := startSidecar(t, "--config-file="+in, "--config-envsubst-file="+out, "--reload-url="+p.ReloadURL(),
		"--runtimeinfo-url="+p.RuntimeInfoURL(), "--delay-interval=10ms", "--retry-interval=100ms",
		"--kubeconfig="+kubeconfig, "--report-pod=monitoring/prometheus-k8s-0")
	s.await(reloader.ActionReloaded)

	// The pod appears after the first reload: the report is retried until it exists.
	pod := createPod(t, env)
	awaitReport(t, env, hash1, 10*time.Second)

	hash2 := write("v2")
	t0 := time.Now()
	s.await(reloader.ActionReloaded)
	awaitReport(t, env, hash2, 10*time.Second)
	t.Logf("config written -> reported on the pod in %s", time.Since(t0).Round(time.Millisecond))
	if err := env.Client.Get(ctx, types.NamespacedName{Namespace: "monitoring", Name: "prometheus-k8s-0"}, pod); err != nil {
		t.Fatal(err)
	}
	if len(pod.Status.Conditions) != 2 || !slices.ContainsFunc(pod.Status.Conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.PodReady }) {
		t.Errorf("pod conditions %+v, want Ready kept beside the report", pod.Status.Conditions)
	}
}

// TestReportPodRules: a reloader without --config-file (a ThanosRuler's, watching its rule
// ConfigMap directories) reports the hash of the watched files (package dirhash), the one
// the operator computes from the rule ConfigMaps' data, and only once the server accepted
// the reload: a reload answered with an error leaves the last accepted hash reported.
func TestReportPodRules(t *testing.T) {
	t.Parallel()
	env, kubeconfig := startAPI(t)
	// Two rule ConfigMap slots, as the kubelet mounts them, the second unused.
	dir := t.TempDir()
	slots := []string{filepath.Join(dir, "rulefiles-0"), filepath.Join(dir, "rulefiles-1")}
	for _, d := range slots {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(data map[string]string) {
		t.Helper()
		for k, v := range data {
			if err := os.WriteFile(filepath.Join(slots[0], k), []byte(v), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The ruler: /-/reload answers 500 while a rule file says "invalid", as Thanos
	// answers a reload whose rules do not load.
	var reloads, refused atomic.Int64
	ruler := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reloads.Add(1)
		entries, _ := os.ReadDir(slots[0])
		for _, e := range entries {
			if b, _ := os.ReadFile(filepath.Join(slots[0], e.Name())); strings.Contains(string(b), "invalid") {
				refused.Add(1)
				http.Error(w, "error loading rules", http.StatusInternalServerError)
				return
			}
		}
	}))
	t.Cleanup(ruler.Close)

	v1 := map[string]string{"monitoring-a.yaml": "groups: [{name: a}]\n", "monitoring-b.yaml": "groups: [{name: b}]\n"}
	write(v1)
	createPod(t, env)
	s := startSidecar(t, "--watched-dir="+slots[0], "--watched-dir="+slots[1], "--reload-url="+ruler.URL+"/-/reload",
		"--delay-interval=10ms", "--retry-interval=100ms", "--kubeconfig="+kubeconfig, "--report-pod=monitoring/prometheus-k8s-0")
	s.await(reloader.ActionReloaded)
	awaitReport(t, env, dirhash.OfData(v1, nil), 10*time.Second)

	// Refused: the report stays.
	write(map[string]string{"monitoring-b.yaml": "invalid"})
	s.await(reloader.ActionFailed)
	time.Sleep(300 * time.Millisecond)
	awaitReport(t, env, dirhash.OfData(v1), time.Second)

	v2 := map[string]string{"monitoring-a.yaml": v1["monitoring-a.yaml"], "monitoring-b.yaml": "groups: [{name: b2}]\n"}
	write(v2)
	s.await(reloader.ActionReloaded)
	awaitReport(t, env, dirhash.OfData(v2, map[string]string{}), 10*time.Second)
	if refused.Load() == 0 || reloads.Load() < 3 {
		t.Errorf("%d reloads, %d refused: want the invalid rule refused", reloads.Load(), refused.Load())
	}
}

// startAPI starts a kube-apiserver with the namespace monitoring, and writes its
// kubeconfig.
func startAPI(t *testing.T) (*testenv.Env, string) {
	t.Helper()
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{SkipCRDs: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "monitoring"}}); err != nil {
		t.Fatal(err)
	}
	return env, kubeconfig
}

// createPod creates the pod monitoring/prometheus-k8s-0 with the kubelet's Ready
// condition.
func createPod(t *testing.T, env *testenv.Env) *corev1.Pod {
	t.Helper()
	ctx := context.Background()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "prometheus-k8s-0"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus"}}},
	}
	if err := env.Client.Create(ctx, pod); err != nil {
		t.Fatal(err)
	}
	// The kubelet's Ready condition, written like the kubelet does: the sidecar may have
	// reported between the create and this write, so a conflict is re-read and retried.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := env.Client.Get(ctx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return err
		}
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()})
		return env.Client.Status().Update(ctx, pod)
	})
	if err != nil {
		t.Fatal(err)
	}
	return pod
}

func awaitReport(t *testing.T, env *testenv.Env, hash string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		pod := &corev1.Pod{}
		if err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: "monitoring", Name: "prometheus-k8s-0"}, pod); err == nil {
			for _, c := range pod.Status.Conditions {
				if string(c.Type) == podreport.ConditionType {
					last = fmt.Sprintf("%s %s: %s", c.Status, c.Reason, c.Message)
					if h, ok := podreport.HashOf(c.Message); ok && h == hash && c.Status == corev1.ConditionTrue && c.Reason == podreport.Reason {
						return
					}
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("pod condition not reporting sha256 %s within %s (last: %q)", hash, timeout, last)
}
