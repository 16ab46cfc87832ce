package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestMissingAdditionalScrapeConfigs: a Prometheus whose additionalScrapeConfigs Secret is
// missing gets Reconciled=False with the reason and a Warning event, and keeps its last good
// config; creating the Secret recovers.
func TestMissingAdditionalScrapeConfigs(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "add"), newServiceMonitor(ns, "app"))
	eventually(t, 20*time.Second, "first config", func() error { return configContains(ns, "add", "serviceMonitor/"+ns+"/app/0") })
	_, good, _ := config(ns, "add")

	p, err := getPrometheus(ns, "add")
	if err != nil {
		t.Fatal(err)
	}
	patch := client.MergeFrom(p.DeepCopy())
	p.Spec.AdditionalScrapeConfigs = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "extra"}, Key: "scrape.yaml"}
	if err := k8s.Patch(ctx, p, patch); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "Reconciled=False", func() error {
		p, err := getPrometheus(ns, "add")
		if err != nil {
			return err
		}
		c := condition(p, monitoringv1.Reconciled)
		if c == nil || c.Status != monitoringv1.ConditionFalse || c.Reason != "InvalidConfiguration" ||
			!strings.Contains(c.Message, "spec.additionalScrapeConfigs: secret "+ns+"/extra: not found") || c.ObservedGeneration != p.Generation {
			return fmt.Errorf("condition %+v", c)
		}
		return nil
	})
	_, now, _ := config(ns, "add")
	if now.ResourceVersion != good.ResourceVersion {
		t.Error("the last good config Secret was replaced while the spec is broken")
	}
	eventually(t, 10*time.Second, "warning event", func() error { return warningEvent(ns, "add", "additionalScrapeConfigs") })

	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "extra"}, StringData: map[string]string{
		"scrape.yaml": "- job_name: extra-static\n  static_configs:\n  - targets: [\"10.0.0.1:9100\"]\n",
	}})
	eventually(t, 20*time.Second, "recovered", func() error {
		p, err := getPrometheus(ns, "add")
		if err != nil {
			return err
		}
		if c := condition(p, monitoringv1.Reconciled); c == nil || c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("condition %+v", c)
		}
		return configContains(ns, "add", "job_name: extra-static")
	})
}

// TestInvalidStatefulSetSpec: a spec that cannot become a valid StatefulSet (an additional
// argument the operator owns) gives Reconciled=False and leaves the StatefulSet as it was.
func TestInvalidStatefulSetSpec(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "args"))
	eventually(t, 20*time.Second, "StatefulSet", func() error { _, err := statefulSet(ns, "prometheus-args"); return err })
	before, _ := statefulSet(ns, "prometheus-args")

	p := newPrometheus(ns, "args")
	update(t, p, func() {
		p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "config.file", Value: "/elsewhere.yaml"}}
	})
	eventually(t, 20*time.Second, "Reconciled=False", func() error {
		p, err := getPrometheus(ns, "args")
		if err != nil {
			return err
		}
		c := condition(p, monitoringv1.Reconciled)
		if c == nil || c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, "config.file") {
			return fmt.Errorf("condition %+v", c)
		}
		return nil
	})
	after, _ := statefulSet(ns, "prometheus-args")
	if after.ResourceVersion != before.ResourceVersion {
		t.Error("StatefulSet changed although the spec is invalid")
	}
}

func warningEvent(ns, name, substr string) error {
	var evs corev1.EventList
	if err := k8s.List(ctx, &evs, client.InNamespace(ns)); err != nil {
		return err
	}
	for _, e := range evs.Items {
		if e.InvolvedObject.Name == name && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, substr) {
			return nil
		}
	}
	return fmt.Errorf("no warning event on %s mentioning %q", name, substr)
}
