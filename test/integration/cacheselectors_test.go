package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// TestSecretAndConfigMapSelectors: with --secret-label-selector and
// --configmap-label-selector matching nothing the operator creates, the generated config
// Secret and rule ConfigMaps are still written once (and not again), and a monitor's
// credentials Secret outside the selection still reaches the config, as with
// prometheus-operator.
func TestSecretAndConfigMapSelectors(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	reg := prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.Registry = reg
		o.SecretLabelSelector = labels.SelectorFromSet(labels.Set{"cached": "yes"})
		o.ConfigMapLabelSelector = labels.SelectorFromSet(labels.Set{"cached": "yes"})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	create(t,
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "creds"}, StringData: map[string]string{"user": "alice", "password": "s3cret"}},
		newServiceMonitor(ns, "app", func(s *monitoringv1.ServiceMonitor) {
			s.Spec.Endpoints[0].BasicAuth = &monitoringv1.BasicAuth{
				Username: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "user"},
				Password: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "password"},
			}
		}),
		newPrometheus(ns, "narrow", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{dedicatedLabel: ns} }),
	)
	eventually(t, 20*time.Second, "config with the credentials of a Secret outside the cache", func() error {
		cfg, _, err := config(ns, "narrow")
		if err != nil {
			return err
		}
		if !strings.Contains(cfg, "username: alice") {
			return fmt.Errorf("config has no basic auth:\n%s", cfg)
		}
		p, err := getPrometheus(ns, "narrow")
		if err != nil {
			return err
		}
		if c := condition(p, monitoringv1.Reconciled); c == nil || c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled %+v", c)
		}
		return nil
	})
	// Reconciles find the generated objects through the API server and write nothing.
	time.Sleep(time.Second)
	before := writeCountsOf(reg)
	if before["Secret/create"] == 0 {
		t.Fatalf("no Secret created: %v", before)
	}
	update(t, &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}}, func() {})
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}}
	update(t, sm, func() { sm.Spec.Endpoints[0].Interval = "31s" })
	eventually(t, 20*time.Second, "the changed interval", func() error {
		cfg, _, err := config(ns, "narrow")
		if err != nil {
			return err
		}
		if !strings.Contains(cfg, "scrape_interval: 31s") {
			return fmt.Errorf("interval not in the config yet")
		}
		return nil
	})
	time.Sleep(time.Second)
	after := writeCountsOf(reg)
	if after["Secret/create"] != before["Secret/create"] || after["ConfigMap/create"] != before["ConfigMap/create"] {
		t.Fatalf("objects outside the cache created again: before %v, after %v", before, after)
	}
	if d := after["Secret/update"] - before["Secret/update"]; d != 1 {
		t.Fatalf("%v config Secret updates for one monitor change, want 1: before %v, after %v", d, before, after)
	}
}
