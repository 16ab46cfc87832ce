package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// demoApp is one instance of the sample application the demo's EndpointSlice lists: an
// HTTP server on a free loopback port serving /metrics, standing for one endpoint address.
type demoApp struct {
	endpoint string // the address discovery finds, "10.10.0.11:8080"
	local    string // where it is served, "127.0.0.1:41234"
	srv      *http.Server
}

// demoEndpoints are the IPv4 address:port pairs of the demo's EndpointSlices, sorted.
func demoEndpoints(objs []manifest.Object) []string {
	var out []string
	for _, o := range objs {
		if o.GetKind() != "EndpointSlice" {
			continue
		}
		u := o.Unstructured.Object
		ports, _ := u["ports"].([]any)
		eps, _ := u["endpoints"].([]any)
		for _, e := range eps {
			em, _ := e.(map[string]any)
			addrs, _ := em["addresses"].([]any)
			for _, a := range addrs {
				for _, p := range ports {
					pm, _ := p.(map[string]any)
					port, ok := pm["port"].(int64)
					if !ok {
						if f, isFloat := pm["port"].(float64); isFloat {
							port, ok = int64(f), true
						}
					}
					if s, isString := a.(string); isString && ok {
						out = append(out, net.JoinHostPort(s, strconv.FormatInt(port, 10)))
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// startDemoApps serves one sample application per endpoint. The instances differ in
// their queue: the last one has a backlog, which the demo PrometheusRule alerts on.
func startDemoApps(endpoints []string) ([]*demoApp, error) {
	var apps []*demoApp
	for i, ep := range endpoints {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			stopDemoApps(apps)
			return nil, err
		}
		queued := 2.0
		if i == len(endpoints)-1 {
			queued = 37
		}
		a := &demoApp{endpoint: ep, local: l.Addr().String(), srv: &http.Server{Handler: demoHandler(queued), ReadHeaderTimeout: 5 * time.Second}}
		go func() {
			if err := a.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logf("sample app %s: %v", a.local, err)
			}
		}()
		apps = append(apps, a)
	}
	return apps, nil
}

func stopDemoApps(apps []*demoApp) {
	for _, a := range apps {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = a.srv.Shutdown(ctx)
		cancel()
	}
}

// demoHandler serves the metrics of one instance: requests by status code (a little
// simulated traffic, so the demo's recording rule has a rate) and the jobs queued.
func demoHandler(queued float64) http.Handler {
	reg := prometheus.NewRegistry()
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "http_requests_total", Help: "HTTP requests served, by status code.",
	}, []string{"code"})
	queue := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "sample_app_queue_jobs", Help: "Jobs waiting in the sample app's queue.",
	})
	queue.Set(queued)
	reg.MustRegister(requests, queue)
	start := time.Now()
	mux := http.NewServeMux()
	metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	var mu sync.Mutex
	last := start
	mux.Handle("/metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Traffic since the last scrape: about 5 requests a second, 2% of them failing.
		mu.Lock()
		now := time.Now()
		n := int(now.Sub(last).Seconds() * 5)
		last = now
		mu.Unlock()
		for range n {
			if rand.IntN(50) == 0 {
				requests.WithLabelValues("500").Inc()
			} else {
				requests.WithLabelValues("200").Inc()
			}
		}
		metrics.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "Lookout sample app, up %s. Metrics at /metrics.\n", time.Since(start).Round(time.Second))
	})
	return mux
}
