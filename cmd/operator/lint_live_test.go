package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/costtop"
)

// fakeLintCluster is fakeTopCluster's (Prometheus mon/k8s, whose one target of
// ServiceMonitor shop/api exposes 1,500 samples) with enforcedSampleLimit 1,000, the
// ServiceMonitor and the Service it selects.
func fakeLintCluster(t *testing.T) *topCluster {
	t.Helper()
	top := fakeTopCluster(t, false)
	s := costtop.Scheme()
	utilruntime.Must(monitoringv1alpha1.AddToScheme(s))
	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "k8s"}}
	if err := top.reader.Get(t.Context(), client.ObjectKeyFromObject(p), p); err != nil {
		t.Fatal(err)
	}
	p.ResourceVersion = ""
	p.Spec.EnforcedSampleLimit = ptr.To[int64](1000)
	p.Spec.ServiceMonitorSelector = &metav1.LabelSelector{}
	p.Spec.ServiceMonitorNamespaceSelector = &metav1.LabelSelector{}
	var pods corev1.PodList
	if err := top.reader.List(t.Context(), &pods); err != nil {
		t.Fatal(err)
	}
	pod := &pods.Items[0]
	pod.ResourceVersion = ""
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "api"},
		Spec: monitoringv1.ServiceMonitorSpec{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
			Endpoints: []monitoringv1.Endpoint{{Port: "web"}}}}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "api", Labels: map[string]string{"app": "api"}},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "web", Port: 80}}}}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(p, pod, sm, svc).Build()
	return &topCluster{reader: c, get: top.get}
}

func runLintWith(cluster *topCluster, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := runLintCmd(args, &out, &errb, cluster)
	return out.String(), errb.String(), code
}

// TestLintLive: lint --live reads the fake cluster: its monitor's busiest target is
// over the enforced limit (exit 1); switched off, the cluster is clean; a file's
// monitor with a typo in its selector is judged against the cluster's Service.
func TestLintLive(t *testing.T) {
	out, errs, code := runLintWith(fakeLintCluster(t), "--live")
	if code != 1 || !strings.Contains(out, "error [monitor-sample-limit-exceeded] ServiceMonitor shop/api: in Prometheus mon/k8s the busiest of its 1 target exposes 1,500 samples") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	out, errs, code = runLintWith(fakeLintCluster(t), "--live", "--disable", "monitor-sample-limit-exceeded")
	if code != 0 || !strings.Contains(out, "0 errors, 0 warnings") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	file := filepath.Join(t.TempDir(), "pr.yaml")
	if err := os.WriteFile(file, []byte(`apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: apii}}
  endpoints: [{port: web}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runLintWith(fakeLintCluster(t), "--live", file, "-o", "json")
	if code != 0 || !strings.Contains(out, `"check": "monitor-selector-no-match"`) || !strings.Contains(out, `"clusterOnly": 1`) || strings.Contains(out, "shop/api") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if _, errs, code := runLintWith(nil, "--live", "--kubeconfig", filepath.Join(t.TempDir(), "none")); code != 2 || !strings.Contains(errs, "error:") {
		t.Errorf("no cluster: exit %d, %s", code, errs)
	}
}
