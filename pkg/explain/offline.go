//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which offline manifests may hold

package explain

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/render"
)

// Offline builds explain's input from manifests read by render.Load: the Services,
// Endpoints, EndpointSlices, Pods, Nodes, Ingresses and Namespaces in them stand for the cluster and
// are served to Prometheus's discovery by the stand-in API server. A namespace with no
// Namespace manifest exists, without labels, when some object lives in it.
func Offline(objs *render.Objects, subject Subject) (Input, error) {
	var cl Objects
	in := Input{Assets: assets.NewStatic(objs.Secrets, objs.ConfigMaps)}
	in.Prometheuses = append(in.Prometheuses, objs.Prometheuses...)
	for _, d := range objs.Others {
		var err error
		switch d.GroupVersionKind().GroupKind().String() {
		case "Service":
			err = appendDecoded(&cl.Services, d)
		case "Endpoints":
			err = appendDecoded(&cl.Endpoints, d)
		case "EndpointSlice.discovery.k8s.io":
			err = appendDecoded(&cl.EndpointSlices, d)
		case "Pod":
			err = appendDecoded(&cl.Pods, d)
		case "Node":
			if err = appendDecoded(&cl.Nodes, d); err == nil {
				cl.Nodes[len(cl.Nodes)-1].Namespace = "" // cluster-scoped, whatever -n says
			}
		case "Ingress.networking.k8s.io":
			err = appendDecoded(&cl.Ingresses, d)
		case "PrometheusAgent.monitoring.coreos.com":
			var agents []monitoringv1alpha1.PrometheusAgent
			if err = appendDecoded(&agents, d); err == nil {
				in.Prometheuses = append(in.Prometheuses, promserver.Of(&agents[0]))
			}
		}
		if err != nil {
			return in, err
		}
	}
	for _, n := range objs.Namespaces {
		cl.Namespaces = append(cl.Namespaces, *n)
	}
	SortPrometheuses(in.Prometheuses)
	in.Candidates = objs.Monitors
	in.NamespaceLabels = objs.NamespaceLabels()
	in.API = NewStandIn(&cl)
	_, in.Unanswered = Derive(&cl)
	in.Services = cl.Services
	switch subject.Kind {
	case KindService:
		for i := range cl.Services {
			if cl.Services[i].Namespace == subject.Namespace && cl.Services[i].Name == subject.Name {
				in.Service = &cl.Services[i]
			}
		}
	case KindPod:
		for i := range cl.Pods {
			if cl.Pods[i].Namespace == subject.Namespace && cl.Pods[i].Name == subject.Name {
				in.Pod = &cl.Pods[i]
			}
		}
	}
	return in, nil
}

// appendDecoded converts the manifest d into a T and appends it to list.
func appendDecoded[T any](list *[]T, d manifest.Object) error {
	var v T
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(d.Object, &v, true); err != nil {
		return fmt.Errorf("%s %s/%s (%s): %w", d.GetKind(), d.GetNamespace(), d.GetName(), d.Source, err)
	}
	*list = append(*list, v)
	return nil
}
