//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which offline manifests may hold

package explain

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/manifest"
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
			err = appendDecoded(&cl.Nodes, d)
		case "PrometheusAgent.monitoring.coreos.com":
			var agents []monitoringv1alpha1.PrometheusAgent
			if err = appendDecoded(&agents, d); err == nil {
				in.Prometheuses = append(in.Prometheuses, workload.AgentView(&agents[0]))
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

// appendDecoded converts the manifest d into a T and appends it to list.
func appendDecoded[T any](list *[]T, d manifest.Object) error {
	var v T
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(d.Object, &v, true); err != nil {
		return fmt.Errorf("%s %s/%s (%s): %w", d.GetKind(), d.GetNamespace(), d.GetName(), d.Source, err)
	}
	*list = append(*list, v)
	return nil
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
