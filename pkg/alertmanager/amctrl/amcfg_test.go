package amctrl

import (
	"context"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/opmetrics"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// TestAlertmanagerConfigsGenerated: the default generator (pkg/alertmanager/amcfg) puts a selected,
// valid AlertmanagerConfig into the configuration with its webhook URL read from a
// Secret, leaves an invalid one out with a verdict naming the field, records the Secret
// so that its change reconciles the Alertmanager, and takes spec.alertmanagerConfiguration
// as the base.
func TestAlertmanagerConfigsGenerated(t *testing.T) {
	amc := func(name string, receiver monitoringv1alpha1.Receiver) *monitoringv1alpha1.AlertmanagerConfig {
		return &monitoringv1alpha1.AlertmanagerConfig{
			ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, Labels: map[string]string{"team": "a"}},
			Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
				Route:     &monitoringv1alpha1.Route{Receiver: receiver.Name},
				Receivers: []monitoringv1alpha1.Receiver{receiver},
			},
		}
	}
	good := amc("good", monitoringv1alpha1.Receiver{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
		URLSecret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "hook-url"}, Key: "url"},
	}}})
	bad := amc("bad", monitoringv1alpha1.Receiver{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
		URLSecret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "hook-url"}, Key: "missing"},
	}}})
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "hook-url"}, Data: map[string][]byte{"url": []byte("http://hooks.example.invalid/alerts")}}
	var verdicts []selection.Verdict
	gen := NewGenerated()
	capture := genFunc(func(ctx context.Context, in GenInput) (GenResult, error) {
		res, err := gen.Generate(ctx, in)
		verdicts = res.Verdicts
		return res, err
	})
	f := newFixture(t, Config{}, capture, alertmanager("main", func(a *monitoringv1.Alertmanager) {
		a.Spec.AlertmanagerConfigSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	}), good, bad, secret)
	reg := prometheus.NewRegistry()
	up, err := opmetrics.NewController(reg, "alertmanager")
	if err != nil {
		t.Fatal(err)
	}
	f.r.Upstream = up
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	wantMetrics := `
# HELP prometheus_operator_managed_resources Number of resources managed by the operator's controller per state (selected/rejected)
# TYPE prometheus_operator_managed_resources gauge
prometheus_operator_managed_resources{controller="alertmanager",resource="AlertmanagerConfig",state="rejected"} 1
prometheus_operator_managed_resources{controller="alertmanager",resource="AlertmanagerConfig",state="selected"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(wantMetrics), "prometheus_operator_managed_resources"); err != nil {
		t.Error(err)
	}
	cfg, _ := f.generated("main")
	if !strings.Contains(cfg, "mon/good/hook") || !strings.Contains(cfg, "http://hooks.example.invalid/alerts") {
		t.Errorf("the valid AlertmanagerConfig is not in the configuration:\n%s", cfg)
	}
	if strings.Contains(cfg, "mon/bad/") {
		t.Errorf("the invalid AlertmanagerConfig is in the configuration:\n%s", cfg)
	}
	want := map[string]selection.Reason{"AlertmanagerConfig mon/good": selection.Accepted, "AlertmanagerConfig mon/bad": selection.InvalidConfiguration}
	for _, v := range verdicts {
		if want[v.Key()] != v.Reason {
			t.Errorf("%s: %s %q", v.Key(), v.Reason, v.Message)
		}
		if v.Reason == selection.InvalidConfiguration && !strings.Contains(v.Message, "missing") {
			t.Errorf("the rejection does not name the missing key: %q", v.Message)
		}
	}
	if len(verdicts) != 2 {
		t.Errorf("verdicts %v", verdicts)
	}
	if users := f.r.Refs.Users("Secret", "mon", "hook-url"); len(users) != 1 || users[0] != (types.NamespacedName{Namespace: "mon", Name: "main"}) {
		t.Errorf("the referenced Secret maps to %v", users)
	}
}

// TestGlobalAlertmanagerConfigMissing: spec.alertmanagerConfiguration naming an object that
// does not exist keeps the last configuration and says which.
func TestGlobalAlertmanagerConfigMissing(t *testing.T) {
	f := newFixture(t, Config{}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) {
		a.Spec.AlertmanagerConfiguration = &monitoringv1.AlertmanagerConfiguration{Name: "global"}
	}))
	if err := f.reconcile("main"); err == nil {
		t.Fatal("no error")
	}
	if c := f.condition("main", monitoringv1.Reconciled); c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, "spec.alertmanagerConfiguration.name") {
		t.Errorf("Reconciled %+v", c)
	}
}
