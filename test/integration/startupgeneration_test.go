package integration

import (
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// TestAfterStartupGeneration: the operator tells when every Prometheus it found at start
// has been reconciled once (cmd/operator then sets the garbage collector for the steady
// state), once, and by then the Prometheus's configuration Secret is written.
func TestAfterStartupGeneration(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "startup", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
	}))
	var calls atomic.Int32
	secretThen := make(chan error, 1)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.AfterStartupGeneration = func() {
			if calls.Add(1) == 1 {
				secretThen <- k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-startup"}, &corev1.Secret{})
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	select {
	case err := <-secretThen:
		if err != nil {
			t.Errorf("the start-up generation was reported over before the config Secret was written: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the start-up generation was not reported over within 60 s")
	}
	time.Sleep(500 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Errorf("reported %d times, want once", n)
	}
}
