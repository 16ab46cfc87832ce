package kubelet

import (
	"errors"
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Ports of the kubelet, named as prometheus-operator names them: the kubelet
// ServiceMonitors select them by these names.
const (
	HTTPSPortName    = "https-metrics"
	HTTPSPort        = int32(10250)
	HTTPPortName     = "http-metrics"
	HTTPPort         = int32(10255)
	CAdvisorPortName = "cadvisor"
	CAdvisorPort     = int32(4194)
)

// Labels on every object, with prometheus-operator's values: kube-prometheus's kubelet
// ServiceMonitor selects app.kubernetes.io/name=kubelet, older ones k8s-app=kubelet.
// ManagedByValue is upstream's own, so the objects stay recognisable to upstream when a
// cluster goes back to it, and upstream's objects are taken over (see Managed).
const (
	AppLabel       = "k8s-app"
	NameLabel      = "app.kubernetes.io/name"
	ManagedByLabel = "app.kubernetes.io/managed-by"
	AppValue       = "kubelet"
	ManagedByValue = "prometheus-operator"
)

// MaxEndpointsPerSlice is upstream's maximum number of endpoints in one EndpointSlice
// (the API allows 1,000).
const MaxEndpointsPerSlice = 512

// AddressPriority chooses which node addresses are listed: "internal" lists a node's
// InternalIP addresses and falls back to its ExternalIP addresses, "external" the other
// way round (the order Prometheus's node discovery uses).
type AddressPriority string

// The two address priorities; the empty value means internal.
const (
	InternalFirst AddressPriority = "internal"
	ExternalFirst AddressPriority = "external"
)

// ParseAddressPriority accepts what --kubelet-node-address-priority accepts.
func ParseAddressPriority(s string) (AddressPriority, error) {
	switch AddressPriority(s) {
	case InternalFirst, ExternalFirst:
		return AddressPriority(s), nil
	case "":
		return InternalFirst, nil
	}
	return "", fmt.Errorf("invalid node address priority %q: want internal or external", s)
}

// Options say what to build.
type Options struct {
	// Namespace and Name of the Service, the Endpoints, and the prefix of the
	// EndpointSlices.
	Namespace, Name string
	// Endpoints and EndpointSlices say which kinds list the nodes (at least one).
	Endpoints, EndpointSlices bool
	// HTTPMetrics adds the kubelet's read-only port http-metrics (10255).
	HTTPMetrics bool
	// AddressPriority picks the node addresses (empty: internal).
	AddressPriority AddressPriority
	// Labels and Annotations are added to every object (the operator's --labels and
	// --annotations). The labels above win on a clash, so the objects stay selectable and
	// recognisable whatever the flags say.
	Labels, Annotations map[string]string
	// MaxEndpointsPerSlice caps the endpoints of one EndpointSlice (0:
	// MaxEndpointsPerSlice).
	MaxEndpointsPerSlice int
}

// Validate reports options Build cannot work with.
func (o Options) Validate() error {
	var errs []error
	if o.Namespace == "" || o.Name == "" {
		errs = append(errs, errors.New("the kubelet Service needs a namespace and a name"))
	}
	for _, m := range validation.IsDNS1123Label(o.Namespace) {
		errs = append(errs, fmt.Errorf("kubelet Service namespace %q: %s", o.Namespace, m))
	}
	for _, m := range validation.IsDNS1035Label(o.Name) {
		errs = append(errs, fmt.Errorf("kubelet Service name %q: %s", o.Name, m))
	}
	if !o.Endpoints && !o.EndpointSlices {
		errs = append(errs, errors.New("at least one of Endpoints and EndpointSlices must be enabled"))
	}
	if _, err := ParseAddressPriority(string(o.AddressPriority)); err != nil {
		errs = append(errs, err)
	}
	if o.MaxEndpointsPerSlice < 0 || o.MaxEndpointsPerSlice > 1000 {
		errs = append(errs, fmt.Errorf("max endpoints per slice %d: want 1 to 1000", o.MaxEndpointsPerSlice))
	}
	return errors.Join(errs...)
}

func (o Options) maxPerSlice() int {
	if o.MaxEndpointsPerSlice > 0 {
		return o.MaxEndpointsPerSlice
	}
	return MaxEndpointsPerSlice
}

// labels returns the operator-wide labels with the kubelet labels over them.
func (o Options) labels(extra map[string]string) map[string]string {
	out := make(map[string]string, len(o.Labels)+3+len(extra))
	for k, v := range o.Labels {
		out[k] = v
	}
	out[AppLabel] = AppValue
	out[NameLabel] = AppValue
	out[ManagedByLabel] = ManagedByValue
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func (o Options) annotations() map[string]string {
	out := make(map[string]string, len(o.Annotations)+1)
	for k, v := range o.Annotations {
		out[k] = v
	}
	return out
}

// OwnLabels are the label keys Build may set besides the operator-wide ones. A label of
// the live object that is neither desired nor one of these was put there by someone else
// and is kept when the object is rewritten (see MergeMetadata).
var OwnLabels = []string{AppLabel, NameLabel, ManagedByLabel, discoveryv1.LabelSkipMirror, discoveryv1.LabelServiceName, discoveryv1.LabelManagedBy}
