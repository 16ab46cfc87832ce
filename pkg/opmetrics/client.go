package opmetrics

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	clientmetrics "k8s.io/client-go/tools/metrics"
	// controller-runtime installs its client-go adapters in its init; this package's init
	// must run after it to pass every observation on to them.
	_ "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// The prometheus_operator_kubernetes_client_* families. client-go reports to one set of
// adapters per process, so the families are process-wide too: every registry given to
// RegisterOperator exposes the same counts.
var (
	clientRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "prometheus_operator_kubernetes_client_http_requests_total",
		Help: "Total number of Kubernetes's client requests by status code.",
	}, []string{"status_code"})
	clientRequestDuration = prometheus.NewSummaryVec(prometheus.SummaryOpts{
		Name:       "prometheus_operator_kubernetes_client_http_request_duration_seconds",
		Help:       "Summary of latencies for the Kubernetes client's requests by endpoint.",
		Objectives: map[float64]float64{},
	}, []string{"endpoint"})
	clientRateLimiterDuration = prometheus.NewSummaryVec(prometheus.SummaryOpts{
		Name:       "prometheus_operator_kubernetes_client_rate_limiter_duration_seconds",
		Help:       "Summary of latencies for the Kuberntes client's rate limiter by endpoint.",
		Objectives: map[float64]float64{},
	}, []string{"endpoint"})
)

// init puts a tee in front of client-go's adapters (controller-runtime's rest_client_*
// keep counting): client-go takes its adapters once, before any client exists, and
// this runs before main.
func init() {
	clientmetrics.RequestResult = resultTee{next: clientmetrics.RequestResult}
	clientmetrics.RequestLatency = latencyTee{next: clientmetrics.RequestLatency, vec: clientRequestDuration}
	clientmetrics.RateLimiterLatency = latencyTee{next: clientmetrics.RateLimiterLatency, vec: clientRateLimiterDuration}
}

// registerClientMetrics registers the process's client families on reg (again on the
// same registry: nothing to do).
func registerClientMetrics(reg prometheus.Registerer) error {
	for _, c := range []prometheus.Collector{clientRequests, clientRequestDuration, clientRateLimiterDuration} {
		if err := reg.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if !errors.As(err, &are) {
				return err
			}
		}
	}
	return nil
}

type resultTee struct{ next clientmetrics.ResultMetric }

func (t resultTee) Increment(ctx context.Context, code, method, host string) {
	clientRequests.WithLabelValues(code).Inc()
	if t.next != nil {
		t.next.Increment(ctx, code, method, host)
	}
}

type latencyTee struct {
	next clientmetrics.LatencyMetric
	vec  *prometheus.SummaryVec
}

func (t latencyTee) Observe(ctx context.Context, verb string, u url.URL, latency time.Duration) {
	t.vec.WithLabelValues(u.EscapedPath()).Observe(latency.Seconds())
	if t.next != nil {
		t.next.Observe(ctx, verb, u, latency)
	}
}
