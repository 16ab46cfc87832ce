package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// targetsPerMonitor is how many targets the fake Prometheus API reports per monitor.
const targetsPerMonitor = 2

// startFakePrometheusAPI serves, on loopback, Prometheus's /api/v1/targets?state=active
// and /api/v1/scrape_pools for the scenario's ServiceMonitors (targetsPerMonitor targets
// each, all up, with discovered labels as Prometheus reports them), and creates a ready
// Pod object of the benchmark Prometheus's shard 0 at that address: an operator polling
// target health (ADR 18) reads a realistic answer, so the idle write count covers it.
// The answer is generated once; stop closes the server.
func startFakePrometheusAPI(ctx context.Context, cl *cluster, s scenario) (stop func(), size int, err error) {
	var targets, pools bytes.Buffer
	targets.WriteString(`{"status":"success","data":{"activeTargets":[`)
	pools.WriteString(`{"status":"success","data":{"scrapePools":[`)
	for i := 0; i < s.items; i++ {
		job, ns, name := s.job(i), s.namespace(i), monitorName(i)
		if i > 0 {
			pools.WriteByte(',')
		}
		pools.WriteString(strconv.Quote(job))
		for t := 0; t < targetsPerMonitor; t++ {
			if i+t > 0 {
				targets.WriteByte(',')
			}
			addr := fmt.Sprintf("10.%d.%d.%d:8080", i/256%256, i%256, t)
			fmt.Fprintf(&targets, `{"discoveredLabels":{"__address__":%[1]q,"__meta_kubernetes_namespace":%[2]q,"__meta_kubernetes_service_name":%[3]q,`+
				`"__meta_kubernetes_endpointslice_port_name":"web","__scheme__":"http","__metrics_path__":"/metrics","job":%[4]q},`+
				`"labels":{"endpoint":"web","instance":%[1]q,"job":%[3]q,"namespace":%[2]q,"service":%[3]q},`+
				`"scrapePool":%[4]q,"scrapeUrl":"http://%[1]s/metrics","globalUrl":"http://%[1]s/metrics","lastError":"",`+
				`"lastScrape":"2026-12-02T21:00:00.123456789Z","lastScrapeDuration":0.00123,"health":"up","scrapeInterval":"30s","scrapeTimeout":"10s"}`,
				addr, ns, name, job)
		}
	}
	targets.WriteString(`],"droppedTargets":[],"droppedTargetCounts":{}}}`)
	pools.WriteString(`]}}`)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, 0, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/targets", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(targets.Bytes()) })
	mux.HandleFunc("/api/v1/scrape_pools", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(pools.Bytes()) })
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(l) }()

	p := promserver.Of(&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: promName, Namespace: promNamespace}})
	sel, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(p))
	if err != nil {
		srv.Close()
		return nil, 0, err
	}
	podLabels := map[string]string(sel)
	podLabels[layout.ShardLabel] = "0"
	port := l.Addr().(*net.TCPAddr).Port
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: promNamespace, Name: "prometheus-" + promName + "-0", Labels: podLabels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus",
			Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: int32(port)}}}}},
	}
	if err := cl.c.Create(ctx, pod); err != nil {
		srv.Close()
		return nil, 0, fmt.Errorf("creating the Prometheus pod: %w", err)
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "127.0.0.1", PodIPs: []corev1.PodIP{{IP: "127.0.0.1"}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}}
	if err := cl.c.Status().Update(ctx, pod); err != nil {
		srv.Close()
		return nil, 0, fmt.Errorf("setting the Prometheus pod's status: %w", err)
	}
	return func() { srv.Close() }, targets.Len(), nil
}
