package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// A single replica is restarted in these tests: without leader election, so the new
// process does not wait for the killed one's Lease to expire (TestLeaderFailover covers
// that).
var singleReplica = []string{"--leader-elect=false"}

// TestKillBetweenWrites: the operator is SIGKILLed with one write of a reconcile in
// flight, and that write never happens (an admission webhook of the test holds it, then
// refuses it once the process is dead): after the rule ConfigMaps and before the
// StatefulSet, then after the config Secret and before the Prometheus status. The next
// operator converges, writes only what is missing, leaves no extra objects, and rolls
// the StatefulSet's pod template once per change of its inputs.
func TestKillBetweenWrites(t *testing.T) {
	ns := cp.newNamespace(t)
	ic := startInterceptor(t, cp, ns, statefulSetWrites, prometheusStatusWrites)
	op := startOperator(t, cp, "crash-1", "crash", singleReplica...)
	cp.mustCreate(t,
		newPrometheus(ns, "p", "crash", func(p *monitoringv1.Prometheus) { p.Spec.Retention = "1d" }),
		newServiceMonitor(ns, "sm", "crash"),
		newRule(ns, "rules", "crash", "vector(1)"),
	)
	poll(t, "generated", 30*time.Second, []*operator{op}, func() error { return converged(ns, "p") })
	quiet(t, time.Second, 30*time.Second, op)
	s0 := snapshot(t, ns, "p")
	parent := t // operators outlive the subtest that starts them

	t.Run("after_rule_ConfigMaps_before_StatefulSet", func(t *testing.T) {
		ic.arm(statefulSetWrites)
		// One change of the Prometheus that touches the config (namespace enforcement in
		// the scrape jobs), the rule ConfigMap (the namespace label on every rule) and the
		// StatefulSet (the query timeout flag), all written in one reconcile.
		p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"}}
		cp.mustUpdate(t, p, func() {
			p.Spec.Query = &monitoringv1.QuerySpec{Timeout: ptr.To(monitoringv1.Duration("1m"))}
			p.Spec.EnforcedNamespaceLabel = "namespace"
		})
		ic.waitHeld(t, 30*time.Second, []*operator{op})
		held := snapshot(t, ns, "p")
		op.kill()
		t.Logf("the held StatefulSet write was %s", ic.release(t, false))
		if held.versions["Secret/"+layout.Prometheus("p").ConfigSecret()] == s0.versions["Secret/"+layout.Prometheus("p").ConfigSecret()] ||
			held.versions["ConfigMap/"+layout.Prometheus("p").RuleConfigMap(0)] == s0.versions["ConfigMap/"+layout.Prometheus("p").RuleConfigMap(0)] {
			t.Fatalf("when the StatefulSet write was held, the config Secret and rule ConfigMap were not written yet: %v -> %v", s0.versions, held.versions)
		}
		killed := snapshot(t, ns, "p")
		if killed.stsGeneration != s0.stsGeneration {
			t.Fatalf("the refused StatefulSet write happened: generation %d -> %d", s0.stsGeneration, killed.stsGeneration)
		}

		next := startOperator(parent, cp, "crash-2", "crash", singleReplica...)
		took := poll(t, "next operator converged", 30*time.Second, []*operator{next}, func() error {
			if err := converged(ns, "p"); err != nil {
				return err
			}
			sts, err := cp.statefulSet(ns, layout.Prometheus("p").StatefulSet(0))
			if err != nil {
				return err
			}
			if !strings.Contains(strings.Join(sts.Spec.Template.Spec.Containers[0].Args, " "), "--query.timeout=1m") {
				return fmt.Errorf("StatefulSet without the new query timeout")
			}
			return nil
		})
		t.Logf("measured: restarted operator converged %s after it was ready", took.Round(time.Millisecond))
		w := quiet(t, 2*time.Second, 30*time.Second, next)[0]
		after := snapshot(t, ns, "p")
		if after.stsGeneration != s0.stsGeneration+1 {
			t.Errorf("StatefulSet generation %d -> %d, want one roll for one change", s0.stsGeneration, after.stsGeneration)
		}
		for _, k := range []string{"Secret/" + layout.Prometheus("p").ConfigSecret(), "ConfigMap/" + layout.Prometheus("p").RuleConfigMap(0)} {
			if after.versions[k] != held.versions[k] {
				t.Errorf("%s rewritten by the next operator although it was up to date", k)
			}
		}
		// The Prometheus status may be written twice: once with the reconcile, once more
		// when the StatefulSet's own status catches up with its new generation.
		wantWrites(t, w, map[string]float64{"StatefulSet/update": 1}, "Prometheus/apply-status", "PrometheusRule/apply-status", "ServiceMonitor/apply-status")
		after.noSurplus(t)
		s0 = after
		op = next
	})

	t.Run("after_config_Secret_before_status", func(t *testing.T) {
		ic.arm(prometheusStatusWrites)
		// A change of the config only: the status records the new generation last.
		p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"}}
		cp.mustUpdate(t, p, func() { p.Spec.ScrapeInterval = "45s" })
		ic.waitHeld(t, 30*time.Second, []*operator{op})
		held := snapshot(t, ns, "p")
		op.kill()
		t.Logf("the held status write was %s", ic.release(t, false))
		if !strings.Contains(held.config, "scrape_interval: 45s") {
			t.Fatal("when the status write was held, the config Secret was not written yet")
		}
		if c, err := cp.reconciled(ns, "p"); err == nil {
			t.Fatalf("the refused status write happened: %+v", c)
		}

		next := startOperator(parent, cp, "crash-3", "crash", singleReplica...)
		took := poll(t, "next operator converged", 30*time.Second, []*operator{next}, func() error { return converged(ns, "p") })
		t.Logf("measured: restarted operator converged %s after it was ready", took.Round(time.Millisecond))
		w := quiet(t, 2*time.Second, 30*time.Second, next)[0]
		after := snapshot(t, ns, "p")
		if after.stsGeneration != s0.stsGeneration {
			t.Errorf("StatefulSet generation %d -> %d: the pod would roll for a change that is not its", s0.stsGeneration, after.stsGeneration)
		}
		for k, v := range held.versions {
			if after.versions[k] != v {
				t.Errorf("%s rewritten by the next operator although it was up to date", k)
			}
		}
		wantWrites(t, w, map[string]float64{"Prometheus/apply-status": 1}, "PrometheusRule/apply-status", "ServiceMonitor/apply-status")
		after.noSurplus(t)
	})
}

// TestKillDuringBurst: rounds of a burst of changes (new ServiceMonitors, a rule edit)
// with the operator SIGKILLed after a random delay, then a last operator. It converges
// to every change, leaves no extra object and never rolls the pod template, whose inputs
// none of the changes touch.
func TestKillDuringBurst(t *testing.T) {
	ns := cp.newNamespace(t)
	op := startOperator(t, cp, "burst-0", "burst", singleReplica...)
	cp.mustCreate(t, newPrometheus(ns, "p", "burst"), newServiceMonitor(ns, "sm", "burst"), newRule(ns, "rules", "burst", "vector(0)"))
	poll(t, "generated", 30*time.Second, []*operator{op}, func() error { return converged(ns, "p") })
	quiet(t, time.Second, 30*time.Second, op)
	s0 := snapshot(t, ns, "p")

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	monitors := []string{"sm"}
	const rounds = 6
	busy := 0
	var expr string
	for round := range rounds {
		if round > 0 {
			op = startOperator(t, cp, fmt.Sprintf("burst-%d", round), "burst", singleReplica...)
		}
		for i := range 3 {
			name := fmt.Sprintf("r%d-%d", round, i)
			monitors = append(monitors, name)
			cp.mustCreate(t, newServiceMonitor(ns, name, "burst"))
		}
		expr = fmt.Sprintf("vector(%d)", round+1)
		r := &monitoringv1.PrometheusRule{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rules"}}
		cp.mustUpdate(t, r, func() { r.Spec.Groups[0].Rules[0].Expr = intstr.FromString(expr) })
		// The kill lands anywhere from before the first reconcile to after the last.
		delay := time.Duration(rng.IntN(400)) * time.Millisecond
		time.Sleep(delay)
		if op.idle() != nil {
			busy++
		}
		op.kill()
		t.Logf("round %d: killed %s after the burst", round, delay)
	}
	t.Logf("measured: %d of %d kills landed while a reconcile was queued or running", busy, rounds)

	last := startOperator(t, cp, "burst-last", "burst", singleReplica...)
	took := poll(t, "last operator converged to every change", 30*time.Second, []*operator{last}, func() error {
		if err := converged(ns, "p"); err != nil {
			return err
		}
		if err := cp.configHasMonitors(ns, "p", monitors...); err != nil {
			return err
		}
		var cm corev1.ConfigMap
		if err := cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus("p").RuleConfigMap(0)}, &cm); err != nil {
			return err
		}
		for _, content := range cm.Data {
			if !strings.Contains(content, "expr: "+expr) {
				return fmt.Errorf("rule ConfigMap does not hold %s yet", expr)
			}
		}
		return nil
	})
	t.Logf("measured: last operator converged %s after it was ready", took.Round(time.Millisecond))
	w := quiet(t, 2*time.Second, 30*time.Second, last)[0]
	after := snapshot(t, ns, "p")
	if after.stsGeneration != s0.stsGeneration || after.versions["StatefulSet/"+layout.Prometheus("p").StatefulSet(0)] != s0.versions["StatefulSet/"+layout.Prometheus("p").StatefulSet(0)] {
		t.Errorf("StatefulSet written (generation %d -> %d) although none of its inputs changed", s0.stsGeneration, after.stsGeneration)
	}
	for _, k := range []string{"StatefulSet/create", "StatefulSet/update", "Service/create", "Service/update", "Secret/create", "ConfigMap/create"} {
		if w[k] != 0 {
			t.Errorf("last operator wrote %s %v times", k, w[k])
		}
	}
	if w["Secret/update"] > 1 || w["ConfigMap/update"] > 1 {
		t.Errorf("last operator rewrote the config Secret %v times and the rule ConfigMap %v times, want at most once each", w["Secret/update"], w["ConfigMap/update"])
	}
	after.noSurplus(t)
}

// state is what the operator generated for one Prometheus.
type state struct {
	t             *testing.T
	uid           types.UID
	versions      map[string]string // Kind/name -> resourceVersion, for the objects p owns
	stsGeneration int64
	config        string
}

// snapshot reads every Secret, ConfigMap, StatefulSet and Service that Prometheus ns/name
// owns.
func snapshot(t *testing.T, ns, name string) *state {
	t.Helper()
	p, err := cp.prometheus(ns, name)
	if err != nil {
		t.Fatal(err)
	}
	s := &state{t: t, uid: p.UID, versions: map[string]string{}}
	lists := map[string]client.ObjectList{
		"Secret": &corev1.SecretList{}, "ConfigMap": &corev1.ConfigMapList{},
		"StatefulSet": &appsv1.StatefulSetList{}, "Service": &corev1.ServiceList{},
	}
	for kind, list := range lists {
		if err := cp.c.List(ctx, list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		items, err := metaItems(list)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range items {
			for _, ref := range o.GetOwnerReferences() {
				if ref.UID == p.UID {
					s.versions[kind+"/"+o.GetName()] = o.GetResourceVersion()
				}
			}
		}
	}
	sts, err := cp.statefulSet(ns, layout.Prometheus(name).StatefulSet(0))
	if err != nil {
		t.Fatal(err)
	}
	s.stsGeneration = sts.Generation
	if s.config, _, err = cp.config(ns, name); err != nil {
		t.Fatal(err)
	}
	return s
}

func metaItems(list client.ObjectList) ([]metav1.Object, error) {
	var out []metav1.Object
	switch l := list.(type) {
	case *corev1.SecretList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	case *corev1.ConfigMapList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	case *appsv1.StatefulSetList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	case *corev1.ServiceList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	default:
		return nil, fmt.Errorf("unexpected list %T", list)
	}
	return out, nil
}

// noSurplus checks that the Prometheus owns exactly the objects one Prometheus with one
// shard and one rule ConfigMap needs: no duplicate or leftover object.
func (s *state) noSurplus(t *testing.T) {
	t.Helper()
	var got []string
	for k := range s.versions {
		got = append(got, k)
	}
	slices.Sort(got)
	want := []string{
		"ConfigMap/" + layout.Prometheus("p").RuleConfigMap(0),
		"Secret/" + layout.Prometheus("p").ConfigSecret(),
		"Secret/" + layout.Prometheus("p").WebConfigSecret(),
		// Generated for every Prometheus, as prometheus-operator does.
		"Secret/" + layout.Prometheus("p").TLSAssetsSecret(0),
		"Secret/prometheus-p-thanos-prometheus-http-client-file",
		"Service/" + layout.GoverningServiceName,
		"StatefulSet/" + layout.Prometheus("p").StatefulSet(0),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("objects owned by the Prometheus: %v, want %v", got, want)
	}
}

// converged returns nil once Prometheus ns/name is Reconciled=True for its generation and
// its StatefulSet exists (on the shared control plane unless one is given).
func converged(ns, name string, on ...*controlPlane) error {
	c := cp
	if len(on) > 0 {
		c = on[0]
	}
	cond, err := c.reconciled(ns, name)
	if err != nil {
		return err
	}
	if cond.Status != monitoringv1.ConditionTrue {
		return fmt.Errorf("Reconciled is %s/%s: %s", cond.Status, cond.Reason, cond.Message)
	}
	_, err = c.statefulSet(ns, layout.Prometheus(name).StatefulSet(0))
	return err
}

// wantWrites checks an operator's writes: exactly want, plus any number of the kinds
// listed in free.
func wantWrites(t *testing.T, got, want map[string]float64, free ...string) {
	t.Helper()
	for k, v := range got {
		if slices.Contains(free, k) {
			continue
		}
		if want[k] != v {
			t.Errorf("writes %v, want %v (and any %v)", got, want, free)
			return
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("writes %v, want %v (and any %v)", got, want, free)
			return
		}
	}
}
