package render

import (
	"fmt"
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Objects are the manifests render works from.
type Objects struct {
	Prometheuses []*promserver.Server
	// Agents are the PrometheusAgents, rendered by RenderAgents only; their documents
	// are in Others too (render skips them, explain reads them from there).
	Agents []*promserver.Server
	// Alertmanagers and ThanosRulers are rendered with --objects only, Alertmanagers
	// with the AlertmanagerConfigs they select.
	Alertmanagers       []*monitoringv1.Alertmanager
	AlertmanagerConfigs []*monitoringv1alpha1.AlertmanagerConfig
	ThanosRulers        []*monitoringv1.ThanosRuler
	// Monitors are the monitors of every kind.
	Monitors        monitorkind.Set
	PrometheusRules []*monitoringv1.PrometheusRule
	Secrets         []*corev1.Secret
	ConfigMaps      []*corev1.ConfigMap
	Namespaces      []*corev1.Namespace
	// Others are the documents of other kinds, and the Alertmanager, AlertmanagerConfig
	// and ThanosRuler documents, which only plans read (explain reads Services,
	// EndpointSlices, Pods and PrometheusAgents from them).
	Others []manifest.Object
}

// Load reads manifests from files and directories ("-" for standard input). Objects
// without a namespace get defaultNamespace. Unknown fields are errors naming the object,
// so a typo does not silently change the output.
func Load(defaultNamespace string, paths ...string) (*Objects, error) {
	docs, err := manifest.ReadPaths(paths...)
	if err != nil {
		return nil, err
	}
	return FromDocuments(defaultNamespace, docs)
}

// FromDocuments sorts documents already read (manifest.ReadPaths, or from the cluster by
// `diff --live`) into Objects as Load does; documents without a namespace get
// defaultNamespace, set on the document too.
func FromDocuments(defaultNamespace string, docs []manifest.Object) (*Objects, error) {
	o := &Objects{}
	for _, d := range docs {
		if d.GetNamespace() == "" && d.GetKind() != "Namespace" {
			d.SetNamespace(defaultNamespace)
		}
		var into runtime.Object
		gk := d.GroupVersionKind().GroupKind()
		if k := monitorkind.Named(gk.Kind); k != nil && gk.Group == monitoringv1.SchemeGroupVersion.Group {
			obj := k.New()
			if err := fromUnstructured(d, obj); err != nil {
				return nil, err
			}
			k.Append(&o.Monitors, obj)
			continue
		}
		switch gk.String() {
		case "Prometheus.monitoring.coreos.com":
			p := &monitoringv1.Prometheus{}
			o.Prometheuses, into = append(o.Prometheuses, promserver.Of(p)), p
		case "PrometheusRule.monitoring.coreos.com":
			into = add(&o.PrometheusRules)
		case "Alertmanager.monitoring.coreos.com":
			into, o.Others = add(&o.Alertmanagers), append(o.Others, d)
		case "AlertmanagerConfig.monitoring.coreos.com":
			into, o.Others = add(&o.AlertmanagerConfigs), append(o.Others, d)
		case "ThanosRuler.monitoring.coreos.com":
			into, o.Others = add(&o.ThanosRulers), append(o.Others, d)
		case "PrometheusAgent.monitoring.coreos.com":
			a := &monitoringv1alpha1.PrometheusAgent{}
			o.Agents, o.Others, into = append(o.Agents, promserver.Of(a)), append(o.Others, d), a
		case "Secret":
			into = add(&o.Secrets)
		case "ConfigMap":
			into = add(&o.ConfigMaps)
		case "Namespace":
			into = add(&o.Namespaces)
		default:
			o.Others = append(o.Others, d)
			continue
		}
		if err := fromUnstructured(d, into); err != nil {
			return nil, err
		}
	}
	// Secrets written with stringData are what the API server would store as data.
	for _, s := range o.Secrets {
		for k, v := range s.StringData {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
	}
	sortByName(o.Prometheuses)
	sortByName(o.Agents)
	sortByName(o.Alertmanagers)
	sortByName(o.ThanosRulers)
	return o, nil
}

// planKinds are the kinds only plans (render --objects) read.
var planKinds = map[string]bool{
	"Alertmanager.monitoring.coreos.com": true, "AlertmanagerConfig.monitoring.coreos.com": true, "ThanosRuler.monitoring.coreos.com": true,
}

// Skipped names the documents render does not read, as "Kind namespace/name (source)":
// the Alertmanagers, AlertmanagerConfigs and ThanosRulers too unless objects (render
// --objects, which prints their plans).
func (o *Objects) Skipped(objects bool) []string {
	var out []string
	for _, d := range o.Others {
		if objects && planKinds[d.GroupVersionKind().GroupKind().String()] {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s/%s (%s)", d.GetKind(), d.GetNamespace(), d.GetName(), d.Source))
	}
	return out
}

// sortByName sorts objects by namespace and name.
func sortByName[T metav1.Object](objs []T) {
	sort.Slice(objs, func(i, j int) bool {
		return objs[i].GetNamespace()+"/"+objs[i].GetName() < objs[j].GetNamespace()+"/"+objs[j].GetName()
	})
}

// NamespaceLabels returns the labels of Namespace manifests; a namespace some object lives
// in but no manifest describes exists without labels.
func (o *Objects) NamespaceLabels() func(string) (map[string]string, bool) {
	known := map[string]map[string]string{}
	for _, n := range o.Namespaces {
		known[n.Name] = n.Labels
	}
	seen := map[string]bool{}
	for _, k := range monitorkind.All {
		k.Each(&o.Monitors, func(m client.Object) { seen[m.GetNamespace()] = true })
	}
	for _, p := range o.Prometheuses {
		seen[p.Namespace] = true
	}
	for _, r := range o.PrometheusRules {
		seen[r.Namespace] = true
	}
	for _, d := range o.Others {
		seen[d.GetNamespace()] = true
	}
	return func(ns string) (map[string]string, bool) {
		if l, ok := known[ns]; ok {
			return l, true
		}
		return nil, seen[ns]
	}
}

// add appends a new empty object to list and returns it, to be decoded into.
func add[T any, PT interface {
	*T
	runtime.Object
}](list *[]PT) runtime.Object {
	obj := PT(new(T))
	*list = append(*list, obj)
	return obj
}

// fromUnstructured decodes a manifest into obj; unknown fields are errors naming it.
func fromUnstructured(d manifest.Object, obj runtime.Object) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(d.Object, obj, true); err != nil {
		return fmt.Errorf("%s %s/%s (%s): %w", d.GetKind(), d.GetNamespace(), d.GetName(), d.Source, err)
	}
	return nil
}
