package opmetrics

import (
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// RequestCounter counts the list and watch requests of the operator's Kubernetes client,
// as prometheus_operator_{list,watch}_operations_total and their _failed_total: every
// informer's list and watch goes through it.
type RequestCounter struct {
	list, listFailed, watch, watchFailed prometheus.Counter
}

// NewRequestCounter creates the counters and registers them on reg (nil: not registered).
func NewRequestCounter(reg prometheus.Registerer) (*RequestCounter, error) {
	r := &RequestCounter{
		list:        prometheus.NewCounter(prometheus.CounterOpts{Name: "prometheus_operator_list_operations_total", Help: "Total number of list operations"}),
		listFailed:  prometheus.NewCounter(prometheus.CounterOpts{Name: "prometheus_operator_list_operations_failed_total", Help: "Total number of list operations that failed"}),
		watch:       prometheus.NewCounter(prometheus.CounterOpts{Name: "prometheus_operator_watch_operations_total", Help: "Total number of watch operations"}),
		watchFailed: prometheus.NewCounter(prometheus.CounterOpts{Name: "prometheus_operator_watch_operations_failed_total", Help: "Total number of watch operations that failed"}),
	}
	if err := promreg.Register(reg, "prometheus_operator request metrics", []prometheus.Collector{r.list, r.listFailed, r.watch, r.watchFailed}...); err != nil {
		return nil, err
	}
	return r, nil
}

// Wrap is a rest.Config WrapTransport: it counts the GETs of collections (lists) and the
// watches that pass through rt, and those that fail (a transport error or a status of
// 400 and above).
func (r *RequestCounter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripper{next: rt, r: r}
}

type roundTripper struct {
	next http.RoundTripper
	r    *RequestCounter
}

func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	total, failed := t.r.classify(req)
	resp, err := t.next.RoundTrip(req)
	if total != nil {
		total.Inc()
		if err != nil || resp.StatusCode >= 400 {
			failed.Inc()
		}
	}
	return resp, err
}

// classify returns the counters of a list or watch request, nil for any other request.
func (r *RequestCounter) classify(req *http.Request) (total, failed prometheus.Counter) {
	if req.Method != http.MethodGet {
		return nil, nil
	}
	q := req.URL.Query()
	if w := q.Get("watch"); w == "true" || w == "1" {
		return r.watch, r.watchFailed
	}
	if isCollection(req.URL.Path) {
		return r.list, r.listFailed
	}
	return nil, nil
}

// isCollection reports whether an API path names a collection: /api/v1/<resource>,
// /api/v1/namespaces/<ns>/<resource>, /apis/<group>/<version>/<resource> and the
// namespaced form (but not /api/v1/namespaces, which is the namespace collection itself,
// handled by the same rule).
func isCollection(path string) bool {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var rest []string
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		rest = parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		rest = parts[3:]
	default:
		return false
	}
	if len(rest) >= 2 && rest[0] == "namespaces" {
		rest = rest[2:]
		if len(rest) == 0 {
			return false // one namespace
		}
	}
	return len(rest) == 1
}
