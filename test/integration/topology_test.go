package integration

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// topologyView is what topology sharding changes in the generated objects, as data: the
// zone external label, per scrape job the node metadata attached, the rules reading or
// writing __tmp_topology, the hashmod modulus and the shard keep regex, and per
// StatefulSet the node selector and the reloaders' shard variables.
type topologyView struct {
	ExternalLabels map[string]any
	Jobs           map[string]topologyJob
	StatefulSets   map[string]topologyPod
}

type topologyJob struct {
	AttachMetadata []any
	ZoneRules      []any
	Modulus        any
	ShardKeep      any
}

type topologyPod struct {
	NodeSelector map[string]string
	ReloaderEnv  map[string]map[string]string
}

// viewTopology reads the view from the configuration text and the StatefulSets, with the
// namespace ns written NS.
func viewTopology(cfg, ns string, sets []appsv1.StatefulSet) (topologyView, error) {
	cfg = strings.ReplaceAll(cfg, ns, "NS")
	var doc struct {
		Global struct {
			ExternalLabels map[string]any `json:"external_labels"`
		} `json:"global"`
		ScrapeConfigs []map[string]any `json:"scrape_configs"`
	}
	if err := yaml.Unmarshal([]byte(cfg), &doc); err != nil {
		return topologyView{}, err
	}
	v := topologyView{ExternalLabels: doc.Global.ExternalLabels, Jobs: map[string]topologyJob{}, StatefulSets: map[string]topologyPod{}}
	for _, job := range doc.ScrapeConfigs {
		var j topologyJob
		sds, _ := job["kubernetes_sd_configs"].([]any)
		for _, sd := range sds {
			j.AttachMetadata = append(j.AttachMetadata, sd.(map[string]any)["attach_metadata"])
		}
		rules, _ := job["relabel_configs"].([]any)
		for _, r := range rules {
			rule := r.(map[string]any)
			src := fmt.Sprint(rule["source_labels"])
			switch {
			case rule["target_label"] == "__tmp_topology" || slices.Contains(anyStrings(rule["source_labels"]), "__tmp_topology"):
				j.ZoneRules = append(j.ZoneRules, rule)
			case rule["action"] == "hashmod":
				j.Modulus = rule["modulus"]
			case src == "[__tmp_hash __tmp_disable_sharding]":
				j.ShardKeep = rule["regex"]
			}
		}
		v.Jobs[fmt.Sprint(job["job_name"])] = j
	}
	for _, s := range sets {
		pod := topologyPod{NodeSelector: s.Spec.Template.Spec.NodeSelector, ReloaderEnv: map[string]map[string]string{}}
		for _, c := range append(slices.Clone(s.Spec.Template.Spec.InitContainers), s.Spec.Template.Spec.Containers...) {
			if c.Name != "config-reloader" && c.Name != "init-config-reloader" {
				continue
			}
			env := map[string]string{}
			for _, e := range c.Env {
				if e.Name == "SHARD" || e.Name == "TOPOLOGY_ZONE" || e.Name == "INZONE_SHARD" {
					env[e.Name] = e.Value
				}
			}
			pod.ReloaderEnv[c.Name] = env
		}
		v.StatefulSets[s.Name] = pod
	}
	return v, nil
}

func anyStrings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, s := range l {
		out = append(out, fmt.Sprint(s))
	}
	return out
}

// TestTopologyShardingAsUpstream runs the real prometheus-operator and Lookout, each on
// the same topology-sharded Prometheus (4 shards over zones a and b) with a
// ServiceMonitor and a PodMonitor in a namespace of its own, and compares the
// configuration's zone label and sharding rules as data and the StatefulSets' zone
// constraints (issue 33); then the same with the PrometheusTopologySharding gate off.
// The API server is 1.35 or later, so both read the zone from the pod label.
func TestTopologyShardingAsUpstream(t *testing.T) {
	t.Parallel()
	const shards = 4
	stsNames := []string{"prometheus-topo", "prometheus-topo-shard-1", "prometheus-topo-shard-2", "prometheus-topo-shard-3"}
	run := func(upstream, gate bool) topologyView {
		ns := newNamespace(t, nil)
		own := map[string]string{dedicatedLabel: ns}
		p := newPrometheus(ns, "topo", func(p *monitoringv1.Prometheus) {
			p.Labels = own
			p.Spec.Shards = ptr.To[int32](shards)
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
				Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
				Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"a", "b"}},
			}
		})
		pm := &monitoringv1.PodMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "worker", Labels: map[string]string{"team": "a"}},
			Spec: monitoringv1.PodMonitorSpec{
				Selector:            metav1.LabelSelector{MatchLabels: map[string]string{"app": "worker"}},
				PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{{Port: ptr.To("metrics")}},
			},
		}
		create(t, p, newServiceMonitor(ns, "web"), pm)
		if upstream {
			var extra []string
			if !gate {
				extra = append(extra, "--feature-gates=PrometheusTopologySharding=false")
			}
			stop, _ := startPrometheusOperatorAt(t, ns, extra...)
			defer stop()
		} else {
			stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
				o.FeatureGates[operator.GatePrometheusTopologySharding] = gate
			})
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
		}
		var view topologyView
		eventually(t, 60*time.Second, fmt.Sprintf("the configuration and %d StatefulSets (upstream %v, gate %v)", shards, upstream, gate), func() error {
			cfg, _, err := config(ns, "topo")
			if err != nil {
				return err
			}
			var sets []appsv1.StatefulSet
			for _, n := range stsNames {
				s := appsv1.StatefulSet{}
				if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: n}, &s); err != nil {
					return err
				}
				sets = append(sets, s)
			}
			if view, err = viewTopology(cfg, ns, sets); err != nil {
				return err
			}
			if len(view.Jobs) != 2 {
				return fmt.Errorf("%d scrape jobs, want 2 yet", len(view.Jobs))
			}
			return nil
		})
		return view
	}
	for _, gate := range []bool{true, false} {
		want := run(true, gate)
		got := run(false, gate)
		if !reflect.DeepEqual(got, want) {
			gy, _ := yaml.Marshal(got)
			wy, _ := yaml.Marshal(want)
			t.Errorf("gate %v: Lookout generates\n%s\nprometheus-operator\n%s", gate, gy, wy)
		}
		// The comparison must see topology sharding when the gate is on.
		sel := got.StatefulSets["prometheus-topo-shard-3"].NodeSelector[corev1.LabelTopologyZone]
		if gate && (sel != "b" || got.ExternalLabels["zone"] != "$(TOPOLOGY_ZONE)") {
			t.Errorf("gate on: shard 3's zone %q, external labels %v", sel, got.ExternalLabels)
		}
		if !gate && sel != "" {
			t.Errorf("gate off: shard 3 pinned to zone %q", sel)
		}
	}
}
