package opmetrics

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var (
	specReplicasDesc = prometheus.NewDesc("prometheus_operator_spec_replicas",
		"Number of expected replicas for the object.", []string{"namespace", "name"}, nil)
	specShardsDesc = prometheus.NewDesc("prometheus_operator_spec_shards",
		"Number of expected shards for the object.", []string{"namespace", "name"}, nil)
	enforcedSampleLimitDesc = prometheus.NewDesc("prometheus_operator_prometheus_enforced_sample_limit",
		"Global limit on the number of scraped samples per scrape target.", []string{"namespace", "name"}, nil)
)

func describeSpecs(ch chan<- *prometheus.Desc) {
	ch <- specReplicasDesc
	ch <- specShardsDesc
	ch <- enforcedSampleLimitDesc
}

// spec is what one object's spec asks for, as prometheus-operator reports it: replicas
// for every kind; shards and the enforced sample limit (when set) for Prometheus and
// PrometheusAgent.
type spec struct {
	namespace, name string
	replicas        int32
	shards          *int32
	sampleLimit     *int64
}

func (s spec) collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(specReplicasDesc, prometheus.GaugeValue, float64(s.replicas), s.namespace, s.name)
	if s.sampleLimit != nil {
		ch <- prometheus.MustNewConstMetric(enforcedSampleLimitDesc, prometheus.GaugeValue, float64(*s.sampleLimit), s.namespace, s.name)
	}
	if s.shards != nil {
		ch <- prometheus.MustNewConstMetric(specShardsDesc, prometheus.GaugeValue, float64(*s.shards), s.namespace, s.name)
	}
}

// ObserveSpec records what obj (a Prometheus, PrometheusAgent, Alertmanager or
// ThanosRuler, under key namespace/name) asks for, until Forget. Replicas default to 1
// (a negative count of a Prometheus or agent counts as 1, as prometheus-operator
// normalises it), shards to 1.
func (c *Controller) ObserveSpec(key string, obj client.Object) {
	if c == nil {
		return
	}
	s := spec{namespace: obj.GetNamespace(), name: obj.GetName()}
	switch o := obj.(type) {
	case *monitoringv1.Prometheus, *monitoringv1alpha1.PrometheusAgent:
		cpf := o.(monitoringv1.PrometheusInterface).GetCommonPrometheusFields()
		if s.replicas = ptr.Deref(cpf.Replicas, 1); s.replicas < 0 {
			s.replicas = 1
		}
		s.shards = ptr.To(ptr.Deref(cpf.Shards, 1))
		s.sampleLimit = cpf.EnforcedSampleLimit
	case *monitoringv1.Alertmanager:
		s.replicas = ptr.Deref(o.Spec.Replicas, 1)
	case *monitoringv1.ThanosRuler:
		s.replicas = ptr.Deref(o.Spec.Replicas, 1)
	default:
		return
	}
	c.mu.Lock()
	c.specs[key] = s
	c.mu.Unlock()
}
