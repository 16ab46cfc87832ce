package promserver

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Server is one Prometheus or PrometheusAgent. Its fields point into the object it was
// made from (Of): it is a read-only view, like the object a cache hands out.
type Server struct {
	// ObjectMeta is the object's metadata.
	*metav1.ObjectMeta
	// Spec is what both kinds have (upstream's CommonPrometheusFields).
	Spec *monitoringv1.CommonPrometheusFields
	// Status is the object's status (both kinds share the type).
	Status *monitoringv1.PrometheusStatus
	// Prometheus is the object when it is a Prometheus, nil for an agent. The fields only
	// a Prometheus has (rules, alerting, Thanos, retention, remote read) are read here.
	Prometheus *monitoringv1.Prometheus
	// Agent is the object when it is a PrometheusAgent, nil for a Prometheus.
	Agent *monitoringv1alpha1.PrometheusAgent
}

// Of returns the Server of a Prometheus or a PrometheusAgent (nil for any other
// implementation of the interface).
func Of(o monitoringv1.PrometheusInterface) *Server {
	switch o := o.(type) {
	case *monitoringv1.Prometheus:
		return &Server{ObjectMeta: &o.ObjectMeta, Spec: &o.Spec.CommonPrometheusFields, Status: &o.Status, Prometheus: o}
	case *monitoringv1alpha1.PrometheusAgent:
		return &Server{ObjectMeta: &o.ObjectMeta, Spec: &o.Spec.CommonPrometheusFields, Status: &o.Status, Agent: o}
	}
	return nil
}

var _ client.Object = (*Server)(nil)

// Object is the object s was made from.
func (s *Server) Object() client.Object {
	if s.Agent != nil {
		return s.Agent
	}
	return s.Prometheus
}

// Interface is the object s was made from, as upstream's abstraction of both kinds.
func (s *Server) Interface() monitoringv1.PrometheusInterface {
	if s.Agent != nil {
		return s.Agent
	}
	return s.Prometheus
}

// DeepCopy returns a Server over a deep copy of the object, for callers that change it.
func (s *Server) DeepCopy() *Server {
	if s.Agent != nil {
		return Of(s.Agent.DeepCopy())
	}
	return Of(s.Prometheus.DeepCopy())
}

// GetObjectKind is the object's (client.Object: a Server is handed to the instance
// lifecycle like the object itself).
func (s *Server) GetObjectKind() schema.ObjectKind { return s.Interface() }

// DeepCopyObject is DeepCopy, for client.Object.
func (s *Server) DeepCopyObject() runtime.Object { return s.DeepCopy() }

// IsAgent reports whether s is a PrometheusAgent.
func (s *Server) IsAgent() bool { return s.Agent != nil }

// DaemonSetMode reports whether s is a PrometheusAgent with spec.mode DaemonSet: one
// agent per node, scraping the pods of its node.
func (s *Server) DaemonSetMode() bool {
	return s.Agent != nil && ptr.Deref(s.Agent.Spec.Mode, "") == monitoringv1alpha1.DaemonSetPrometheusAgentMode
}

// Kind is the object's kind: Prometheus or PrometheusAgent.
func (s *Server) Kind() string {
	if s.Agent != nil {
		return monitoringv1alpha1.PrometheusAgentsKind
	}
	return monitoringv1.PrometheusesKind
}

// APIVersion is the object's API version.
func (s *Server) APIVersion() string {
	if s.Agent != nil {
		return monitoringv1alpha1.SchemeGroupVersion.String()
	}
	return monitoringv1.SchemeGroupVersion.String()
}

// PrometheusOnly is the spec of a Prometheus, read for the fields only a Prometheus has
// (rules, alerting, Thanos, retention, remote read, query). For an agent it is a new empty
// spec each time, so that no write through it reaches another reader: an agent has none
// of those fields. Read the fields both kinds have from Spec.
func (s *Server) PrometheusOnly() *monitoringv1.PrometheusSpec {
	if s.Prometheus == nil {
		return &monitoringv1.PrometheusSpec{}
	}
	return &s.Prometheus.Spec
}
