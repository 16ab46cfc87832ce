//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which offline manifests may hold

package explain

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Offline builds explain's input from manifests read by render.Load: the Services,
// Endpoints, EndpointSlices, Pods, Nodes and Namespaces in them stand for the cluster and
// are served to Prometheus's discovery by the stand-in API server. A namespace with no
// Namespace manifest exists, without labels, when some object lives in it.
func Offline(objs *render.Objects, subject Subject) (Input, error) {
	var cl Objects
	in := Input{Assets: assets.NewStatic(objs.Secrets, objs.ConfigMaps)}
	in.Prometheuses = append(in.Prometheuses, objs.Prometheuses...)
	for _, d := range objs.Others {
		var into runtime.Object
		switch d.GroupVersionKind().GroupKind().String() {
		case "Service":
			cl.Services = append(cl.Services, corev1.Service{})
			into = &cl.Services[len(cl.Services)-1]
		case "Endpoints":
			cl.Endpoints = append(cl.Endpoints, corev1.Endpoints{})
			into = &cl.Endpoints[len(cl.Endpoints)-1]
		case "EndpointSlice.discovery.k8s.io":
			cl.EndpointSlices = append(cl.EndpointSlices, discoveryv1.EndpointSlice{})
			into = &cl.EndpointSlices[len(cl.EndpointSlices)-1]
		case "Pod":
			cl.Pods = append(cl.Pods, corev1.Pod{})
			into = &cl.Pods[len(cl.Pods)-1]
		case "Node":
			cl.Nodes = append(cl.Nodes, corev1.Node{})
			into = &cl.Nodes[len(cl.Nodes)-1]
		case "PrometheusAgent.monitoring.coreos.com":
			a := &monitoringv1alpha1.PrometheusAgent{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(d.Object, a, true); err != nil {
				return in, fmt.Errorf("%s %s/%s (%s): %w", d.GetKind(), d.GetNamespace(), d.GetName(), d.Source, err)
			}
			in.Prometheuses = append(in.Prometheuses, workload.AgentView(a))
			continue
		default:
			continue
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(d.Object, into, true); err != nil {
			return in, fmt.Errorf("%s %s/%s (%s): %w", d.GetKind(), d.GetNamespace(), d.GetName(), d.Source, err)
		}
	}
	for _, n := range objs.Namespaces {
		cl.Namespaces = append(cl.Namespaces, *n)
	}
	SortPrometheuses(in.Prometheuses)
	in.Candidates = pipeline.Candidates{ServiceMonitors: objs.ServiceMonitors, PodMonitors: objs.PodMonitors, Probes: objs.Probes, ScrapeConfigs: objs.ScrapeConfigs}
	in.NamespaceLabels = offlineNamespaces(objs)
	in.API = NewStandIn(&cl)
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

func offlineNamespaces(objs *render.Objects) func(string) (map[string]string, bool) {
	known := map[string]map[string]string{}
	for _, n := range objs.Namespaces {
		known[n.Name] = n.Labels
	}
	seen := map[string]bool{}
	add := func(ns string) { seen[ns] = true }
	for _, o := range objs.ServiceMonitors {
		add(o.Namespace)
	}
	for _, o := range objs.PodMonitors {
		add(o.Namespace)
	}
	for _, o := range objs.Prometheuses {
		add(o.Namespace)
	}
	for _, o := range objs.Others {
		add(o.GetNamespace())
	}

	return func(ns string) (map[string]string, bool) {
		if l, ok := known[ns]; ok {
			return l, true
		}
		return nil, seen[ns]
	}
}
