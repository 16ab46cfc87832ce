package explain

import (
	"fmt"
	"sort"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery/targetgroup"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/relabel"
	"github.com/prometheus/prometheus/scrape"
)

// Target is one target Prometheus's discovery found for a job, and what the job's
// relabeling did to it.
type Target struct {
	// Address is the discovered __address__.
	Address string `json:"address"`
	// Namespace, Service and Pod are the objects the target stands for ("" when none).
	Namespace string `json:"namespace,omitempty"`
	Service   string `json:"service,omitempty"`
	Pod       string `json:"pod,omitempty"`
	// PortName is the discovered port's name.
	PortName string `json:"portName,omitempty"`
	// NotReady marks an address Kubernetes reports as not ready.
	NotReady bool `json:"notReady,omitempty"`
	Kept     bool `json:"kept"`
	// Shard is the shard that keeps the target, when the Prometheus has several.
	Shard *int `json:"shard,omitempty"`
	// URL and Labels are the scrape URL and the target's labels, for a kept target.
	URL    string            `json:"url,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	// Drop says which relabel rule dropped the target.
	Drop *Drop `json:"drop,omitempty"`
	// Error is Prometheus's reason for refusing a target relabeling kept.
	Error string `json:"error,omitempty"`
}

// Drop is the relabel rule that dropped a target.
type Drop struct {
	// Rule is the index in the job's relabel_configs.
	Rule int `json:"rule"`
	// Action, SourceLabels and Regex are the rule's.
	Action       string   `json:"action"`
	SourceLabels []string `json:"sourceLabels,omitempty"`
	Regex        string   `json:"regex,omitempty"`
	// Saw are the values of the source labels the rule saw.
	Saw map[string]string `json:"saw,omitempty"`
	// Cause says why in words.
	Cause string `json:"cause"`
	// Mismatch marks a selector rule dropping an object whose label has another value:
	// most often simply another Service or Pod of the namespace.
	Mismatch bool `json:"mismatch,omitempty"`
}

// Meta labels Prometheus's Kubernetes discovery sets, which explain reads.
const (
	metaNamespace        = "__meta_kubernetes_namespace"
	metaService          = "__meta_kubernetes_service_name"
	metaPod              = "__meta_kubernetes_pod_name"
	metaEndpointsPort    = "__meta_kubernetes_endpoint_port_name"
	metaSlicePort        = "__meta_kubernetes_endpointslice_port_name"
	metaContainerPort    = "__meta_kubernetes_pod_container_port_name"
	metaEndpointsReady   = "__meta_kubernetes_endpoint_ready"
	metaSliceReady       = "__meta_kubernetes_endpointslice_endpoint_conditions_ready"
	metaPodReady         = "__meta_kubernetes_pod_ready"
	metaPodPhase         = "__meta_kubernetes_pod_phase"
	metaEndpointsTarget  = "__meta_kubernetes_endpoint_address_target_kind"
	metaEndpointsTName   = "__meta_kubernetes_endpoint_address_target_name"
	metaSliceTarget      = "__meta_kubernetes_endpointslice_address_target_kind"
	metaSliceTName       = "__meta_kubernetes_endpointslice_address_target_name"
	serviceLabelPrefix   = "__meta_kubernetes_service_label_"
	servicePresentPrefix = "__meta_kubernetes_service_labelpresent_"
	podLabelPrefix       = "__meta_kubernetes_pod_label_"
	podPresentPrefix     = "__meta_kubernetes_pod_labelpresent_"
	shardHash            = "__tmp_hash"
	shardCurrent         = "__tmp_current_shard"
)

// relabelTargets runs Prometheus's target pipeline (scrape.PopulateLabels) over every
// discovered target with the job of each shard (shards[i] is the job loaded with $(SHARD)
// = i). A target one shard keeps is kept, by that shard; a target every shard drops is
// walked through shard 0's relabel_configs one rule at a time to name the rule.
func relabelTargets(shards []*config.ScrapeConfig, groups []*targetgroup.Group) []Target {
	var out []Target
	lb := labels.NewBuilder(labels.EmptyLabels())
	for _, g := range groups {
		for _, tl := range g.Targets {
			t := describeTarget(tl, g.Labels)
			for i, job := range shards {
				res, err := scrape.PopulateLabels(lb, job, tl, g.Labels)
				if err != nil {
					t.Error = err.Error()
					break
				}
				if res.IsEmpty() {
					continue
				}
				tg := scrape.NewTarget(res, job, tl, g.Labels)
				t.Kept, t.URL, t.Labels = true, tg.URL().String(), map[string]string{}
				tg.Labels(labels.NewBuilder(labels.EmptyLabels())).Range(func(l labels.Label) { t.Labels[l.Name] = l.Value })
				if len(shards) > 1 {
					t.Shard = &i
				}
				break
			}
			if !t.Kept && t.Error == "" {
				t.Drop = walk(lb, shards[0], tl, g.Labels)
			}
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kept != out[j].Kept {
			return out[i].Kept
		}
		return out[i].Address < out[j].Address
	})
	return out
}

// describeTarget reads the discovered labels explain reports.
func describeTarget(tl, gl model.LabelSet) Target {
	get := func(n string) string {
		if v, ok := tl[model.LabelName(n)]; ok {
			return string(v)
		}
		return string(gl[model.LabelName(n)])
	}
	t := Target{Address: get(model.AddressLabel), Namespace: get(metaNamespace), Service: get(metaService), Pod: get(metaPod)}
	for _, k := range [][2]string{{metaEndpointsTarget, metaEndpointsTName}, {metaSliceTarget, metaSliceTName}} {
		if get(k[0]) == "Pod" && t.Pod == "" {
			t.Pod = get(k[1])
		}
	}
	t.PortName = firstOf(get, metaEndpointsPort, metaSlicePort, metaContainerPort)
	t.NotReady = firstOf(get, metaEndpointsReady, metaSliceReady, metaPodReady) == "false"
	return t
}

func firstOf(get func(string) string, names ...string) string {
	for _, n := range names {
		if v := get(n); v != "" {
			return v
		}
	}
	return ""
}

// walk applies job's relabel_configs to the target one rule at a time, with Prometheus's
// relabel package, and describes the first rule that drops it.
func walk(lb *labels.Builder, job *config.ScrapeConfig, tl, gl model.LabelSet) *Drop {
	scrape.PopulateDiscoveredLabels(lb, job, tl, gl)
	for i, rc := range job.RelabelConfigs {
		saw := map[string]string{}
		var vals []string
		for _, n := range rc.SourceLabels {
			saw[string(n)] = lb.Get(string(n))
			vals = append(vals, lb.Get(string(n)))
		}
		if relabel.ProcessBuilder(lb, rc) {
			continue
		}
		d := &Drop{Rule: i, Action: string(rc.Action), Regex: rc.Regex.String(), Saw: saw}
		for _, n := range rc.SourceLabels {
			d.SourceLabels = append(d.SourceLabels, string(n))
		}
		d.Cause = cause(rc, vals)
		d.Mismatch = len(vals) == 2 && rc.Action == relabel.Keep && vals[1] == "true" &&
			(labelPair(d.SourceLabels, serviceLabelPrefix, servicePresentPrefix) != "" || labelPair(d.SourceLabels, podLabelPrefix, podPresentPrefix) != "")
		return d
	}
	// Relabeling keeps it: PopulateLabels dropped it for want of an address.
	return &Drop{Rule: -1, Cause: "the target has no __address__ after relabeling"}
}

// cause says in words why rule rc, seeing vals (the values of its source labels), drops
// a target.
func cause(rc *relabel.Config, vals []string) string {
	src := make([]string, len(rc.SourceLabels))
	for i, n := range rc.SourceLabels {
		src[i] = string(n)
	}
	re := rc.Regex.String()
	one := len(src) == 1
	switch {
	case one && (src[0] == metaEndpointsPort || src[0] == metaSlicePort) && rc.Action == relabel.Keep:
		return portCause("port", vals[0], re)
	case one && src[0] == metaContainerPort && rc.Action == relabel.Keep:
		return portCause("container port", vals[0], re)
	case len(src) == 2 && labelPair(src, serviceLabelPrefix, servicePresentPrefix) != "":
		return labelCause("Service", labelPair(src, serviceLabelPrefix, servicePresentPrefix), rc.Action, vals, re)
	case len(src) == 2 && labelPair(src, podLabelPrefix, podPresentPrefix) != "":
		return labelCause("Pod", labelPair(src, podLabelPrefix, podPresentPrefix), rc.Action, vals, re)
	case one && strings.HasPrefix(src[0], servicePresentPrefix):
		return presenceCause("Service", strings.TrimPrefix(src[0], servicePresentPrefix), rc.Action)
	case one && strings.HasPrefix(src[0], podPresentPrefix):
		return presenceCause("Pod", strings.TrimPrefix(src[0], podPresentPrefix), rc.Action)
	case one && src[0] == metaPodPhase:
		return fmt.Sprintf("the pod's phase is %q; the job drops pods that are %s", vals[0], strings.Trim(re, "()"))
	case one && (src[0] == metaEndpointsReady || src[0] == metaSliceReady || src[0] == metaPodReady):
		return fmt.Sprintf("the address is not ready (%s is %q)", src[0], vals[0])
	case len(src) >= 1 && src[0] == shardHash:
		return fmt.Sprintf("the target belongs to another shard: its hash %s is %q and this shard keeps %s", shardHash, vals[0], re)
	case one && src[0] == shardCurrent:
		return fmt.Sprintf("shard %q is a retained shard beyond spec.shards and scrapes nothing", vals[0])
	}
	what := "matches"
	if rc.Action == relabel.Keep {
		what = "does not match"
	}
	if len(src) == 0 {
		return fmt.Sprintf("the rule (action %s) drops every target", rc.Action)
	}
	return fmt.Sprintf("%s = %q %s the regex %q (action %s)", strings.Join(src, ";"), strings.Join(vals, rc.Separator), what, re, rc.Action)
}

func portCause(kind, got, want string) string {
	if got == "" {
		return fmt.Sprintf("the %s has no name; the endpoint asks for %q", kind, want)
	}
	return fmt.Sprintf("%s name is %q; the endpoint asks for %q", kind, got, want)
}

// labelPair returns the label name K when src is [PREFIX_K, PRESENT_K].
func labelPair(src []string, prefix, present string) string {
	if !strings.HasPrefix(src[0], prefix) || !strings.HasPrefix(src[1], present) {
		return ""
	}
	k := strings.TrimPrefix(src[0], prefix)
	if k != strings.TrimPrefix(src[1], present) {
		return ""
	}
	return k
}

// labelCause describes a selector rule "(VALUE|...);true" over a label's value and
// presence: keep for matchLabels and In, drop for NotIn. Label names are as the meta
// labels spell them (sanitised).
func labelCause(kind, key string, action relabel.Action, vals []string, re string) string {
	want := strings.TrimSuffix(re, ";true")
	want = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(want, "("), ")"), `\`, "")
	if strings.Contains(want, "|") {
		want = "one of " + strings.Join(strings.Split(want, "|"), ", ")
	}
	if action == relabel.Drop {
		return fmt.Sprintf("the %s's label %s is %q, which the selector excludes (%s)", kind, key, vals[0], want)
	}
	if vals[1] != "true" {
		return fmt.Sprintf("the %s has no label %s; the selector wants %s=%s", kind, key, key, want)
	}
	return fmt.Sprintf("the %s's label %s is %q; the selector wants %s", kind, key, vals[0], want)
}

// presenceCause describes an Exists (keep) or DoesNotExist (drop) selector rule.
func presenceCause(kind, key string, action relabel.Action) string {
	if action == relabel.Drop {
		return fmt.Sprintf("the %s has label %s; the selector wants it absent", kind, key)
	}
	return fmt.Sprintf("the %s has no label %s; the selector wants it present", kind, key)
}
