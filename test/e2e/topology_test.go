//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// TestTopologySharding: nodes in two zones (topology.kubernetes.io/zone=a and b), two
// sample pods bound to each zone's node, and a Prometheus with
// shardingStrategy.mode Topology over zones a and b and two shards. Shard 0's
// StatefulSet is pinned to zone a and shard 1's to zone b (node selector); each shard's
// running Prometheus (TOPOLOGY_ZONE and INZONE_SHARD expanded by the reloader) scrapes
// exactly its zone's targets and carries its zone as the external label zone. The API
// server is 1.35 or later: binding a pod copies its node's zone label onto it
// (PodTopologyLabelsAdmission), which the configuration reads.
func TestTopologySharding(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()
	zones := []string{"a", "b"}

	nodes := map[string]string{}
	for _, z := range zones {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: sc.ns + "-zone-" + z, Labels: map[string]string{corev1.LabelTopologyZone: z}}}
		mustCreate(t, n)
		t.Cleanup(func() { _ = s.k8s.Delete(context.Background(), n) })
		nodes[z] = n.Name
	}
	ips := allocateIPs(4)
	app := startSampleApp(t, sc.ns, "sample", ips)
	want := map[string][]string{}
	for i, in := range app.instances {
		zone := zones[i/2]
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: in.pod}}
		binding := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: in.pod}, Target: corev1.ObjectReference{Kind: "Node", Name: nodes[zone]}}
		if err := s.k8s.SubResource("binding").Create(ctx, pod, binding); err != nil {
			t.Fatalf("binding pod %s to node %s: %v", in.pod, nodes[zone], err)
		}
		want[zone] = append(want[zone], in.address())
	}
	sc.step("the API server labels the bound pods with their node's zone", 10*time.Second, func() error {
		for i, in := range app.instances {
			var p corev1.Pod
			if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: in.pod}, &p); err != nil {
				return err
			}
			if got := p.Labels[corev1.LabelTopologyZone]; got != zones[i/2] {
				return fmt.Errorf("pod %s (node %s) has zone label %q, want %q", p.Name, p.Spec.NodeName, got, zones[i/2])
			}
		}
		return nil
	})
	mustCreate(t,
		sc.prometheus(sc.ns, "zoned", func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To[int32](2)
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
				Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
				Topology: &monitoringv1.TopologyShardingStrategy{Values: zones},
			}
		}),
		&monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
				Endpoints: []monitoringv1.Endpoint{{Port: samplePortName, Interval: "1s"}},
			},
		},
	)
	for shard, zone := range zones {
		sc.step(fmt.Sprintf("shard %d's StatefulSet is pinned to zone %s", shard, zone), 30*time.Second, func() error {
			var sts appsv1.StatefulSet
			if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: statefulSetName("zoned", shard)}, &sts); err != nil {
				return err
			}
			if got := sts.Spec.Template.Spec.NodeSelector[corev1.LabelTopologyZone]; got != zone {
				return fmt.Errorf("node selector %v", sts.Spec.Template.Spec.NodeSelector)
			}
			return nil
		})
	}
	pods := sc.runPods(sc.ns, statefulSetName("zoned", 0), statefulSetName("zoned", 1))

	pool := fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns)
	for shard, p := range pods {
		zone := zones[shard]
		w := slices.Clone(want[zone])
		slices.Sort(w)
		prom := promAPI{base: p.url("web")}
		sc.step(fmt.Sprintf("shard %d scrapes exactly zone %s's %d of %d targets", shard, zone, len(w), len(ips)), 60*time.Second, func() error {
			return scrapesExactly(prom, pool, w)
		})
		cfg, err := prom.config()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"zone: " + zone, "regex: " + zone + ";|.+;.+", "regex: 0;|.+;.+"} {
			if !strings.Contains(cfg, want) {
				t.Errorf("shard %d: running config lacks %q (TOPOLOGY_ZONE or INZONE_SHARD not expanded?):\n%s", shard, want, cfg)
			}
		}
	}
}
