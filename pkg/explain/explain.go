//lint:file-ignore SA1019 a PodMonitor endpoint's deprecated targetPort is still honoured, so explain names it

package explain

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery/kubernetes"
	"github.com/prometheus/prometheus/discovery/targetgroup"
	yaml "go.yaml.in/yaml/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Input is what explain reads: the Prometheus and PrometheusAgent objects, the monitors, namespace labels and assets, and the API server
// discovery reads.
type Input struct {
	Prometheuses    []*promserver.Server
	Candidates      pipeline.Candidates
	NamespaceLabels selection.NamespaceLabels
	Assets          promcfg.Assets
	// API serves discovery's reads: NewClusterAPI or NewStandIn.
	API http.Handler
	// Service is the subject of a Service explanation, Pod that of a Pod explanation;
	// Services are the Services of the Pod's namespace (a ServiceMonitor reaches a Pod
	// through a Service selecting it).
	Service  *corev1.Service
	Pod      *corev1.Pod
	Services []corev1.Service
	// Notes collects what could not be read (nil offline).
	Notes *Notes
	// Unanswered are, by "namespace/name", the Services whose endpoints the input
	// cannot answer for, with what is missing (offline: see Derive).
	Unanswered map[string]string
}

// Options are the operator's selection settings, as its flags give them.
type Options struct {
	// MonitorScope is --namespaces / --deny-namespaces; PrometheusScope adds
	// --prometheus-instance-namespaces. Zero: every namespace.
	MonitorScope, PrometheusScope selection.Scope
	// InstanceSelector is --prometheus-instance-selector (nil: every Prometheus).
	InstanceSelector k8slabels.Selector
	// InstanceSelectorText is the flag as written, for messages.
	InstanceSelectorText string
	// ControllerID is --controller-id.
	ControllerID string
	// Prometheus limits the explanation to one Prometheus or PrometheusAgent
	// ("namespace/name" or "name").
	Prometheus string
	// Timeout bounds each discovery run (DefaultDiscoveryTimeout when zero).
	Timeout time.Duration
}

// Explain follows subject through the chain of every Prometheus in in.
func Explain(ctx context.Context, in Input, subject Subject, opts Options) (*Report, error) {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultDiscoveryTimeout
	}
	rep := &Report{Subject: subject}
	monitors, err := subjectMonitors(in, subject, rep)
	if err != nil {
		return nil, err
	}
	e := &explainer{in: in, opts: opts, discovered: map[string]discovered{}}
	for _, p := range in.Prometheuses {
		if opts.Prometheus != "" && opts.Prometheus != p.Name && opts.Prometheus != p.Namespace+"/"+p.Name {
			continue
		}
		rep.Instances = append(rep.Instances, e.instance(ctx, p, monitors, subject))
	}
	if opts.Prometheus != "" && len(rep.Instances) == 0 {
		return nil, fmt.Errorf("no Prometheus or PrometheusAgent %q", opts.Prometheus)
	}
	if len(in.Prometheuses) == 0 {
		rep.Problems = append(rep.Problems, "there is no Prometheus or PrometheusAgent to select it")
	}
	rep.Problems = append(rep.Problems, in.Notes.all()...)
	rep.OK, rep.Unknown = judge(rep)
	return rep, nil
}

// judge: ok when some Prometheus uses a monitor and every endpoint of every monitor used
// has a kept target; unknown when some Prometheus uses a monitor and every endpoint
// without a kept target is one the input cannot answer for (Endpoint.Unknown).
func judge(rep *Report) (ok, unknown bool) {
	used, failed := false, false
	for _, inst := range rep.Instances {
		for _, m := range inst.Monitors {
			if !m.Used() {
				continue
			}
			used = true
			for _, ep := range m.Endpoints {
				switch {
				case ep.Kept > 0:
				case ep.Undetermined():
					unknown = true
				default:
					failed = true
				}
			}
		}
	}
	return used && !failed && !unknown, used && !failed && unknown
}

// named returns the monitors of list that are the subject s; none is an error.
func named[T metav1.Object](list []T, s Subject) ([]T, error) {
	var out []T
	for _, m := range list {
		if m.GetNamespace() == s.Namespace && m.GetName() == s.Name {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no %s %s/%s", s.Kind, s.Namespace, s.Name)
	}
	return out, nil
}

// subjectMonitors returns the candidates whose chain explain follows: the monitor
// itself, or the monitors that reach a Service or Pod (the others within reach are
// recorded as near misses).
func subjectMonitors(in Input, s Subject, rep *Report) (pipeline.Candidates, error) {
	var c pipeline.Candidates
	switch s.Kind {
	case KindServiceMonitor:
		var err error
		if c.ServiceMonitors, err = named(in.Candidates.ServiceMonitors, s); err != nil {
			return c, err
		}
	case KindPodMonitor:
		var err error
		if c.PodMonitors, err = named(in.Candidates.PodMonitors, s); err != nil {
			return c, err
		}
	case KindProbe:
		var err error
		if c.Probes, err = named(in.Candidates.Probes, s); err != nil {
			return c, err
		}
	case KindScrapeConfig:
		var err error
		if c.ScrapeConfigs, err = named(in.Candidates.ScrapeConfigs, s); err != nil {
			return c, err
		}
	case KindService:
		if in.Service == nil {
			return c, fmt.Errorf("no Service %s/%s", s.Namespace, s.Name)
		}
		c.ServiceMonitors = reachingServiceMonitors(in.Candidates.ServiceMonitors, []corev1.Service{*in.Service}, rep)
	case KindPod:
		if in.Pod == nil {
			return c, fmt.Errorf("no Pod %s/%s", s.Namespace, s.Name)
		}
		var svcs []corev1.Service
		for _, svc := range in.Services {
			if svc.Namespace == in.Pod.Namespace && len(svc.Spec.Selector) > 0 && k8slabels.SelectorFromSet(svc.Spec.Selector).Matches(k8slabels.Set(in.Pod.Labels)) {
				svcs = append(svcs, svc)
			}
		}
		c.ServiceMonitors = reachingServiceMonitors(in.Candidates.ServiceMonitors, svcs, rep)
		for _, pm := range in.Candidates.PodMonitors {
			if !inNamespaces(pm.Namespace, pm.Spec.NamespaceSelector, in.Pod.Namespace) {
				continue
			}
			if sel, err := metav1.LabelSelectorAsSelector(&pm.Spec.Selector); err == nil && sel.Matches(k8slabels.Set(in.Pod.Labels)) {
				c.PodMonitors = append(c.PodMonitors, pm)
				continue
			}
			rep.NearMisses = append(rep.NearMisses, NearMiss{Kind: KindPodMonitor, Namespace: pm.Namespace, Name: pm.Name,
				Message: fmt.Sprintf("selects pods with %s: %s", selectorString(&pm.Spec.Selector), selectorGap(&pm.Spec.Selector, in.Pod.Labels, "the Pod"))})
		}
	default:
		return c, fmt.Errorf("cannot explain a %s: explain ServiceMonitor, PodMonitor, Probe, ScrapeConfig, Service or Pod", s.Kind)
	}
	if (s.Kind == KindService || s.Kind == KindPod) && len(c.ServiceMonitors)+len(c.PodMonitors) == 0 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("no ServiceMonitor or PodMonitor reaches %s %s/%s", s.Kind, s.Namespace, s.Name))
	}
	return c, nil
}

// reachingServiceMonitors returns the ServiceMonitors whose namespace and label selectors
// take in one of svcs; those whose namespace selector takes one in but whose label
// selector does not are near misses.
func reachingServiceMonitors(all []*monitoringv1.ServiceMonitor, svcs []corev1.Service, rep *Report) []*monitoringv1.ServiceMonitor {
	var out []*monitoringv1.ServiceMonitor
	for _, sm := range all {
		var miss []string
		reached := false
		for _, svc := range svcs {
			if !inNamespaces(sm.Namespace, sm.Spec.NamespaceSelector, svc.Namespace) {
				continue
			}
			sel, err := metav1.LabelSelectorAsSelector(&sm.Spec.Selector)
			if err == nil && sel.Matches(k8slabels.Set(svc.Labels)) {
				reached = true
				break
			}
			miss = append(miss, selectorGap(&sm.Spec.Selector, svc.Labels, "Service "+svc.Name))
		}
		switch {
		case reached:
			out = append(out, sm)
		case len(miss) > 0:
			rep.NearMisses = append(rep.NearMisses, NearMiss{Kind: KindServiceMonitor, Namespace: sm.Namespace, Name: sm.Name,
				Message: fmt.Sprintf("selects Services with %s: %s", selectorString(&sm.Spec.Selector), strings.Join(miss, "; "))})
		}
	}
	return out
}

// inNamespaces reports whether a monitor of namespace own with namespace selector ns
// discovers objects of namespace target.
func inNamespaces(own string, ns monitoringv1.NamespaceSelector, target string) bool {
	switch {
	case ns.Any:
		return true
	case len(ns.MatchNames) > 0:
		for _, n := range ns.MatchNames {
			if n == target {
				return true
			}
		}
		return false
	}
	return own == target
}

// discovered is the outcome of one discovery run, shared by the jobs with the same
// kubernetes_sd_configs entry.
type discovered struct {
	groups []*targetgroup.Group
	err    error
}

type explainer struct {
	in         Input
	opts       Options
	discovered map[string]discovered
}

// managed is the operator's check of p (write.Managed), saying which part fails.
func (e *explainer) managed(p *promserver.Server) Step {
	kind := p.Kind()
	switch {
	case !e.opts.PrometheusScope.Contains(p.Namespace):
		return Step{Message: fmt.Sprintf("the operator does not watch namespace %q for %s objects (it watches: %s; flags --prometheus-instance-namespaces, --namespaces, --deny-namespaces)", p.Namespace, kind, e.opts.PrometheusScope)}
	case p.Annotations[layout.ControllerIDAnnotation] != e.opts.ControllerID:
		return Step{Message: fmt.Sprintf("annotation %s is %q; the operator's --controller-id is %q", layout.ControllerIDAnnotation, p.Annotations[layout.ControllerIDAnnotation], e.opts.ControllerID)}
	case e.opts.InstanceSelector != nil && !e.opts.InstanceSelector.Matches(k8slabels.Set(p.Labels)):
		gap := ""
		if ls, err := metav1.ParseToLabelSelector(e.opts.InstanceSelectorText); err == nil {
			gap = ": " + selectorGap(ls, p.Labels, "the "+kind)
		}
		return Step{Message: fmt.Sprintf("the %s's labels do not match --prometheus-instance-selector %q%s", kind, e.opts.InstanceSelectorText, gap)}
	}
	inst := "every instance"
	if e.opts.InstanceSelectorText != "" {
		inst = fmt.Sprintf("%q", e.opts.InstanceSelectorText)
	}
	return Step{OK: true, Message: fmt.Sprintf("managed: namespace %q is watched (%s), instance selector %s matches, controller ID %q", p.Namespace, e.opts.PrometheusScope, inst, e.opts.ControllerID)}
}

func (e *explainer) instance(ctx context.Context, p *promserver.Server, c pipeline.Candidates, subject Subject) Instance {
	inst := Instance{Kind: p.Kind(), Namespace: p.Namespace, Name: p.Name, Managed: e.managed(p)}
	if !inst.Managed.OK {
		return inst
	}
	sel, err := pipeline.Compile(p)
	if err != nil {
		inst.Error = err.Error()
		return inst
	}
	run := pipeline.Run(promcfg.NewGenerator(), pipeline.Input{
		Prometheus: p, Selectors: sel, Candidates: c, Scope: e.opts.MonitorScope,
		NamespaceLabels: e.in.NamespaceLabels, Assets: e.in.Assets,
	})
	if run.Err != nil {
		inst.Error = "no configuration would be generated: " + run.Err.Error()
	}
	var shards []*config.Config
	loadErr := ""
	if run.Result != nil {
		shards, err = loadShards(p, run.Result.Config)
		if err != nil {
			loadErr = err.Error()
		}
	}
	var mons []mon
	for _, sm := range c.ServiceMonitors {
		m := mon{kind: KindServiceMonitor, ns: sm.Namespace, name: sm.Name, lsel: p.Spec.ServiceMonitorSelector, nsel: p.Spec.ServiceMonitorNamespaceSelector, lbls: sm.Labels, svcSel: &sm.Spec.Selector}
		for i, ep := range sm.Spec.Endpoints {
			m.jobs, m.ports = append(m.jobs, jobPrefix(m.kind, m.ns, m.name)+strconv.Itoa(i)), append(m.ports, smPort(ep))
		}
		mons = append(mons, m)
	}
	for _, pm := range c.PodMonitors {
		m := mon{kind: KindPodMonitor, ns: pm.Namespace, name: pm.Name, lsel: p.Spec.PodMonitorSelector, nsel: p.Spec.PodMonitorNamespaceSelector, lbls: pm.Labels}
		for i, ep := range pm.Spec.PodMetricsEndpoints {
			m.jobs, m.ports = append(m.jobs, jobPrefix(m.kind, m.ns, m.name)+strconv.Itoa(i)), append(m.ports, pmPort(ep))
		}
		mons = append(mons, m)
	}
	mons = append(mons, probeMonitors(p, c.Probes)...)
	mons = append(mons, scrapeConfigMonitors(p, c.ScrapeConfigs)...)
	for _, m := range mons {
		v := findVerdict(run.Verdicts[m.kind], m.ns, m.name)
		mr := Monitor{Kind: m.kind, Namespace: m.ns, Name: m.name, Reason: string(v.Reason)}
		nsLabels, _ := e.in.NamespaceLabels(m.ns)
		switch v.Reason {
		case selection.NamespaceNotWatched:
			mr.NamespaceSelection = Step{Message: v.Message + fmt.Sprintf(" (it watches: %s; flags --namespaces, --deny-namespaces)", e.opts.MonitorScope)}
		case selection.NamespaceNotSelected:
			msg := v.Message
			if gap := selectorGap(m.nsel, nsLabels, fmt.Sprintf("namespace %q", m.ns)); gap != "" {
				msg += ": " + gap
			}
			mr.NamespaceSelection = Step{Message: msg}
		default:
			mr.NamespaceSelection = Step{OK: true, Message: fmt.Sprintf("namespace %q is watched and selected by the %s namespace selector %s", m.ns, m.kind, nsSelectorString(m.nsel, p.Namespace))}
		}
		if mr.NamespaceSelection.OK {
			if v.Reason == selection.NotSelectedByLabels {
				msg := v.Message
				if gap := selectorGap(m.lsel, m.lbls, "the "+m.kind); gap != "" {
					msg += ": " + gap
				}
				mr.Selection = Step{Message: msg}
			} else {
				mr.Selection = Step{OK: true, Message: fmt.Sprintf("selected by the %s selector %s", m.kind, selectorString(m.lsel))}
			}
		}
		if mr.Selection.OK {
			switch {
			case v.Reason == selection.InvalidConfiguration:
				mr.Verdict = Step{Message: "rejected: " + v.Message}
			case v.Reason == selection.Accepted && run.Result != nil:
				mr.Verdict = Step{OK: true, Message: "accepted"}
			case v.Reason == selection.Accepted:
				mr.Verdict = Step{Message: "selected, but the Prometheus's configuration cannot be generated"}
			default:
				mr.Verdict = Step{Message: fmt.Sprintf("%s: %s", v.Reason, v.Message)}
			}
		}
		if mr.Verdict.OK {
			mr.Endpoints = e.endpoints(ctx, m.jobs, m.ports, shards, loadErr, subject, m.svcSel)
		}
		inst.Monitors = append(inst.Monitors, mr)
	}
	return inst
}

func nsSelectorString(sel *metav1.LabelSelector, own string) string {
	if sel == nil {
		return fmt.Sprintf("<unset: only %q>", own)
	}
	return selectorString(sel)
}

func findVerdict(vs []selection.Verdict, ns, name string) selection.Verdict {
	for _, v := range vs {
		if v.Namespace == ns && v.Name == name {
			return v
		}
	}
	return selection.Verdict{Reason: selection.NotSelectedByLabels, Message: "not considered"}
}

func smPort(ep monitoringv1.Endpoint) string {
	switch {
	case ep.Port != "":
		return "port " + ep.Port
	case ep.TargetPort != nil:
		return "targetPort " + ep.TargetPort.String()
	}
	return ""
}

func pmPort(ep monitoringv1.PodMetricsEndpoint) string {
	switch {
	case ep.Port != nil && *ep.Port != "":
		return "port " + *ep.Port
	case ep.PortNumber != nil:
		return "portNumber " + strconv.Itoa(int(*ep.PortNumber))
	case ep.TargetPort != nil:
		return "targetPort " + ep.TargetPort.String()
	}
	return ""
}

// loadShards loads the generated configuration with Prometheus's loader once per shard,
// with $(SHARD) expanded as the config-reloader of each shard's pods expands it.
func loadShards(p *promserver.Server, text []byte) ([]*config.Config, error) {
	n, err := promplan.Shards(p)
	if err != nil {
		return nil, err
	}
	inst := promplan.Instance(p)
	out := make([]*config.Config, 0, n)
	for i := range int(n) {
		s := strings.NewReplacer("$(SHARD)", strconv.Itoa(i), "$(POD_NAME)", inst.StatefulSet(i)+"-0").Replace(string(text))
		cfg, err := promcfg.Load([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("shard %d: %w", i, err)
		}
		out = append(out, cfg)
	}
	return out, nil
}

// jobPrefix is the name prefix of a monitor's jobs ("serviceMonitor/ns/name/").
func jobPrefix(kind, ns, name string) string {
	k := "serviceMonitor"
	if kind == KindPodMonitor {
		k = "podMonitor"
	}
	return k + "/" + ns + "/" + name + "/"
}

// endpoints discovers and relabels the targets of each endpoint's job (jobs[i], asking
// for ports[i]). svcSel is a ServiceMonitor's Service selector (nil for a PodMonitor).
func (e *explainer) endpoints(ctx context.Context, jobs, ports []string, shards []*config.Config, loadErr string, subject Subject, svcSel *metav1.LabelSelector) []Endpoint {
	out := make([]Endpoint, len(jobs))
	for i := range jobs {
		out[i] = Endpoint{Index: i, Job: jobs[i], Port: ports[i], Targets: []Target{}}
		if loadErr != "" {
			out[i].Error = "Prometheus's loader refuses the generated configuration: " + loadErr
			continue
		}
		start := time.Now()
		e.endpoint(ctx, &out[i], shards, subject, svcSel)
		out[i].Seconds = time.Since(start).Seconds()
	}
	return out
}

func (e *explainer) endpoint(ctx context.Context, ep *Endpoint, shards []*config.Config, subject Subject, svcSel *metav1.LabelSelector) {
	jobs := make([]*config.ScrapeConfig, 0, len(shards))
	for _, cfg := range shards {
		for _, j := range cfg.ScrapeConfigs {
			if j.JobName == ep.Job {
				jobs = append(jobs, j)
			}
		}
	}
	if len(jobs) != len(shards) || len(jobs) == 0 {
		ep.Error = fmt.Sprintf("the generated configuration has no job %s", ep.Job)
		return
	}
	var groups []*targetgroup.Group
	var what []string
	var unanswered []string
	for _, sd := range jobs[0].ServiceDiscoveryConfigs {
		k, ok := sd.(*kubernetes.SDConfig)
		if !ok {
			d := e.discoverOther(ctx, sd)
			what = append(what, d.what)
			switch {
			case d.err != nil:
				ep.Error = fmt.Sprintf("discovery (%s): %v", d.what, d.err)
				ep.Discovery = strings.Join(what, "; ")
				return
			case d.unknown != "":
				unanswered = append(unanswered, d.unknown)
			}
			groups = append(groups, d.groups...)
			continue
		}
		nss := "every namespace"
		if len(k.NamespaceDiscovery.Names) > 0 {
			nss = "namespaces " + strings.Join(k.NamespaceDiscovery.Names, ", ")
		}
		what = append(what, fmt.Sprintf("role %s in %s", k.Role, nss))
		if k.Role == kubernetes.RoleEndpoint || k.Role == kubernetes.RoleEndpointSlice {
			unanswered = append(unanswered, e.unanswered(k.NamespaceDiscovery.Names, svcSel, subject)...)
		}
		d := e.discover(ctx, k)
		if d.err != nil {
			ep.Error = fmt.Sprintf("discovery (%s): %v", what[len(what)-1], d.err)
			ep.Discovery = strings.Join(what, "; ")
			return
		}
		groups = append(groups, d.groups...)
	}
	ep.Discovery = strings.Join(what, "; ")
	for _, t := range relabelTargets(jobs, groups) {
		if !concerns(t, subject) {
			continue
		}
		ep.Targets = append(ep.Targets, t)
		if t.Kept {
			ep.Kept++
		}
	}
	sort.Strings(unanswered)
	ep.Unknown = unanswered
}

// unanswered returns what the input lacks for the Services in namespaces (nil: every
// namespace) that sel selects and that concern the subject.
func (e *explainer) unanswered(namespaces []string, sel *metav1.LabelSelector, subject Subject) []string {
	if len(e.in.Unanswered) == 0 || sel == nil {
		return nil
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return nil
	}
	var out []string
	for _, svc := range e.in.Services {
		msg, ok := e.in.Unanswered[svc.Namespace+"/"+svc.Name]
		if !ok || !s.Matches(k8slabels.Set(svc.Labels)) || (len(namespaces) > 0 && !slices.Contains(namespaces, svc.Namespace)) {
			continue
		}
		switch subject.Kind {
		case KindService:
			if svc.Namespace != subject.Namespace || svc.Name != subject.Name {
				continue
			}
		case KindPod:
			if e.in.Pod == nil || svc.Namespace != e.in.Pod.Namespace || len(svc.Spec.Selector) == 0 || !k8slabels.SelectorFromSet(svc.Spec.Selector).Matches(k8slabels.Set(e.in.Pod.Labels)) {
				continue
			}
		}
		out = append(out, msg)
	}
	return out
}

// concerns reports whether a target belongs to a Service or Pod subject (every target
// concerns a monitor subject).
func concerns(t Target, s Subject) bool {
	switch s.Kind {
	case KindService:
		return t.Namespace == s.Namespace && t.Service == s.Name
	case KindPod:
		return t.Namespace == s.Namespace && t.Pod == s.Name
	}
	return true
}

// discover runs (or reuses) the discovery of one kubernetes_sd_configs entry.
func (e *explainer) discover(ctx context.Context, sd *kubernetes.SDConfig) discovered {
	key, err := yaml.Marshal(sd)
	if err == nil {
		if d, ok := e.discovered[string(key)]; ok {
			return d
		}
	}
	groups, derr := discover(ctx, e.in.API, sd, e.opts.Timeout)
	d := discovered{groups: groups, err: derr}
	if err == nil {
		e.discovered[string(key)] = d
	}
	return d
}

// SortPrometheuses orders Prometheus objects by namespace and name, Prometheus before
// PrometheusAgent.
func SortPrometheuses(ps []*promserver.Server) {
	sort.SliceStable(ps, func(i, j int) bool {
		if a, b := ps[i].IsAgent(), ps[j].IsAgent(); a != b {
			return b
		}
		return ps[i].Namespace+"/"+ps[i].Name < ps[j].Namespace+"/"+ps[j].Name
	})
}
