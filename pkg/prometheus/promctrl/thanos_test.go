package promctrl

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

func withThanos(p *monitoringv1.Prometheus) { p.Spec.Thanos = &monitoringv1.ThanosSpec{} }

// TestThanosSidecar: a Prometheus with spec.thanos gets the thanos-sidecar container, the
// grpc port on prometheus-operated and the HTTP client file Secret, owned by it; a resync
// writes nothing; removing spec.thanos removes all three.
func TestThanosSidecar(t *testing.T) {
	f := newFixture(t, Config{}, prom("p", withThanos))
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if c := f.condition("p"); c.Status != monitoringv1.ConditionTrue {
		t.Fatalf("condition %+v", c)
	}
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prometheus-p")
	var names []string
	for _, c := range ss.Spec.Template.Spec.Containers {
		names = append(names, c.Name)
	}
	if want := []string{"prometheus", "config-reloader", "thanos-sidecar"}; !slices.Equal(names, want) {
		t.Fatalf("containers %v, want %v", names, want)
	}
	svc := &corev1.Service{}
	f.get(svc, "mon", layout.GoverningServiceName)
	if !hasPort(svc, "grpc", 10901) {
		t.Fatalf("prometheus-operated ports %+v lack grpc 10901", svc.Spec.Ports)
	}
	sec := &corev1.Secret{}
	f.get(sec, "mon", "prometheus-p-thanos-prometheus-http-client-file")
	if got := string(sec.Data["prometheus.http-client-file.yaml"]); got != "tls_config:\n  insecure_skip_verify: true\n" {
		t.Errorf("HTTP client file %q", got)
	}
	if len(sec.OwnerReferences) != 1 || sec.OwnerReferences[0].UID != "uid-p" {
		t.Errorf("Secret owners %+v", sec.OwnerReferences)
	}

	before := f.totalWrites()
	for range 2 {
		if err := f.reconcile("mon", "p"); err != nil {
			t.Fatal(err)
		}
	}
	if after := f.totalWrites(); after != before {
		t.Fatalf("%v writes with nothing changed", after-before)
	}

	p := &monitoringv1.Prometheus{}
	f.get(p, "mon", "p")
	p.Spec.Thanos = nil
	if err := f.c.Update(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	f.get(ss, "mon", "prometheus-p")
	if n := len(ss.Spec.Template.Spec.Containers); n != 2 {
		t.Errorf("%d containers after spec.thanos was removed", n)
	}
	f.get(svc, "mon", layout.GoverningServiceName)
	if hasPort(svc, "grpc", 10901) {
		t.Errorf("prometheus-operated keeps grpc after spec.thanos was removed: %+v", svc.Spec.Ports)
	}
	// Kept, as prometheus-operator keeps it for every Prometheus.
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: promplan.ThanosHTTPClientSecretName(promserver.Of(p))}, &corev1.Secret{}); err != nil {
		t.Errorf("the HTTP client file Secret is gone: %v", err)
	}
}

// TestThanosGRPCPortSharedService: the governing Service keeps the grpc port while any
// Prometheus of the namespace sharing it has spec.thanos, whichever is reconciled last.
func TestThanosGRPCPortSharedService(t *testing.T) {
	f := newFixture(t, Config{}, prom("a", withThanos), prom("b"))
	for _, n := range []string{"a", "b"} {
		if err := f.reconcile("mon", n); err != nil {
			t.Fatal(err)
		}
	}
	svc := &corev1.Service{}
	f.get(svc, "mon", layout.GoverningServiceName)
	if !hasPort(svc, "grpc", 10901) {
		t.Fatalf("ports %+v", svc.Spec.Ports)
	}
	before := f.totalWrites()
	for _, n := range []string{"a", "b", "a"} {
		if err := f.reconcile("mon", n); err != nil {
			t.Fatal(err)
		}
	}
	if after := f.totalWrites(); after != before {
		t.Fatalf("%v writes: the Prometheus objects rewrite the shared Service in turn", after-before)
	}
}

// TestThanosInvalidConfiguration: bad spec.thanos input is InvalidConfiguration naming
// the field, and the HTTP client Secret of a user (not owned) is never deleted.
func TestThanosInvalidConfiguration(t *testing.T) {
	f := newFixture(t, Config{}, prom("p", func(p *monitoringv1.Prometheus) {
		p.Spec.Thanos = &monitoringv1.ThanosSpec{AdditionalArgs: []monitoringv1.Argument{{Name: "prometheus.url", Value: "http://x"}}}
	}))
	if err := f.reconcile("mon", "p"); err == nil {
		t.Fatal("reconciled")
	}
	want := "spec.thanos.additionalArgs[0]: --prometheus.url is set by the operator"
	if c := f.condition("p"); c.Reason != ReasonInvalidConfiguration || !strings.Contains(c.Message, want) {
		t.Errorf("condition %s %q, want …%s…", c.Reason, c.Message, want)
	}

	user := &corev1.Secret{}
	user.Namespace, user.Name = "mon", "prometheus-q-thanos-prometheus-http-client-file"
	g := newFixture(t, Config{}, prom("q"), user)
	if err := g.reconcile("mon", "q"); err != nil {
		t.Fatal(err)
	}
	if err := g.c.Get(context.Background(), client.ObjectKeyFromObject(user), &corev1.Secret{}); err != nil {
		t.Errorf("a Secret the Prometheus does not own was touched: %v", err)
	}
}

func hasPort(svc *corev1.Service, name string, port int32) bool {
	for _, p := range svc.Spec.Ports {
		if p.Name == name && p.Port == port {
			return true
		}
	}
	return false
}
