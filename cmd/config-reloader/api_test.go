package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
	"github.com/lookout-operator/lookout/test/testenv"
)

// TestAPIMode runs the pod's two containers against a real kube-apiserver and a real
// Prometheus: the init container fetches the config Secret and renders it, the sidecar
// watches the Secret and a rule ConfigMap that appears later, and every API update
// reaches Prometheus without any kubelet.
func TestAPIMode(t *testing.T) {
	t.Parallel()
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
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "monitoring"}}
	if err := env.Client.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfgDir, rulesDir := filepath.Join(dir, "config"), filepath.Join(dir, "rules", "prometheus-k8s-rulefiles-0")
	out := filepath.Join(dir, "config_out", "prometheus.env.yaml")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	withRules := func(marker string) string { return configYAML(marker) + "rule_files:\n  - " + rulesDir + "/*.yaml\n" }
	args := []string{
		"--config-file=" + filepath.Join(cfgDir, "prometheus.yaml.gz"),
		"--config-envsubst-file=" + out,
		"--watched-dir=" + rulesDir,
		"--watch-secret=monitoring/prometheus-k8s=" + cfgDir,
		"--watch-configmap=monitoring/prometheus-k8s-rulefiles-0=" + rulesDir,
		"--kubeconfig=" + kubeconfig,
	}
	// The init container starts before the config Secret exists: it waits for it.
	var initLog syncBuffer
	initDone := make(chan int, 1)
	go func() { initDone <- run(ctx, append(args, "--watch-interval=0"), &initLog, hooks{}) }()
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "prometheus-k8s"},
		Data:       map[string][]byte{"prometheus.yaml.gz": reloadertest.Gzip(t, withRules("v1"))},
	}
	if err := env.Client.Create(ctx, secret); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-initDone:
		if code != exitOK {
			t.Fatalf("init exit %d:\n%s", code, initLog.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("init container did not finish:\n%s", initLog.String())
	}
	p := reloadertest.Start(t, out, reloadertest.Options{})
	requireMarker(t, p, "v1")
	s := startSidecar(t, append(args, "--reload-url="+p.ReloadURL(), "--runtimeinfo-url="+p.RuntimeInfoURL(),
		"--retry-interval=100ms", "--delay-interval=10ms")...)
	s.await(reloader.ActionReloaded)

	// The optional rule ConfigMap appears.
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "prometheus-k8s-rulefiles-0"},
		Data:       map[string]string{"r.yaml": "groups:\n- name: from-api\n  rules:\n  - record: one\n    expr: vector(1)\n"},
	}
	if err := env.Client.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	s.await(reloader.ActionReloaded)
	if groups, err := p.RuleGroups(); err != nil || !slices.Equal(groups, []string{"from-api"}) {
		t.Fatalf("rule groups %v, %v", groups, err)
	}

	// Secret updates: each reaches Prometheus; the time from the API write to the
	// confirmed reload is what API mode buys over the kubelet's sync period.
	var latencies []time.Duration
	for i := range 10 {
		marker := "u" + string(rune('a'+i))
		secret.Data["prometheus.yaml.gz"] = reloadertest.Gzip(t, withRules(marker))
		start := time.Now()
		if err := env.Client.Update(ctx, secret); err != nil {
			t.Fatal(err)
		}
		r := s.await(reloader.ActionReloaded)
		latencies = append(latencies, r.Started.Add(r.ReloadDuration).Sub(start))
		requireMarker(t, p, marker)
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	t.Logf("API update -> confirmed reload over %d updates: median %s, max %s", len(latencies),
		latencies[len(latencies)/2], latencies[len(latencies)-1])
	if code, metrics := s.get("/metrics"); code != 200 || !containsAll(metrics,
		`reloader_api_updates_total{kind="Secret",name="prometheus-k8s",namespace="monitoring"} 10`,
		`reloader_api_updates_total{kind="ConfigMap",name="prometheus-k8s-rulefiles-0",namespace="monitoring"} 1`) {
		t.Fatalf("API metrics missing:\n%s", metrics)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
