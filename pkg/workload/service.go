package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
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
