package integration

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

var ctx = context.Background()

func newPrometheus(ns, name string, mut ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	p := &monitoringv1.Prometheus{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			PodMonitorSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
		}, RuleSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}},
	}
	for _, m := range mut {
		m(p)
	}
	return p
}

func newServiceMonitor(ns, name string, mut ...func(*monitoringv1.ServiceMonitor)) *monitoringv1.ServiceMonitor {
	s := &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Endpoints: []monitoringv1.Endpoint{{Port: "web"}},
		},
	}
	for _, m := range mut {
		m(s)
	}
	return s
}

func create(t *testing.T, objs ...interface {
	GetNamespace() string
	GetName() string
}) {
	t.Helper()
	for _, o := range objs {
		if err := k8s.Create(ctx, o.(client.Object)); err != nil {
			t.Fatalf("creating %T %s/%s: %v", o, o.GetNamespace(), o.GetName(), err)
		}
	}
}

// config reads and decompresses the generated config of a Prometheus.
func config(ns, name string) (string, *corev1.Secret, error) {
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus(name).ConfigSecret()}, sec); err != nil {
		return "", nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.ConfigCompressedKey]))
	if err != nil {
		return "", sec, err
	}
	b, err := io.ReadAll(r)
	return string(b), sec, err
}

func getPrometheus(ns, name string) (*monitoringv1.Prometheus, error) {
	p := &monitoringv1.Prometheus{}
	return p, k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, p)
}

func condition(p *monitoringv1.Prometheus, typ monitoringv1.ConditionType) *monitoringv1.Condition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == typ {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func statefulSet(ns, name string) (*appsv1.StatefulSet, error) {
	s := &appsv1.StatefulSet{}
	return s, k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, s)
}

func hasOwner(o metav1.Object, p *monitoringv1.Prometheus) error {
	for _, r := range o.GetOwnerReferences() {
		if r.UID == p.UID && r.Kind == "Prometheus" {
			return nil
		}
	}
	return fmt.Errorf("%s has no owner reference to Prometheus %s", o.GetName(), p.Name)
}

// update reads obj (its namespace and name must be set), applies mutate and writes it back,
// retrying when the operator wrote the object (its status) in between.
func update(t *testing.T, obj client.Object, mutate func()) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		mutate()
		return k8s.Update(ctx, obj)
	})
	if err != nil {
		t.Fatalf("updating %T %s/%s: %v", obj, obj.GetNamespace(), obj.GetName(), err)
	}
}
