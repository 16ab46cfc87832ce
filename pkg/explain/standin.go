//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which the stand-in serves

package explain

import (
	"encoding/json"
	"fmt"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	k8slabels "k8s.io/apimachinery/pkg/labels"
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
	Ingresses      []networkingv1.Ingress
}

// standIn is a read-only API server serving Objects: lists filtered by namespace, label
// and field selector (metadata.name, metadata.namespace, spec.nodeName), and watches that
// stay open without events.
type standIn struct{ o *Objects }

// NewStandIn returns the read-only stand-in API server for objs, with the Endpoints and
// EndpointSlices the cluster's controllers would add to them (see Derive).
func NewStandIn(objs *Objects) http.Handler {
	o, _ := Derive(objs)
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
	case "ingresses":
		list = listOf("IngressList", "networking.k8s.io/v1", matching(s.o.Ingresses, func(o *networkingv1.Ingress) bool { return match(o.ObjectMeta, "") }))
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
