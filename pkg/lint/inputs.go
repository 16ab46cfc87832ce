package lint

import (
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lookout-operator/lookout/pkg/costtop"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// DefaultScrapeInterval is a Prometheus's scrape interval when spec.scrapeInterval is
// unset (upstream's default).
const DefaultScrapeInterval = 30 * time.Second

// Inputs are what the checks read: the objects, what render decides for each Prometheus
// and ThanosRuler, and the Services and pods (Pods and the pod templates of workloads)
// that stand for the cluster.
type Inputs struct {
	Objects      *render.Objects
	Prometheuses []render.Output
	ThanosRulers []render.ThanosRulerOutput
	Services     []corev1.Service
	Pods         []Pod

	// operatorServices are the Services the operator keeps (the kubelet's): selectable,
	// but they say nothing of what else the files describe.
	operatorServices []corev1.Service

	servicesByNS  map[string][]service
	podsByNS      map[string][]*Pod
	allNamespaces []string

	// live is live mode; inCluster holds the keys of the cluster's objects and
	// measured what their targets expose (nil: not measured).
	live      bool
	inCluster map[string]bool
	measured  *costtop.Report

	selected       map[string][]*promserver.Server
	verdicts       map[string][]Verdict
	thanosSelected map[string]bool
}

// Pod is a Pod, or the pod template of a workload (Deployment, StatefulSet, DaemonSet,
// ReplicaSet, Job, CronJob), in a namespace.
type Pod struct {
	Namespace string
	// Owner names the object ("Deployment/web").
	Owner      string
	Labels     map[string]string
	Containers []corev1.Container
}

// templatePaths are where each workload kind keeps its pod template.
var templatePaths = map[string][]string{
	"Deployment": {"spec", "template"}, "StatefulSet": {"spec", "template"}, "DaemonSet": {"spec", "template"},
	"ReplicaSet": {"spec", "template"}, "Job": {"spec", "template"}, "CronJob": {"spec", "jobTemplate", "spec", "template"},
}

// NewInputs renders objs (render.Render, render.RenderThanosRulers) and collects their
// Services and pods, and the kubelet Service the operator of the files keeps.
func NewInputs(objs *render.Objects) (*Inputs, error) {
	in := &Inputs{Objects: objs}
	var err error
	if in.Prometheuses, err = render.Render(objs, render.Options{}); err != nil {
		return nil, err
	}
	if in.ThanosRulers, err = render.RenderThanosRulers(objs, render.Options{}); err != nil {
		return nil, err
	}
	for _, d := range objs.Others {
		gvk := d.GroupVersionKind()
		switch {
		case gvk.Group == "" && gvk.Kind == "Service":
			var s corev1.Service
			if err := convert(d.Object, &s); err != nil {
				return nil, err
			}
			in.Services = append(in.Services, s)
		case gvk.Group == "" && gvk.Kind == "Pod":
			var p corev1.Pod
			if err := convert(d.Object, &p); err != nil {
				return nil, err
			}
			in.Pods = append(in.Pods, Pod{Namespace: p.Namespace, Owner: "Pod/" + p.Name, Labels: p.Labels, Containers: p.Spec.Containers})
		case templatePaths[gvk.Kind] != nil && (gvk.Group == "apps" || gvk.Group == "batch"):
			p, err := templateOf(d, templatePaths[gvk.Kind])
			if err != nil {
				return nil, err
			}
			in.Pods = append(in.Pods, p)
		}
	}
	in.operatorServices = kubeletServices(in.Pods)
	in.index()
	in.indexWorkloads()
	return in, nil
}

func templateOf(d manifest.Object, path []string) (Pod, error) {
	p := Pod{Namespace: d.GetNamespace(), Owner: d.GetKind() + "/" + d.GetName()}
	raw, ok, _ := unstructured.NestedMap(d.Object, path...)
	if !ok {
		return p, nil
	}
	var t corev1.PodTemplateSpec
	if err := convert(raw, &t); err != nil {
		return p, err
	}
	p.Labels, p.Containers = t.Labels, t.Spec.Containers
	return p, nil
}

func convert(u map[string]any, into any) error {
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u, into)
}

// HasServers reports whether the files hold a Prometheus or ThanosRuler: only then can
// they say what is not selected.
func (in *Inputs) HasServers() bool {
	return len(in.Prometheuses)+len(in.ThanosRulers) > 0
}

// SelectedBy returns the Prometheuses whose verdict on the object kind namespace/name
// binds it (selected, whether valid or not).
func (in *Inputs) SelectedBy(kind, namespace, name string) []*promserver.Server {
	return in.selected[key(kind, namespace, name)]
}

// Verdicts returns the verdicts of every Prometheus and ThanosRuler on the object.
func (in *Inputs) Verdicts(kind, namespace, name string) []Verdict {
	return in.verdicts[key(kind, namespace, name)]
}

// Verdict is the verdict of one Prometheus or ThanosRuler on an object.
type Verdict struct {
	selection.Verdict
	// By names the judge: "Prometheus mon/k8s".
	By string
}

// ruleSelectedByThanos reports whether a ThanosRuler selects the PrometheusRule.
func (in *Inputs) ruleSelectedByThanos(namespace, name string) bool {
	return in.thanosSelected[key(monitoringv1.PrometheusRuleKind, namespace, name)]
}

func key(kind, namespace, name string) string { return kind + " " + namespace + "/" + name }

// index builds the lookups of SelectedBy, Verdicts and ruleSelectedByThanos.
func (in *Inputs) index() {
	in.selected, in.verdicts, in.thanosSelected = map[string][]*promserver.Server{}, map[string][]Verdict{}, map[string]bool{}
	for _, o := range in.Prometheuses {
		by := o.Prometheus.Kind() + " " + o.Prometheus.Namespace + "/" + o.Prometheus.Name
		for _, v := range o.Verdicts {
			k := key(v.Kind, v.Namespace, v.Name)
			in.verdicts[k] = append(in.verdicts[k], Verdict{Verdict: v, By: by})
			if v.Binds() {
				in.selected[k] = append(in.selected[k], o.Prometheus)
			}
		}
	}
	for _, o := range in.ThanosRulers {
		by := "ThanosRuler " + o.ThanosRuler.Namespace + "/" + o.ThanosRuler.Name
		for _, v := range o.Verdicts {
			k := key(v.Kind, v.Namespace, v.Name)
			in.verdicts[k] = append(in.verdicts[k], Verdict{Verdict: v, By: by})
			if v.Binds() {
				in.thanosSelected[k] = true
			}
		}
	}
}

// ScrapeInterval returns the largest scrape interval of the Prometheuses in ps
// (DefaultScrapeInterval for one without spec.scrapeInterval, and when ps is empty).
func ScrapeInterval(ps []*promserver.Server) time.Duration {
	longest := time.Duration(0)
	for _, p := range ps {
		d := DefaultScrapeInterval
		if p.Spec.ScrapeInterval != "" {
			if v, err := parseDuration(string(p.Spec.ScrapeInterval)); err == nil {
				d = v
			}
		}
		longest = max(longest, d)
	}
	if longest == 0 {
		return DefaultScrapeInterval
	}
	return longest
}
