//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	corev1 "k8s.io/api/core/v1"
)

// The sample app: small instrumented HTTP servers in the suite's process, each on its own
// address in the pod network (a Pod object each, one headless Service in front).
const (
	samplePort     = 8080
	samplePortName = "http"
)

type sampleApp struct {
	name      string
	instances []*sampleInstance
}

type sampleInstance struct {
	pod, ip string
	// gauge is e2e_sample_gauge, set by scenarios to make alerts fire.
	gauge prometheus.Gauge
}

func (i *sampleInstance) address() string { return net.JoinHostPort(i.ip, fmt.Sprint(samplePort)) }

// startSampleApp starts one instance per address (new addresses when ips is nil and n
// given) and creates their Pods and the Service.
func startSampleApp(t *testing.T, ns, name string, ips []string) *sampleApp {
	t.Helper()
	ctx := context.Background()
	app := &sampleApp{name: name}
	labels := map[string]string{"app": name}
	var eps []endpoint
	for n, ip := range ips {
		in := &sampleInstance{pod: fmt.Sprintf("%s-%d", name, n), ip: ip}
		reg := prometheus.NewRegistry()
		in.gauge = prometheus.NewGauge(prometheus.GaugeOpts{Name: "e2e_sample_gauge", Help: "A value the suite sets."})
		scrapes := prometheus.NewCounter(prometheus.CounterOpts{Name: "e2e_sample_scrapes_total", Help: "Scrapes of this instance."})
		reg.MustRegister(in.gauge, scrapes)
		if err := addHostAddress(ip); err != nil {
			t.Fatal(err)
		}
		l, err := net.Listen("tcp", in.address())
		if err != nil {
			t.Fatal(err)
		}
		metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
		mux := http.NewServeMux()
		mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
			scrapes.Inc()
			metrics.ServeHTTP(w, r)
		})
		srv := &http.Server{Handler: mux}
		go func() { _ = srv.Serve(l) }()
		t.Cleanup(func() { srv.Close() })
		ports := []corev1.ContainerPort{{Name: samplePortName, ContainerPort: samplePort, Protocol: corev1.ProtocolTCP}}
		if err := createRunningPod(ctx, ns, in.pod, ip, labels, "app", ports); err != nil {
			t.Fatal(err)
		}
		app.instances = append(app.instances, in)
		eps = append(eps, endpoint{ip: ip, pod: in.pod})
	}
	if err := createService(ctx, ns, name, labels, samplePortName, samplePort, eps); err != nil {
		t.Fatal(err)
	}
	return app
}

// allocateIPs takes n pod addresses.
func allocateIPs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s.ips.allocate()
	}
	return out
}
