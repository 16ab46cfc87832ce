package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// CheckCustomService checks that svc, the user's Service ns/name given as spec.serviceName
// of a kind (nil when it does not exist), selects pods labelled pods; def is the Service
// the operator would create instead.
func CheckCustomService(kind, ns, name, def string, svc *corev1.Service, pods map[string]string) error {
	if svc == nil {
		return fmt.Errorf("spec.serviceName: Service %s/%s does not exist; create it before the %s (or leave spec.serviceName empty for %s)", ns, name, kind, def)
	}
	if svc.Namespace != ns || svc.Name != name {
		return fmt.Errorf("spec.serviceName: got Service %s/%s to check, want %s/%s", svc.Namespace, svc.Name, ns, name)
	}
	if !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(pods)) {
		return fmt.Errorf("spec.serviceName: Service %s/%s with selector %q does not select the %s pods, labelled %q", ns, name,
			labels.SelectorFromSet(svc.Spec.Selector).String(), kind, labels.Set(pods).String())
	}
	return nil
}

// GoverningServiceShape is what a kind's governing headless Service is made of.
type GoverningServiceShape struct {
	Name, Namespace string
	// Labels are the Service's own, Selector selects the pods of every instance of the
	// kind in the namespace.
	Labels, Selector map[string]string
	// PublishNotReadyAddresses publishes pods before they are ready (Alertmanager peers
	// find each other while they start).
	PublishNotReadyAddresses bool
	Ports                    []corev1.ServicePort
}

// Service is the headless Service of s.
func (s GoverningServiceShape) Service() *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace, Labels: s.Labels},
		Spec: corev1.ServiceSpec{
			ClusterIP:                corev1.ClusterIPNone,
			PublishNotReadyAddresses: s.PublishNotReadyAddresses,
			Ports:                    s.Ports,
			Selector:                 s.Selector,
		},
	}
}

// ServicePort is the Service port name of number port that targets the container port
// target by name.
func ServicePort(name string, port int32, target string, protocol corev1.Protocol) corev1.ServicePort {
	return corev1.ServicePort{Name: name, Port: port, TargetPort: intstr.FromString(target), Protocol: protocol}
}

// GoverningServiceName is the governing Service of an instance: its spec.serviceName, or
// the kind's def.
func GoverningServiceName(serviceName *string, def string) string {
	if s := ptr.Deref(serviceName, ""); s != "" {
		return s
	}
	return def
}

// ManagesService reports whether the controller creates the kind's governing Service
// for an instance with spec.serviceName serviceName: when it is set the user provides it.
func ManagesService(serviceName *string) bool {
	return ptr.Deref(serviceName, "") == ""
}
