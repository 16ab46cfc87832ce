//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which the stand-in serves

package explain

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Objects are the cluster objects Prometheus's discovery reads, as the stand-in serves
// them offline.
type Objects struct {
	Nodes          []corev1.Node
	Namespaces     []corev1.Namespace
	Services       []corev1.Service
	Endpoints      []corev1.Endpoints
	EndpointSlices []discoveryv1.EndpointSlice
	Pods           []corev1.Pod
}

// standIn is a read-only API server serving Objects: lists filtered by namespace, label
// and field selector (metadata.name, metadata.namespace, spec.nodeName), and watches that
// stay open without events.
type standIn struct{ o *Objects }

// NewStandIn returns the read-only stand-in API server for objs. Services with a
// selector but no Endpoints or EndpointSlices in objs get them derived from the Pods
// they select, as the endpoint controllers would.
func NewStandIn(objs *Objects) http.Handler {
	o := *objs
	o.Endpoints, o.EndpointSlices = deriveEndpoints(&o)
	return &standIn{o: &o}
}

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resource, ns, ok := resourceOf(r.URL.Path)
	if !ok || r.Method != http.MethodGet {
		status(w, http.StatusNotFound, fmt.Sprintf("the explain stand-in serves no %s %s", r.Method, r.URL.Path))
		return
	}
	q := r.URL.Query()
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
		<-r.Context().Done()
		return
	}
	lsel, err := k8slabels.Parse(q.Get("labelSelector"))
	if err != nil {
		status(w, http.StatusBadRequest, err.Error())
		return
	}
	fsel, err := fields.ParseSelector(q.Get("fieldSelector"))
	if err != nil {
		status(w, http.StatusBadRequest, err.Error())
		return
	}
	match := func(m metav1.ObjectMeta, nodeName string) bool {
		f := fields.Set{"metadata.name": m.Name, "metadata.namespace": m.Namespace, "spec.nodeName": nodeName}
		return (ns == "" || m.Namespace == ns) && lsel.Matches(k8slabels.Set(m.Labels)) && fsel.Matches(f)
	}
	var list any
	switch resource {
	case "nodes":
		list = listOf("NodeList", "v1", matching(s.o.Nodes, func(o *corev1.Node) bool { return match(o.ObjectMeta, "") }))
	case "namespaces":
		list = listOf("NamespaceList", "v1", matching(s.o.Namespaces, func(o *corev1.Namespace) bool { return match(o.ObjectMeta, "") }))
	case "services":
		list = listOf("ServiceList", "v1", matching(s.o.Services, func(o *corev1.Service) bool { return match(o.ObjectMeta, "") }))
	case "endpoints":
		list = listOf("EndpointsList", "v1", matching(s.o.Endpoints, func(o *corev1.Endpoints) bool { return match(o.ObjectMeta, "") }))
	case "endpointslices":
		list = listOf("EndpointSliceList", "discovery.k8s.io/v1", matching(s.o.EndpointSlices, func(o *discoveryv1.EndpointSlice) bool { return match(o.ObjectMeta, "") }))
	case "pods":
		list = listOf("PodList", "v1", matching(s.o.Pods, func(o *corev1.Pod) bool { return match(o.ObjectMeta, o.Spec.NodeName) }))
	default:
		status(w, http.StatusNotFound, fmt.Sprintf("the explain stand-in serves no %s", resource))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

// objectList is the JSON of a Kubernetes list (NodeList, PodList...) of the stand-in.
type objectList[T any] struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []T `json:"items"`
}

// listOf is the list of kind (apiVersion) holding items, at resource version 1.
func listOf[T any](kind, apiVersion string, items []T) any {
	return &objectList[T]{TypeMeta: metav1.TypeMeta{Kind: kind, APIVersion: apiVersion}, ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: items}
}

func status(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": msg, "code": code})
	_, _ = w.Write(b)
}

// deriveEndpoints returns o's Endpoints and EndpointSlices, with those of every Service
// that has a selector and neither in o derived from the Pods it selects: one address per
// Pod with an IP, ready when the Pod's Ready condition is true, with the Service's ports
// (a named targetPort resolved through the Pod's container ports).
func deriveEndpoints(o *Objects) ([]corev1.Endpoints, []discoveryv1.EndpointSlice) {
	eps, slices := append([]corev1.Endpoints(nil), o.Endpoints...), append([]discoveryv1.EndpointSlice(nil), o.EndpointSlices...)
	has := map[string]bool{}
	for _, e := range o.Endpoints {
		has[e.Namespace+"/"+e.Name] = true
	}
	for _, s := range o.EndpointSlices {
		has[s.Namespace+"/"+s.Labels[discoveryv1.LabelServiceName]] = true
	}
	for _, svc := range o.Services {
		if len(svc.Spec.Selector) == 0 || has[svc.Namespace+"/"+svc.Name] {
			continue
		}
		sel := k8slabels.SelectorFromSet(svc.Spec.Selector)
		var pods []corev1.Pod
		for _, p := range o.Pods {
			if p.Namespace == svc.Namespace && p.Status.PodIP != "" && sel.Matches(k8slabels.Set(p.Labels)) {
				pods = append(pods, p)
			}
		}
		sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
		ep := corev1.Endpoints{TypeMeta: metav1.TypeMeta{Kind: "Endpoints", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name, Labels: svc.Labels}}
		slice := discoveryv1.EndpointSlice{
			TypeMeta:    metav1.TypeMeta{Kind: "EndpointSlice", APIVersion: "discovery.k8s.io/v1"},
			ObjectMeta:  metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name + "-explain", Labels: map[string]string{discoveryv1.LabelServiceName: svc.Name}},
			AddressType: discoveryv1.AddressTypeIPv4,
		}
		for k, v := range svc.Labels {
			slice.Labels[k] = v
		}
		slice.Labels[discoveryv1.LabelServiceName] = svc.Name
		for _, sp := range svc.Spec.Ports {
			port := resolvePort(sp, pods)
			ep.Subsets = append(ep.Subsets, subset(sp, port, pods))
			slice.Ports = append(slice.Ports, discoveryv1.EndpointPort{Name: ptr.To(sp.Name), Port: ptr.To(port), Protocol: ptr.To(protocol(sp.Protocol))})
		}
		for _, p := range pods {
			ready := podReady(p)
			slice.Endpoints = append(slice.Endpoints, discoveryv1.Endpoint{
				Addresses:  []string{p.Status.PodIP},
				Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)},
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID},
				NodeName:   nodeName(p),
			})
		}
		eps, slices = append(eps, ep), append(slices, slice)
	}
	return eps, slices
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

// resolvePort is the container port a Service port sends to (the first Pod's, for a
// named targetPort).
func resolvePort(sp corev1.ServicePort, pods []corev1.Pod) int32 {
	switch {
	case sp.TargetPort.Type == intstr.String && sp.TargetPort.StrVal != "":
		for _, p := range pods {
			for _, c := range p.Spec.Containers {
				for _, cp := range c.Ports {
					if cp.Name == sp.TargetPort.StrVal {
						return cp.ContainerPort
					}
				}
			}
		}
		return sp.Port
	case sp.TargetPort.IntVal != 0:
		return sp.TargetPort.IntVal
	}
	return sp.Port
}

func subset(sp corev1.ServicePort, port int32, pods []corev1.Pod) corev1.EndpointSubset {
	s := corev1.EndpointSubset{Ports: []corev1.EndpointPort{{Name: sp.Name, Port: port, Protocol: protocol(sp.Protocol)}}}
	for _, p := range pods {
		a := corev1.EndpointAddress{IP: p.Status.PodIP, NodeName: nodeName(p), TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}}
		if podReady(p) {
			s.Addresses = append(s.Addresses, a)
		} else {
			s.NotReadyAddresses = append(s.NotReadyAddresses, a)
		}
	}
	return s
}

// matching returns the items keep accepts, never nil (a list answer has an empty items
// array, not a null one).
func matching[T any](items []T, keep func(*T) bool) []T {
	out := []T{}
	for i := range items {
		if keep(&items[i]) {
			out = append(out, items[i])
		}
	}
	return out
}
