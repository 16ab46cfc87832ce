package integration

import (
	"context"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/explain"
)

// TestExplainLiveProbe: a Probe whose targets are Ingresses is explained against the
// control plane: its discovery lists Ingresses through explain's gate (networking.k8s.io),
// the labelled Ingress is the kept target, the other one is dropped by the relabeling
// that carries the Probe's selector.
func TestExplainLiveProbe(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "k8s", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: "true"} // the shared operator leaves it alone
		p.Spec.ServiceMonitorSelector = nil
		p.Spec.ProbeSelector = &metav1.LabelSelector{}
	}))
	ingress := func(name string, labels map[string]string) *networkingv1.Ingress {
		return &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
			Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{Host: name + ".example.com",
				IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: []networkingv1.HTTPIngressPath{{
					Path: "/", PathType: ptr.To(networkingv1.PathTypePrefix),
					Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: name, Port: networkingv1.ServiceBackendPort{Number: 80}}}}}}}}}}}
	}
	create(t, ingress("shop", map[string]string{"probe": "yes"}), ingress("internal", nil),
		&monitoringv1.Probe{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}, Spec: monitoringv1.ProbeSpec{
			ProberSpec: monitoringv1.ProberSpec{URL: "blackbox:9115"},
			Targets:    monitoringv1.ProbeTargets{Ingress: &monitoringv1.ProbeTargetIngress{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"probe": "yes"}}}}}})

	subject := explain.Subject{Kind: explain.KindProbe, Namespace: ns, Name: "web"}
	opts := explain.Options{Prometheus: ns + "/k8s", Timeout: 20 * time.Second}
	in, err := explain.Live(context.Background(), env.Config, subject, opts)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Explain(context.Background(), in, subject, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || len(rep.Instances) != 1 || len(rep.Instances[0].Monitors) != 1 {
		t.Fatalf("report %+v", rep)
	}
	ep := rep.Instances[0].Monitors[0].Endpoints[0]
	if ep.Error != "" || ep.Kept != 1 || len(ep.Targets) != 2 || ep.Targets[0].Labels["instance"] != "http://shop.example.com/" ||
		ep.Targets[1].Address != "internal.example.com" || ep.Targets[1].Drop == nil {
		t.Fatalf("endpoint %+v: want the labelled Ingress's URL kept, the other dropped by a rule", ep)
	}
}
