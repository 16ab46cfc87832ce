//go:build e2e

package e2e

import (
	"context"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// TestShards: with spec.shards=2 the operator generates two StatefulSets; their pods
// (SHARD=0 and SHARD=1, $(SHARD) and $(POD_NAME) expanded by the reloader) split the
// sample app's targets by hashmod of the address: each shard scrapes exactly the targets
// whose hash falls on it, none twice, none missed. This Prometheus discovers through
// Endpoints (the default role), the other scenarios through EndpointSlices.
func TestShards(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()
	const shards = 2

	// Addresses come from the suite's allocator; take them until both shards own some.
	var ips []string
	owner := map[string]int{}
	for len(ips) < 4 || len(distinct(owner)) < shards {
		if len(ips) == 16 {
			t.Fatalf("16 addresses all hash to one shard: %v", owner)
		}
		ip := s.ips.allocate()
		ips = append(ips, ip)
		addr := net.JoinHostPort(ip, fmt.Sprint(samplePort))
		owner[addr] = hashmodShard(addr, shards)
	}
	app := startSampleApp(t, sc.ns, "sample", ips)
	mustCreate(t,
		sc.prometheus(sc.ns, "sharded", func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To[int32](shards)
			p.Spec.ServiceDiscoveryRole = nil
		}),
		&monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
				Endpoints: []monitoringv1.Endpoint{{Port: samplePortName, Interval: "1s"}},
			},
		},
	)
	pods := sc.runPods(sc.ns, statefulSetName("sharded", 0), statefulSetName("sharded", 1))

	pool := fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns)
	for shard, p := range pods {
		var want []string
		for addr, o := range owner {
			if o == shard {
				want = append(want, addr)
			}
		}
		slices.Sort(want)
		prom := promAPI{base: p.url("web")}
		sc.step(fmt.Sprintf("shard %d scrapes exactly its %d of %d targets", shard, len(want), len(ips)), 60*time.Second, func() error {
			return scrapesExactly(prom, pool, want)
		})
		cfg, err := prom.config()
		if err != nil {
			t.Fatal(err)
		}
		if want := "prometheus_replica: " + p.name; !strings.Contains(cfg, want) {
			t.Errorf("shard %d: running config lacks %q (POD_NAME not expanded?):\n%s", shard, want, cfg)
		}
		if want := fmt.Sprintf("regex: %d;|.+;.+", shard); !strings.Contains(cfg, want) {
			t.Errorf("shard %d: running config lacks the shard's keep rule %q:\n%s", shard, want, cfg)
		}
	}

	// Scale down: the operator deletes shard 1's StatefulSet (the kubelet helper then stops
	// its pod) and shard 0, now the only one, takes every target.
	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sharded"}}
	mustUpdate(t, p, func() { p.Spec.Shards = ptr.To[int32](1) })
	sc.step("scaled to 1 shard: shard 1's StatefulSet deleted, its pod stopped", 60*time.Second, func() error {
		var sts appsv1.StatefulSet
		err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: statefulSetName("sharded", 1)}, &sts)
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("StatefulSet %s: %v", statefulSetName("sharded", 1), err)
		}
		if !pods[1].isGone() {
			return fmt.Errorf("pod %s still running", pods[1].name)
		}
		return nil
	})
	var all []string
	for addr := range owner {
		all = append(all, addr)
	}
	slices.Sort(all)
	sc.step(fmt.Sprintf("shard 0 scrapes all %d targets", len(all)), 60*time.Second, func() error {
		return scrapesExactly(promAPI{base: pods[0].url("web")}, pool, all)
	})
}

// scrapesExactly checks that the active targets of pool are want (sorted instance
// labels), all up.
func scrapesExactly(prom promAPI, pool string, want []string) error {
	ts, err := prom.activeTargets(pool)
	if err != nil {
		return err
	}
	var got []string
	for _, tg := range ts {
		if tg.Health != "up" {
			return fmt.Errorf("target %s is %q: %s", tg.ScrapeURL, tg.Health, tg.LastError)
		}
		got = append(got, tg.Labels["instance"])
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return fmt.Errorf("scrapes %v, want %v", got, want)
	}
	return nil
}

// hashmodShard is Prometheus's hashmod relabel action on one value: the last 8 bytes of
// its MD5, big endian, modulo the number of shards.
func hashmodShard(value string, shards int) int {
	sum := md5.Sum([]byte(value))
	return int(binary.BigEndian.Uint64(sum[8:]) % uint64(shards))
}

func distinct(m map[string]int) map[int]bool {
	out := map[int]bool{}
	for _, v := range m {
		out[v] = true
	}
	return out
}
