package integration

import (
	"fmt"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// TestUpstreamStatusCleanupFinalizer: a Prometheus and an Alertmanager taken over from
// prometheus-operator carry its monitoring.coreos.com/status-cleanup finalizer; deleted,
// they go (the finalizer released after their bindings are removed) instead of staying
// Terminating (issue 33).
func TestUpstreamStatusCleanupFinalizer(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "migrated", func(p *monitoringv1.Prometheus) {
		p.Finalizers = []string{instance.StatusCleanupFinalizer}
	})
	sm := newServiceMonitor(ns, "app")
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "migrated", Finalizers: []string{instance.StatusCleanupFinalizer}}}
	create(t, p, sm, am)
	eventually(t, 30*time.Second, "the ServiceMonitor bound", func() error {
		return bindingFor(ns, "app", "migrated", monitoringv1.ConditionTrue, "Accepted", "")
	})
	for _, o := range []client.Object{p, am} {
		if err := k8s.Delete(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []client.Object{&monitoringv1.Prometheus{}, &monitoringv1.Alertmanager{}} {
		eventually(t, 30*time.Second, fmt.Sprintf("the %T gone", o), func() error {
			err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "migrated"}, o)
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("still there (finalizers %v): %v", o.GetFinalizers(), err)
		})
	}
	eventually(t, 30*time.Second, "the binding removed", func() error {
		live := &monitoringv1.ServiceMonitor{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "app"}, live); err != nil {
			return err
		}
		for _, b := range live.Status.Bindings {
			if b.Name == "migrated" {
				return fmt.Errorf("binding %+v left", b)
			}
		}
		return nil
	})
}
