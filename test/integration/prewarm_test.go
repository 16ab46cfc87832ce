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

// TestPrewarmAtStart: an operator started over existing monitors renders the selected
// ones while their list arrives (ADR 41) and its first configuration is made of them: the
// selected and valid monitors and the invalid one are prewarmed, the ones another
// selector picks and the ones reading a Secret are not, and the configuration holds the
// jobs of every selected valid monitor.
func TestPrewarmAtStart(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "warm", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
	}))
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "auth"}, StringData: map[string]string{"user": "u", "password": "p"}})
	const plain, others, withSecret = 40, 5, 3
	for i := range plain {
		create(t, newServiceMonitor(ns, fmt.Sprintf("plain-%02d", i)))
	}
	for i := range others {
		create(t, newServiceMonitor(ns, fmt.Sprintf("other-%d", i), func(s *monitoringv1.ServiceMonitor) { s.Labels["team"] = "b" }))
	}
	for i := range withSecret {
		create(t, newServiceMonitor(ns, fmt.Sprintf("auth-%d", i), func(s *monitoringv1.ServiceMonitor) {
			s.Spec.Endpoints[0].BasicAuth = &monitoringv1.BasicAuth{
				Username: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "auth"}, Key: "user"},
				Password: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "auth"}, Key: "password"},
			}
		}))
	}
	create(t, newServiceMonitor(ns, "invalid", func(s *monitoringv1.ServiceMonitor) {
		s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{SourceLabels: []monitoringv1.LabelName{"__address__"}, Regex: "(", TargetLabel: "x"}}
	}))
	reg := prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) { o.Registry = reg })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	eventually(t, 60*time.Second, "the configuration with every selected valid monitor", func() error {
		cfg, _, err := config(ns, "warm")
		if err != nil {
			return err
		}
		jobs := strings.Count(cfg, "job_name: serviceMonitor/"+ns+"/")
		if jobs != plain+withSecret || strings.Contains(cfg, "/invalid/") || strings.Contains(cfg, "/other-") {
			return fmt.Errorf("%d jobs, want %d (and none of invalid or other-*)", jobs, plain+withSecret)
		}
		return nil
	})
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := -1.0
	for _, mf := range mfs {
		if mf.GetName() != "lookout_prometheus_prewarmed_monitors_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			l := map[string]string{}
			for _, p := range m.GetLabel() {
				l[p.GetName()] = p.GetValue()
			}
			if l["namespace"] == ns && l["name"] == "warm" {
				got = m.GetCounter().GetValue()
			}
		}
	}
	if want := float64(plain + 1); got != want {
		t.Errorf("lookout_prometheus_prewarmed_monitors_total = %v, want %v (the plain monitors and the invalid one)", got, want)
	}
}
