package workload

import (
	"reflect"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
)

// SpecFields are the pod settings that the specs of Prometheus, PrometheusAgent,
// Alertmanager and ThanosRuler all declare under the same name and type (a kind
// without one, such as ThanosRuler's hostNetwork, leaves it zero). Each kind's pod takes
// them from its spec with SpecFieldsOf, so a field added here reaches every kind.
type SpecFields struct {
	// TerminationGracePeriodSeconds is the spec's (nil: the kind's default).
	TerminationGracePeriodSeconds *int64
	// SecurityContext is spec.securityContext (nil: the non-root default).
	SecurityContext *corev1.PodSecurityContext
	// The spec fields of the same name.
	ServiceAccountName               string
	NodeSelector                     map[string]string
	Affinity                         *corev1.Affinity
	Tolerations                      []corev1.Toleration
	SchedulerName, PriorityClassName string
	HostAliases                      []monitoringv1.HostAlias
	HostNetwork                      bool
	DNSPolicy                        *monitoringv1.DNSPolicy
	DNSConfig                        *monitoringv1.PodDNSConfig
	EnableServiceLinks, HostUsers    *bool
	ImagePullSecrets                 []corev1.LocalObjectReference
}

// SpecFieldsOf copies the SpecFields from spec, a pointer to a kind's spec struct, field
// by field of the same name; a field the spec lacks, or declares with another type,
// stays zero (TestSpecFieldsOfEveryKind pins the types of every kind's fields).
func SpecFieldsOf(spec any) SpecFields {
	var out SpecFields
	src := reflect.Indirect(reflect.ValueOf(spec))
	if src.Kind() != reflect.Struct {
		return out
	}
	dst := reflect.ValueOf(&out).Elem()
	for i := range dst.NumField() {
		f := dst.Type().Field(i)
		if v := src.FieldByName(f.Name); v.IsValid() && v.Type() == f.Type {
			dst.Field(i).Set(v)
		}
	}
	return out
}
