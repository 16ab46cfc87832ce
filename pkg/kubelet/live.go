//lint:file-ignore SA1019 Endpoints (deprecated in Kubernetes 1.33) is what upstream writes and what ServiceMonitors with the default endpoints role discover.

package kubelet

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Managed reports whether a live Service or Endpoints object with the kubelet name may
// be written: it carries app.kubernetes.io/managed-by=prometheus-operator, as the ones
// upstream (since v0.46) and Lookout create do. Anything else (a user's Service of that
// name, one from another tool) is left alone.
func Managed(live metav1.Object) bool {
	return live.GetLabels()[ManagedByLabel] == ManagedByValue
}

// MergeMetadata adds to desired the labels and annotations of live that others put
// there, as upstream keeps them: everything but the keys desired sets, the keys this
// package may set (OwnLabels: a skip-mirror label no longer wanted goes away), the
// content hash, and upstream's reserved operator.prometheus.io/ prefix. Call it after
// Build: the hash covers only what the operator generates, so a label someone adds
// causes no write, and is kept by the next one.
func MergeMetadata(desired, live metav1.Object) {
	own := map[string]bool{}
	for _, k := range OwnLabels {
		own[k] = true
	}
	desired.SetLabels(merge(desired.GetLabels(), live.GetLabels(), own))
	desired.SetAnnotations(merge(desired.GetAnnotations(), live.GetAnnotations(), map[string]bool{layout.InputHashAnnotation: true}))
}

func merge(desired, live map[string]string, skip map[string]bool) map[string]string {
	for k, v := range live {
		if _, set := desired[k]; set || skip[k] || strings.HasPrefix(k, "operator.prometheus.io/") {
			continue
		}
		if desired == nil {
			desired = map[string]string{}
		}
		desired[k] = v
	}
	return desired
}

// ServiceDrifted reports whether the live Service differs from desired in what the
// operator sets, whatever its hash annotation says (someone edited it, or upstream wrote
// it while keeping Lookout's annotation). The fields the API server allocates and no
// update can change (cluster IPs, IP families) are not compared: a Service created with a
// cluster IP keeps it, as upstream keeps it.
func ServiceDrifted(desired, live *corev1.Service) bool {
	return metadataDrifted(desired, live) || live.Spec.Type != desired.Spec.Type ||
		len(live.Spec.Selector) > 0 || !equality.Semantic.DeepEqual(live.Spec.Ports, desired.Spec.Ports)
}

// EndpointsDrifted is ServiceDrifted for the Endpoints.
func EndpointsDrifted(desired, live *corev1.Endpoints) bool {
	return metadataDrifted(desired, live) || !equality.Semantic.DeepEqual(live.Subsets, desired.Subsets)
}

// SliceDrifted is ServiceDrifted for an EndpointSlice.
func SliceDrifted(desired, live *discoveryv1.EndpointSlice) bool {
	return metadataDrifted(desired, live) || live.AddressType != desired.AddressType ||
		!equality.Semantic.DeepEqual(live.Endpoints, desired.Endpoints) ||
		!equality.Semantic.DeepEqual(live.Ports, desired.Ports) ||
		!equality.Semantic.DeepEqual(live.OwnerReferences, desired.OwnerReferences)
}

// metadataDrifted reports a desired label or annotation missing or different on live.
func metadataDrifted(desired, live metav1.Object) bool {
	return !subset(desired.GetLabels(), live.GetLabels()) || !subset(desired.GetAnnotations(), live.GetAnnotations())
}

func subset(want, have map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}
