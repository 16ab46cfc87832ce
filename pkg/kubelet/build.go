//lint:file-ignore SA1019 Endpoints (deprecated in Kubernetes 1.33) is what upstream writes and what ServiceMonitors with the default endpoints role discover.

package kubelet

import (
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Input is what Build reads.
type Input struct {
	// Nodes are the selected nodes, in any order.
	Nodes []corev1.Node
	// Slices are the live EndpointSlices of the Service's namespace (at least those
	// labelled with the Service's name); see Slices.
	Slices []discoveryv1.EndpointSlice
	// ServiceUID is the live Service's UID, the owner of the EndpointSlices (empty: the
	// slices get no owner reference).
	ServiceUID types.UID
}

// Objects are the desired objects. Each carries the hash of its content in the
// layout.InputHashAnnotation annotation.
type Objects struct {
	Service *corev1.Service
	// Endpoints is nil unless Options.Endpoints.
	Endpoints *corev1.Endpoints
	// EndpointSlices is empty unless Options.EndpointSlices (or when there are no
	// addresses); StaleSlices names the live slices to delete.
	EndpointSlices []*discoveryv1.EndpointSlice
	StaleSlices    []string
	// Addresses are the listed addresses; Problems the nodes and addresses left out.
	Addresses []Address
	Problems  []Problem
}

// Build computes the objects that list the kubelets of in.Nodes.
func Build(o Options, in Input) *Objects {
	addrs, problems := Addresses(in.Nodes, o.AddressPriority)
	out := &Objects{Service: Service(o), Addresses: addrs, Problems: problems}
	if o.Endpoints {
		out.Endpoints = Endpoints(o, addrs)
	}
	if o.EndpointSlices {
		out.EndpointSlices, out.StaleSlices = Slices(o, addrs, in.Slices, in.ServiceUID)
	}
	return out
}
