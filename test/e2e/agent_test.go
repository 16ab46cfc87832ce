//go:build e2e

package e2e

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// TestPrometheusAgent: a PrometheusAgent's pod runs the real Prometheus in agent mode; it
// scrapes the sample app through a ServiceMonitor and remote-writes every sample to a
// Prometheus (also the operator's) started with the remote-write receiver. The test
// queries the series there, with the agent's external labels on them.
func TestPrometheusAgent(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ips := allocateIPs(2)
	app := startSampleApp(t, sc.ns, "sample", ips)

	// The receiver selects no monitor: every sample it holds came by remote write.
	mustCreate(t, sc.prometheus(sc.ns, "receiver", func(p *monitoringv1.Prometheus) {
		nothing := &metav1.LabelSelector{MatchLabels: map[string]string{"selects": "nothing"}}
		p.Spec.ServiceMonitorSelector, p.Spec.PodMonitorSelector, p.Spec.RuleSelector = nothing, nothing, nothing
		p.Spec.EnableRemoteWriteReceiver = true
	}))
	receiver := sc.runPods(sc.ns, statefulSetName("receiver", 0))[0]
	write := receiver.url("web") + "/api/v1/write"

	sel := &metav1.LabelSelector{MatchLabels: sc.labels()}
	mustCreate(t,
		&monitoringv1alpha1.PrometheusAgent{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "edge"},
			Spec: monitoringv1alpha1.PrometheusAgentSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
				ServiceAccountName:     prometheusSA,
				ServiceMonitorSelector: sel,
				ScrapeInterval:         "1s",
				ServiceDiscoveryRole:   ptr.To(monitoringv1.EndpointSliceRole),
				ExternalLabels:         map[string]string{"site": "edge-1"},
				RemoteWrite:            []monitoringv1.RemoteWriteSpec{{URL: monitoringv1.URL(write), QueueConfig: &monitoringv1.QueueConfig{BatchSendDeadline: ptr.To(monitoringv1.Duration("1s"))}}},
			}},
		},
		&monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
				Endpoints: []monitoringv1.Endpoint{{Port: samplePortName, Interval: "1s"}},
			},
		},
	)
	agent := sc.runPods(sc.ns, "prom-agent-edge")[0]

	pool := fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns)
	var want []string
	for _, ip := range ips {
		want = append(want, net.JoinHostPort(ip, fmt.Sprint(samplePort)))
	}
	slices.Sort(want)
	sc.step("the agent scrapes both sample instances", 60*time.Second, func() error {
		return scrapesExactly(promAPI{base: agent.url("web")}, pool, want)
	})
	query := fmt.Sprintf(`e2e_sample_scrapes_total{job="sample", namespace=%q, prometheus=%q, prometheus_replica="prom-agent-edge-0", site="edge-1"}`, sc.ns, sc.ns+"/edge")
	sc.step("the receiver holds the agent's samples of both instances", 60*time.Second, func() error {
		got, err := promAPI{base: receiver.url("web")}.query(query)
		if err != nil {
			return err
		}
		var instances []string
		for _, s := range got {
			instances = append(instances, s.Metric["instance"])
		}
		if len(instances) != len(want) {
			return fmt.Errorf("%s: %d series (%s), want one per instance %v", query, len(got), strings.Join(instances, ", "), want)
		}
		return nil
	})
	cfg, err := promAPI{base: agent.url("web")}.config()
	if err != nil {
		t.Fatal(err)
	}
	for _, unwanted := range []string{"rule_files", "alerting:"} {
		if strings.Contains(cfg, unwanted) {
			t.Errorf("the agent runs a config with %q:\n%s", unwanted, cfg)
		}
	}
}
