package opmetrics

import (
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// queueNames maps the name of a Lookout instance controller (controller-runtime's
// controller label of its work queue) to prometheus-operator's controller label and
// queue name (the lower-case kind) of the same work. prometheus-operator's second queue
// per controller, "<kind>_status", has no counterpart: Lookout writes the status in the
// reconcile.
var queueNames = map[string]struct{ controller, queue string }{
	"prometheus":       {"prometheus", "prometheus"},
	"prometheus-agent": {"prometheus-agent", "prometheusagent"},
	"alertmanager":     {"alertmanager", "alertmanager"},
	"thanos-ruler":     {"thanos", "thanosruler"},
}

// queueFamily is one prometheus_operator_workqueue_* family and the controller-runtime
// family (workqueue_*) it is read from.
type queueFamily struct {
	from string
	desc *prometheus.Desc
	typ  dto.MetricType
}

var queueFamilies = []queueFamily{
	{"workqueue_depth", queueDesc("depth", "Depth of the queue"), dto.MetricType_GAUGE},
	{"workqueue_adds_total", queueDesc("adds_total", "Total number of additions to the queue"), dto.MetricType_COUNTER},
	{"workqueue_queue_duration_seconds", queueDesc("latency_seconds", "Histogram of latency for the queue"), dto.MetricType_HISTOGRAM},
	{"workqueue_work_duration_seconds", queueDesc("work_duration_seconds", "Histogram of work duration for the queue"), dto.MetricType_HISTOGRAM},
	{"workqueue_unfinished_work_seconds", queueDesc("unfinished_work_seconds", "How many seconds has been spent by processing work which is not yet finished. A growing number indicates a stuck thread."), dto.MetricType_GAUGE},
	{"workqueue_longest_running_processor_seconds", queueDesc("longest_running_processor_seconds", "How many seconds has the longest running (unfinished) processor spent."), dto.MetricType_GAUGE},
	{"workqueue_retries_total", queueDesc("retries_total", "Total number of retries"), dto.MetricType_COUNTER},
}

func queueDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc("prometheus_operator_workqueue_"+name, help, []string{"controller", "name"}, nil)
}

// workqueues exposes controller-runtime's work queue families of the instance
// controllers under prometheus-operator's names and labels. The source registry may be
// the one the collector is registered on (in the operator it is): a collection started
// while another runs (the nested one among them) repeats the last result instead of
// gathering again.
type workqueues struct {
	source prometheus.Gatherer

	gathering sync.Mutex
	mu        sync.Mutex
	last      []prometheus.Metric
}

func newWorkqueues(source prometheus.Gatherer) *workqueues { return &workqueues{source: source} }

func (w *workqueues) Describe(ch chan<- *prometheus.Desc) {
	for _, f := range queueFamilies {
		ch <- f.desc
	}
}

func (w *workqueues) Collect(ch chan<- prometheus.Metric) {
	if w.source != nil && w.gathering.TryLock() {
		// A partial result still has the families that could be gathered.
		mfs, _ := w.source.Gather()
		ms := queueMetrics(mfs)
		w.gathering.Unlock()
		w.mu.Lock()
		w.last = ms
		w.mu.Unlock()
	}
	w.mu.Lock()
	ms := w.last
	w.mu.Unlock()
	for _, m := range ms {
		ch <- m
	}
}

// queueMetrics converts the workqueue_* families of mfs, summing the series of one
// queue (the depth is split by priority).
func queueMetrics(mfs []*dto.MetricFamily) []prometheus.Metric {
	byName := map[string]*dto.MetricFamily{}
	for _, mf := range mfs {
		byName[mf.GetName()] = mf
	}
	var out []prometheus.Metric
	for _, f := range queueFamilies {
		mf := byName[f.from]
		if mf == nil || mf.GetType() != f.typ {
			continue
		}
		type sum struct {
			value   float64
			count   uint64
			buckets map[float64]uint64
		}
		sums := map[[2]string]*sum{}
		for _, m := range mf.GetMetric() {
			var ctrl string
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" {
					ctrl = l.GetValue()
				}
			}
			n, ok := queueNames[ctrl]
			if !ok {
				continue
			}
			k := [2]string{n.controller, n.queue}
			s := sums[k]
			if s == nil {
				s = &sum{buckets: map[float64]uint64{}}
				sums[k] = s
			}
			switch f.typ {
			case dto.MetricType_GAUGE:
				s.value += m.GetGauge().GetValue()
			case dto.MetricType_COUNTER:
				s.value += m.GetCounter().GetValue()
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				s.value += h.GetSampleSum()
				s.count += h.GetSampleCount()
				for _, b := range h.GetBucket() {
					s.buckets[b.GetUpperBound()] += b.GetCumulativeCount()
				}
			}
		}
		keys := make([][2]string, 0, len(sums))
		for k := range sums {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i][0] < keys[j][0] })
		for _, k := range keys {
			s := sums[k]
			switch f.typ {
			case dto.MetricType_GAUGE:
				out = append(out, prometheus.MustNewConstMetric(f.desc, prometheus.GaugeValue, s.value, k[0], k[1]))
			case dto.MetricType_COUNTER:
				out = append(out, prometheus.MustNewConstMetric(f.desc, prometheus.CounterValue, s.value, k[0], k[1]))
			case dto.MetricType_HISTOGRAM:
				out = append(out, prometheus.MustNewConstHistogram(f.desc, s.count, s.value, s.buckets, k[0], k[1]))
			}
		}
	}
	return out
}
