package faults

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/test/testenv"
)

// TestWebhookDownInvalidRuleKeptOut: the shipped validating webhook configuration
// (example/webhook, failurePolicy: Ignore) pointed at the operator's webhook port. While
// the operator serves it an invalid PrometheusRule is refused; with the operator down
// the API server admits it unchecked, and the operator that runs next keeps it out of
// the rule ConfigMaps (which promtool accepts), says so in the rule's status and keeps
// the Prometheus Reconciled.
func TestWebhookDownInvalidRuleKeptOut(t *testing.T) {
	ns := cp.newNamespace(t)
	certDir := t.TempDir()
	port, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	webhookArgs := []string{
		fmt.Sprintf("--webhook-port=%d", port[0]), "--webhook-self-signed",
		"--webhook-cert-dir=" + certDir, "--webhook-dns-names=127.0.0.1,localhost",
	}
	first := startOperator(t, cp, "webhook", "webhook", webhookArgs...)

	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "example", "webhook", "validating-webhook.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var vwc admissionregistrationv1.ValidatingWebhookConfiguration
	if err := yaml.UnmarshalStrict(data, &vwc); err != nil {
		t.Fatal(err)
	}
	ca, err := os.ReadFile(filepath.Join(certDir, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	vwc.Name = "faults-" + ns
	for i := range vwc.Webhooks {
		w := &vwc.Webhooks[i]
		if w.FailurePolicy == nil || *w.FailurePolicy != admissionregistrationv1.Ignore {
			t.Fatalf("the shipped webhook %s does not have failurePolicy: Ignore", w.Name)
		}
		url := fmt.Sprintf("https://127.0.0.1:%d%s", port[0], *w.ClientConfig.Service.Path)
		w.ClientConfig = admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: ca}
		// Only this test's namespace, on the shared control plane.
		w.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: ns}}
	}
	cp.mustCreate(t, &vwc)
	t.Cleanup(func() { _ = cp.c.Delete(ctx, &vwc) })

	bad := func(name string) *monitoringv1.PrometheusRule {
		return newRule(ns, name, "webhook", "sum(rate(http_requests_total[5m])", "vector(1)")
	}
	// The API server reads webhook configurations from its own cache: wait for it.
	poll(t, "webhook up: invalid rule refused", 30*time.Second, []*operator{first}, func() error {
		err := cp.c.Create(ctx, bad("probe"))
		if err == nil {
			_ = cp.c.Delete(ctx, bad("probe"))
			return fmt.Errorf("created: the webhook is not called yet")
		}
		if !strings.Contains(err.Error(), "denied the request") {
			return err
		}
		return nil
	})

	if err := first.stop(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := cp.c.Create(ctx, bad("bad")); err != nil {
		t.Fatalf("webhook down with failurePolicy Ignore: the API server refused the rule: %v", err)
	}
	t.Logf("measured: with the webhook down, the invalid rule was admitted unchecked (the create took %s)", time.Since(t0).Round(time.Millisecond))

	second := startOperator(t, cp, "webhook-next", "webhook")
	ops := []*operator{second}
	cp.mustCreate(t, newPrometheus(ns, "p", "webhook"), newRule(ns, "good", "webhook", "vector(2)"))
	var cm corev1.ConfigMap
	poll(t, "invalid rule rejected in its status, good one accepted", 30*time.Second, ops, func() error {
		for name, want := range map[string]bool{"bad": false, "good": true} {
			var r monitoringv1.PrometheusRule
			if err := cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &r); err != nil {
				return err
			}
			if err := accepted(r.Status.Bindings, ns, "p", want); err != nil {
				return fmt.Errorf("rule %s: %w", name, err)
			}
		}
		return cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus("p").RuleConfigMap(0)}, &cm)
	})
	if c, err := cp.reconciled(ns, "p"); err != nil || c.Status != monitoringv1.ConditionTrue {
		t.Errorf("Reconciled with an invalid rule selected: %+v %v", c, err)
	}

	// What reaches Prometheus: the rule files in the ConfigMaps, checked by promtool.
	dir := t.TempDir()
	var files []string
	for name, content := range cm.Data {
		if strings.Contains(content, "http_requests_total") || strings.Contains(name, "-bad-") {
			t.Errorf("rule file %s holds the invalid rule:\n%s", name, content)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	if len(files) != 1 || !strings.Contains(cm.Data[filepath.Base(files[0])], "vector(2)") {
		t.Fatalf("rule ConfigMap holds %d files, want the good rule's only: %v", len(files), cm.Data)
	}
	assets, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(assets, "promtool"), append([]string{"check", "rules"}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
}

// accepted checks the Accepted condition of the binding to Prometheus ns/name.
func accepted(bindings []monitoringv1.WorkloadBinding, ns, name string, want bool) error {
	for _, b := range bindings {
		if b.Resource != monitoringv1.PrometheusName || b.Namespace != ns || b.Name != name {
			continue
		}
		for _, c := range b.Conditions {
			if c.Type != monitoringv1.Accepted {
				continue
			}
			if (c.Status == monitoringv1.ConditionTrue) != want {
				return fmt.Errorf("Accepted=%s (%s: %s), want %v", c.Status, c.Reason, c.Message, want)
			}
			return nil
		}
	}
	return fmt.Errorf("no Accepted condition for Prometheus %s/%s in %+v", ns, name, bindings)
}
