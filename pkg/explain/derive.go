//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which the stand-in derives

package explain

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// managed-by values of the EndpointSlices the cluster's controllers write.
const (
	sliceController     = "endpointslice-controller.k8s.io"
	mirroringController = "endpointslicemirroring-controller.k8s.io"
)

// Derive returns objs with the Endpoints and EndpointSlices a cluster's controllers would
// add, Service by Service (ExternalName Services have neither):
//
//   - EndpointSlices but no Endpoints: Endpoints from the slices (the slices labelled
//     kubernetes.io/service-name with the Service's name), as the endpoints controller
//     would write them from the same Pods;
//   - Endpoints but no EndpointSlices: slices from the Pods the Service selects when the
//     files hold some (the EndpointSlice controller), otherwise mirrored from the
//     Endpoints (the EndpointSliceMirroring controller; for a Service without a selector
//     an Endpoints labelled endpointslice.kubernetes.io/skip-mirror=true is not mirrored);
//   - neither: both from the Pods the Service selects.
//
// It also returns, by "namespace/name", the Services whose endpoints the files cannot
// answer for: neither Endpoints nor slices, and no selector or no Pod it selects.
func Derive(objs *Objects) (Objects, map[string]string) {
	o := *objs
	o.Endpoints = append([]corev1.Endpoints(nil), objs.Endpoints...)
	o.EndpointSlices = append([]discoveryv1.EndpointSlice(nil), objs.EndpointSlices...)
	eps := map[string]*corev1.Endpoints{}
	for i := range objs.Endpoints {
		eps[objs.Endpoints[i].Namespace+"/"+objs.Endpoints[i].Name] = &objs.Endpoints[i]
	}
	slices := map[string][]discoveryv1.EndpointSlice{}
	for _, s := range objs.EndpointSlices {
		if name := s.Labels[discoveryv1.LabelServiceName]; name != "" {
			slices[s.Namespace+"/"+name] = append(slices[s.Namespace+"/"+name], s)
		}
	}
	missing := map[string]string{}
	for i := range objs.Services {
		svc := &objs.Services[i]
		key := svc.Namespace + "/" + svc.Name
		if svc.Spec.Type == corev1.ServiceTypeExternalName {
			continue
		}
		ep, sl := eps[key], slices[key]
		if ep != nil && len(sl) > 0 {
			continue
		}
		pods, selected := selectedPods(svc, objs.Pods)
		switch {
		case len(sl) > 0:
			o.Endpoints = append(o.Endpoints, endpointsFromSlices(svc, sl))
		case ep != nil && selected:
			o.EndpointSlices = append(o.EndpointSlices, slicesFromPods(svc, pods)...)
		case ep != nil:
			if len(svc.Spec.Selector) > 0 || ep.Labels[discoveryv1.LabelSkipMirror] != "true" {
				o.EndpointSlices = append(o.EndpointSlices, mirror(svc, ep)...)
			}
		case selected:
			o.Endpoints = append(o.Endpoints, endpointsFromPods(svc, pods))
			o.EndpointSlices = append(o.EndpointSlices, slicesFromPods(svc, pods)...)
		case len(svc.Spec.Selector) == 0:
			missing[key] = fmt.Sprintf("the files hold no Endpoints or EndpointSlices for Service %s, which has no selector", key)
		default:
			missing[key] = fmt.Sprintf("the files hold no Endpoints, EndpointSlices or Pods for Service %s (selector %s)", key, k8slabels.SelectorFromSet(svc.Spec.Selector))
		}
	}
	return o, missing
}

// selectedPods returns the Pods of the Service's selector, by name, and whether there
// are any (Pods that would not be endpoints count: the files answer for them).
func selectedPods(svc *corev1.Service, all []corev1.Pod) ([]corev1.Pod, bool) {
	if len(svc.Spec.Selector) == 0 {
		return nil, false
	}
	sel := k8slabels.SelectorFromSet(svc.Spec.Selector)
	var pods []corev1.Pod
	for _, p := range all {
		if p.Namespace == svc.Namespace && sel.Matches(k8slabels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	return pods, len(pods) > 0
}

// endpointsMeta is the metadata the endpoints controller gives a Service's Endpoints:
// the Service's labels.
func endpointsMeta(svc *corev1.Service) corev1.Endpoints {
	return corev1.Endpoints{TypeMeta: metav1.TypeMeta{Kind: "Endpoints", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name, Labels: svc.Labels}}
}

// sliceMeta is an EndpointSlice of the Service: labels (the Service's or the mirrored
// Endpoints'), the service-name label and managed-by.
func sliceMeta(svc *corev1.Service, n int, labels map[string]string, managedBy string, at discoveryv1.AddressType) discoveryv1.EndpointSlice {
	name := svc.Name + "-explain"
	if n > 0 {
		name += "-" + strconv.Itoa(n)
	}
	s := discoveryv1.EndpointSlice{
		TypeMeta:    metav1.TypeMeta{Kind: "EndpointSlice", APIVersion: "discovery.k8s.io/v1"},
		ObjectMeta:  metav1.ObjectMeta{Namespace: svc.Namespace, Name: name, Labels: map[string]string{}},
		AddressType: at,
		Endpoints:   []discoveryv1.Endpoint{},
	}
	for k, v := range labels {
		s.Labels[k] = v
	}
	s.Labels[discoveryv1.LabelServiceName] = svc.Name
	s.Labels[discoveryv1.LabelManagedBy] = managedBy
	return s
}

// subsets packs addresses by their set of ports, as the endpoints controller's
// RepackSubsets does: one subset per distinct port set, an address ready in one place
// ready everywhere, addresses and subsets in a stable order.
type subsets struct {
	order []string
	by    map[string]*corev1.EndpointSubset
	ready map[string]map[string]corev1.EndpointAddress
	not   map[string]map[string]corev1.EndpointAddress
}

func newSubsets() *subsets {
	return &subsets{by: map[string]*corev1.EndpointSubset{}, ready: map[string]map[string]corev1.EndpointAddress{}, not: map[string]map[string]corev1.EndpointAddress{}}
}

func portsKey(ports []corev1.EndpointPort) string {
	parts := make([]string, len(ports))
	for i, p := range ports {
		parts[i] = fmt.Sprintf("%s/%d/%s", p.Name, p.Port, p.Protocol)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (s *subsets) add(ports []corev1.EndpointPort, a corev1.EndpointAddress, ready bool) {
	k := portsKey(ports)
	if s.by[k] == nil {
		sorted := append([]corev1.EndpointPort(nil), ports...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
		s.by[k] = &corev1.EndpointSubset{Ports: sorted}
		s.ready[k], s.not[k] = map[string]corev1.EndpointAddress{}, map[string]corev1.EndpointAddress{}
		s.order = append(s.order, k)
	}
	switch _, r := s.ready[k][a.IP]; {
	case ready:
		delete(s.not[k], a.IP)
		s.ready[k][a.IP] = a
	case !r:
		s.not[k][a.IP] = a
	}
}

func (s *subsets) list() []corev1.EndpointSubset {
	sort.Strings(s.order)
	out := make([]corev1.EndpointSubset, 0, len(s.order))
	for _, k := range s.order {
		sub := *s.by[k]
		sub.Addresses, sub.NotReadyAddresses = sortedAddresses(s.ready[k]), sortedAddresses(s.not[k])
		out = append(out, sub)
	}
	return out
}

func sortedAddresses(m map[string]corev1.EndpointAddress) []corev1.EndpointAddress {
	var out []corev1.EndpointAddress
	for _, a := range m {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].IP < out[j].IP })
	return out
}

// endpointsFromSlices is the Endpoints of the Service the slices describe: addresses
// ready when the endpoint's ready condition is true or unset (the API's "unknown is
// ready"), not ready otherwise; terminating endpoints left out (the endpoints controller
// leaves out terminating Pods) unless the Service publishes not-ready addresses, which
// makes every address ready; FQDN slices and ports without a number left out.
func endpointsFromSlices(svc *corev1.Service, slices []discoveryv1.EndpointSlice) corev1.Endpoints {
	ep := endpointsMeta(svc)
	subs := newSubsets()
	publish := svc.Spec.PublishNotReadyAddresses
	for _, sl := range slices {
		if sl.AddressType == discoveryv1.AddressTypeFQDN {
			continue
		}
		var ports []corev1.EndpointPort
		for _, p := range sl.Ports {
			if p.Port == nil {
				continue
			}
			ports = append(ports, corev1.EndpointPort{Name: ptr.Deref(p.Name, ""), Port: *p.Port, Protocol: protocol(ptr.Deref(p.Protocol, "")), AppProtocol: p.AppProtocol})
		}
		for _, e := range sl.Endpoints {
			if ptr.Deref(e.Conditions.Terminating, false) && !publish {
				continue
			}
			ready := publish || ptr.Deref(e.Conditions.Ready, true)
			for _, ip := range e.Addresses {
				subs.add(ports, corev1.EndpointAddress{IP: ip, Hostname: ptr.Deref(e.Hostname, ""), NodeName: e.NodeName, TargetRef: e.TargetRef}, ready)
			}
		}
	}
	ep.Subsets = subs.list()
	return ep
}

// mirror is the EndpointSliceMirroring controller's slices of an Endpoints: the
// Endpoints' labels, one slice per port set and address family, ready addresses ready,
// not-ready ones not (only the ready condition is set).
func mirror(svc *corev1.Service, ep *corev1.Endpoints) []discoveryv1.EndpointSlice {
	managedBy := mirroringController
	if len(svc.Spec.Selector) > 0 {
		managedBy = sliceController
	}
	g := newSliceGroups(svc, ep.Labels, managedBy)
	for _, sub := range ep.Subsets {
		ports := make([]discoveryv1.EndpointPort, 0, len(sub.Ports))
		for _, p := range sub.Ports {
			ports = append(ports, discoveryv1.EndpointPort{Name: ptr.To(p.Name), Port: ptr.To(p.Port), Protocol: ptr.To(protocol(p.Protocol)), AppProtocol: p.AppProtocol})
		}
		for _, list := range []struct {
			addrs []corev1.EndpointAddress
			ready bool
		}{{sub.Addresses, true}, {sub.NotReadyAddresses, false}} {
			for _, a := range list.addrs {
				at, ok := addressType(a.IP)
				if !ok {
					continue
				}
				e := discoveryv1.Endpoint{Addresses: []string{a.IP}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(list.ready)}, TargetRef: a.TargetRef, NodeName: a.NodeName}
				if a.Hostname != "" {
					e.Hostname = ptr.To(a.Hostname)
				}
				g.add(ports, at, e)
			}
		}
	}
	return g.list()
}

// sliceGroups collects a Service's endpoints into one slice per port set and address
// type.
type sliceGroups struct {
	svc       *corev1.Service
	labels    map[string]string
	managedBy string
	order     []string
	by        map[string]*discoveryv1.EndpointSlice
}

func newSliceGroups(svc *corev1.Service, labels map[string]string, managedBy string) *sliceGroups {
	return &sliceGroups{svc: svc, labels: labels, managedBy: managedBy, by: map[string]*discoveryv1.EndpointSlice{}}
}

func (g *sliceGroups) add(ports []discoveryv1.EndpointPort, at discoveryv1.AddressType, e discoveryv1.Endpoint) {
	var parts []string
	for _, p := range ports {
		parts = append(parts, fmt.Sprintf("%s/%d/%s", ptr.Deref(p.Name, ""), ptr.Deref(p.Port, 0), ptr.Deref(p.Protocol, "")))
	}
	sort.Strings(parts)
	k := string(at) + " " + strings.Join(parts, ",")
	if g.by[k] == nil {
		s := sliceMeta(g.svc, len(g.order), g.labels, g.managedBy, at)
		s.Ports = ports
		g.by[k] = &s
		g.order = append(g.order, k)
	}
	g.by[k].Endpoints = append(g.by[k].Endpoints, e)
}

func (g *sliceGroups) list() []discoveryv1.EndpointSlice {
	out := make([]discoveryv1.EndpointSlice, 0, len(g.order))
	for _, k := range g.order {
		out = append(out, *g.by[k])
	}
	return out
}

func addressType(ip string) (discoveryv1.AddressType, bool) {
	p := net.ParseIP(ip)
	switch {
	case p == nil:
		return "", false
	case p.To4() != nil:
		return discoveryv1.AddressTypeIPv4, true
	}
	return discoveryv1.AddressTypeIPv6, true
}

// inEndpoints is the controllers' ShouldPodBeInEndpoints: not finished (Succeeded or
// Failed), with an IP, and not terminating unless includeTerminating.
func inEndpoints(p *corev1.Pod, includeTerminating bool) bool {
	switch {
	case p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed:
		return false
	case p.Status.PodIP == "" && len(p.Status.PodIPs) == 0:
		return false
	case !includeTerminating && p.DeletionTimestamp != nil:
		return false
	}
	return true
}

func podIPs(p *corev1.Pod) []string {
	if len(p.Status.PodIPs) == 0 {
		return []string{p.Status.PodIP}
	}
	out := make([]string, 0, len(p.Status.PodIPs))
	for _, ip := range p.Status.PodIPs {
		out = append(out, ip.IP)
	}
	return out
}

// findPort is the controllers' FindPort: a numbered targetPort as is (unset: the
// Service's port, as the API server defaults it), a named one through the Pod's
// container (and sidecar) ports of that name and protocol; false when the Pod has none.
func findPort(p *corev1.Pod, sp corev1.ServicePort) (int32, bool) {
	tp := sp.TargetPort
	if tp.Type == intstr.Int {
		if tp.IntVal == 0 {
			return sp.Port, true
		}
		return tp.IntVal, true
	}
	containers := p.Spec.Containers
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			containers = append(containers[:len(containers):len(containers)], c)
		}
	}
	for _, c := range containers {
		for _, cp := range c.Ports {
			if cp.Name == tp.StrVal && protocol(cp.Protocol) == protocol(sp.Protocol) {
				return cp.ContainerPort, true
			}
		}
	}
	return 0, false
}

// shouldSetHostname: the Pod's hostname names the address when its subdomain is the
// Service.
func shouldSetHostname(p *corev1.Pod, svc *corev1.Service) bool {
	return p.Spec.Hostname != "" && p.Spec.Subdomain == svc.Name && p.Namespace == svc.Namespace
}

func podRef(p *corev1.Pod) *corev1.ObjectReference {
	return &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}
}

// endpointsFromPods is the endpoints controller's Endpoints of the Service: every Pod in
// endpoints (terminating ones only when the Service publishes not-ready addresses), ready
// when its Ready condition is true or the Service publishes not-ready addresses, with
// the Service's ports its targetPorts resolve to on that Pod.
func endpointsFromPods(svc *corev1.Service, pods []corev1.Pod) corev1.Endpoints {
	ep := endpointsMeta(svc)
	subs := newSubsets()
	publish := svc.Spec.PublishNotReadyAddresses
	for i := range pods {
		p := &pods[i]
		if !inEndpoints(p, publish) {
			continue
		}
		var ports []corev1.EndpointPort
		for _, sp := range svc.Spec.Ports {
			if port, ok := findPort(p, sp); ok {
				ports = append(ports, corev1.EndpointPort{Name: sp.Name, Port: port, Protocol: protocol(sp.Protocol), AppProtocol: sp.AppProtocol})
			}
		}
		if len(svc.Spec.Ports) > 0 && len(ports) == 0 {
			continue
		}
		// The endpoints controller writes the Pod's IP of the Service's family: the
		// primary one here.
		a := corev1.EndpointAddress{IP: podIPs(p)[0], NodeName: nodeName(*p), TargetRef: podRef(p)}
		if shouldSetHostname(p, svc) {
			a.Hostname = p.Spec.Hostname
		}
		subs.add(ports, a, publish || podReady(*p))
	}
	ep.Subsets = subs.list()
	return ep
}

// slicesFromPods is the EndpointSlice controller's slices of the Service: every Pod in
// endpoints, terminating ones included; ready = the Pod is Ready and not terminating (or
// the Service publishes not-ready addresses), serving = Ready, terminating = being
// deleted; one slice per port set and address family.
func slicesFromPods(svc *corev1.Service, pods []corev1.Pod) []discoveryv1.EndpointSlice {
	g := newSliceGroups(svc, svc.Labels, sliceController)
	for i := range pods {
		p := &pods[i]
		if !inEndpoints(p, true) {
			continue
		}
		ports := []discoveryv1.EndpointPort{}
		for _, sp := range svc.Spec.Ports {
			if port, ok := findPort(p, sp); ok {
				ports = append(ports, discoveryv1.EndpointPort{Name: ptr.To(sp.Name), Port: ptr.To(port), Protocol: ptr.To(protocol(sp.Protocol)), AppProtocol: sp.AppProtocol})
			}
		}
		serving, terminating := podReady(*p), p.DeletionTimestamp != nil
		ready := svc.Spec.PublishNotReadyAddresses || (serving && !terminating)
		for _, ip := range podIPs(p) {
			at, ok := addressType(ip)
			if !ok {
				continue
			}
			e := discoveryv1.Endpoint{
				Addresses:  []string{ip},
				Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(serving), Terminating: ptr.To(terminating)},
				TargetRef:  podRef(p),
				NodeName:   nodeName(*p),
			}
			if shouldSetHostname(p, svc) {
				e.Hostname = ptr.To(p.Spec.Hostname)
			}
			g.add(ports, at, e)
		}
	}
	return g.list()
}

func protocol(p corev1.Protocol) corev1.Protocol {
	if p == "" {
		return corev1.ProtocolTCP
	}
	return p
}

func nodeName(p corev1.Pod) *string {
	if p.Spec.NodeName == "" {
		return nil
	}
	return ptr.To(p.Spec.NodeName)
}

func podReady(p corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
