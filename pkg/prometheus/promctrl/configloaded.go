package promctrl

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// loadedInput is what the ConfigLoaded condition of a Prometheus is computed from.
type loadedInput struct {
	// Prometheus is the object (its spec says which pods it should have).
	Prometheus *promserver.Server
	// Reports says whether its reloaders report (workload.ReportsConfig, with its own
	// service account).
	Reports bool
	// Hash names the configuration generated last (package confighash); "" when unknown,
	// instance.UnmanagedHash when the configuration Secret is the user's.
	Hash string
	// Pods are its pods, as cached (metadata and status conditions).
	Pods []corev1.Pod
}

// loaded is in as the shared ConfigLoaded input: every pod of every shard, named with
// its shard in messages.
func (in loadedInput) loaded() instance.Loaded {
	p := in.Prometheus
	l := instance.Loaded{Hash: in.Hash, Reported: in.Pods, Shard: func(pod string) string { return shardOf(p, pod) }}
	if !in.Reports {
		l.Unavailable = instance.NoServiceAccountMessage
	}
	if p.DaemonSetMode() {
		// One pod per node: the pods that exist are the ones that should run it.
		l.Pods, l.Shard = podNames(in.Pods), nil
		l.NoPods = "the DaemonSet has no pods (no node matches its scheduling constraints yet)"
		return l
	}
	l.Pods, _ = promplan.PodNames(p)
	return l
}

// podNames are the names of pods, sorted.
func podNames(pods []corev1.Pod) []string {
	out := make([]string, 0, len(pods))
	for i := range pods {
		out = append(out, pods[i].Name)
	}
	slices.Sort(out)
	return out
}

// configLoadedCondition computes the ConfigLoaded condition (without times and
// generation): True when every pod p should have reports the latest hash, False naming
// the pods that do not, Unknown when that cannot be known.
func configLoadedCondition(in loadedInput) monitoringv1.Condition {
	return instance.LoadedCondition(in.loaded())
}

// shardOf is the shard of p's pod name.
func shardOf(p *promserver.Server, pod string) string {
	sets, _ := promplan.StatefulSetNames(p)
	for shard, s := range sets {
		if rest, ok := strings.CutPrefix(pod, s+"-"); ok {
			if _, err := strconv.Atoi(rest); err == nil {
				return strconv.Itoa(shard)
			}
		}
	}
	return "?"
}

// podLabels select p's pods (every shard's).
func podLabels(p *promserver.Server) map[string]string {
	return map[string]string{layout.PrometheusNameLabel: p.Name, layout.NameLabel: promplan.NameValue(p)}
}
