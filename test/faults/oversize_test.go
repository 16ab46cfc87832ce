package faults

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// secretLimit is what a Secret's data may hold (the operator keeps 16 KiB of the 1 MiB
// object limit for metadata).
const secretLimit = 1024*1024 - 16*1024

// TestOversizedConfigKeepsLastGood: monitors that push the compressed configuration past
// what a Secret holds make the Prometheus Reconciled=False with a message and a Warning
// event naming the size; the config Secret and the StatefulSet keep the last good
// version, untouched. Removing the monitors recovers.
func TestOversizedConfigKeepsLastGood(t *testing.T) {
	ns := cp.newNamespace(t)
	op := startOperator(t, cp, "oversize", "oversize")
	ops := []*operator{op}
	cp.mustCreate(t, newPrometheus(ns, "p", "oversize"), newServiceMonitor(ns, "small", "oversize"))
	poll(t, "config generated", 30*time.Second, ops, func() error { return cp.configHasMonitors(ns, "p", "small") })
	quiet(t, time.Second, 30*time.Second, op)
	_, good, err := cp.config(ns, "p")
	if err != nil {
		t.Fatal(err)
	}
	sts, err := cp.statefulSet(ns, layout.StatefulSetName("p", 0))
	if err != nil {
		t.Fatal(err)
	}

	// Random replacement strings do not compress: about 1.2 MB of gzip in eight monitors
	// of 200 KB of text (about 150 KB gzipped each), every one within the per-object
	// limit (promcfg.MaxObjectCompressedBytes, 256 KiB) so that it is accepted on its own:
	// only together do they exceed what a Secret holds. They are created unselected, then
	// selected at once by one change of the Prometheus, so no reconcile sees a part of
	// them (which would be a good, bigger config).
	rng := rand.New(rand.NewPCG(1, 2))
	seen := func() float64 {
		m, err := op.metrics()
		if err != nil {
			t.Fatal(err)
		}
		return m[`prometheus_operator_triggered_total{action="add",controller="prometheus",triggered_by="ServiceMonitor"}`]
	}
	seenBefore := seen()
	var big []string
	for i := range 8 {
		name := fmt.Sprintf("big-%d", i)
		big = append(big, name)
		cp.mustCreate(t, newServiceMonitor(ns, name, "oversize-big", func(s *monitoringv1.ServiceMonitor) {
			for j := range 20 {
				s.Spec.Endpoints[0].MetricRelabelConfigs = append(s.Spec.Endpoints[0].MetricRelabelConfigs, monitoringv1.RelabelConfig{
					Action: "replace", SourceLabels: []monitoringv1.LabelName{"__name__"}, Regex: "(.*)",
					TargetLabel: fmt.Sprintf("l%d", j), Replacement: ptr.To(randomText(rng, 10_000)),
				})
			}
		}))
	}
	// The operator's cache holds them once their add events went by.
	poll(t, "operator saw the big monitors", 30*time.Second, ops, func() error {
		if n := seen() - seenBefore; n < float64(len(big)) {
			return fmt.Errorf("%v of %d add events", n, len(big))
		}
		return nil
	})
	p := &monitoringv1.Prometheus{}
	p.Namespace, p.Name = ns, "p"
	cp.mustUpdate(t, p, func() {
		p.Spec.ServiceMonitorSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: selectLabel, Operator: metav1.LabelSelectorOpIn, Values: []string{"oversize", "oversize-big"}},
		}}
	})
	var size int
	poll(t, "Reconciled=False naming the size", 60*time.Second, ops, func() error {
		c, err := cp.reconciled(ns, "p")
		if err != nil {
			return err
		}
		m := regexp.MustCompile(`compressed configuration is (\d+) bytes`).FindStringSubmatch(c.Message)
		if c.Status != monitoringv1.ConditionFalse || m == nil {
			return fmt.Errorf("Reconciled is %s/%s: %s", c.Status, c.Reason, c.Message)
		}
		size, _ = strconv.Atoi(m[1])
		return nil
	})
	if size <= secretLimit {
		t.Errorf("the reported size %d is within the limit %d", size, secretLimit)
	}
	c, _ := cp.reconciled(ns, "p")
	t.Logf("measured: compressed configuration of %d bytes refused (limit %d); Reconciled=False %s: %s", size, secretLimit, c.Reason, c.Message)
	poll(t, "Warning event naming the size", 10*time.Second, ops, func() error {
		var evs corev1.EventList
		if err := cp.c.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return err
		}
		for _, e := range evs.Items {
			if e.InvolvedObject.Name == "p" && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, strconv.Itoa(size)+" bytes") {
				return nil
			}
		}
		return fmt.Errorf("no Warning event with the size among %d events", len(evs.Items))
	})
	poll(t, "lookout_prometheus_config_bytes reports the size", 10*time.Second, ops, func() error {
		m, err := op.metrics()
		if err != nil {
			return err
		}
		key := fmt.Sprintf(`lookout_prometheus_config_bytes{encoding="gzip",name="p",namespace=%q}`, ns)
		if m[key] != float64(size) {
			return fmt.Errorf("%s = %v, want %d", key, m[key], size)
		}
		return nil
	})
	_, now, err := cp.config(ns, "p")
	if err != nil {
		t.Fatal(err)
	}
	if now.ResourceVersion != good.ResourceVersion || !bytes.Equal(now.Data[layout.ConfigCompressedKey], good.Data[layout.ConfigCompressedKey]) {
		t.Errorf("the last good config Secret was written: resourceVersion %s -> %s", good.ResourceVersion, now.ResourceVersion)
	}
	stsNow, err := cp.statefulSet(ns, layout.StatefulSetName("p", 0))
	if err != nil {
		t.Fatal(err)
	}
	if stsNow.ResourceVersion != sts.ResourceVersion {
		t.Errorf("StatefulSet written while the config is refused: resourceVersion %s -> %s", sts.ResourceVersion, stsNow.ResourceVersion)
	}

	for _, name := range big {
		if err := cp.c.Delete(ctx, newServiceMonitor(ns, name, "oversize-big")); err != nil {
			t.Fatal(err)
		}
	}
	cp.mustCreate(t, newServiceMonitor(ns, "after", "oversize"))
	took := poll(t, "recovered once the monitors are removed", 60*time.Second, ops, func() error {
		c, err := cp.reconciled(ns, "p")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled is %s/%s", c.Status, c.Reason)
		}
		return cp.configHasMonitors(ns, "p", "small", "after")
	})
	t.Logf("measured: recovery %s after the monitors were removed", took.Round(time.Millisecond))
	cfg, _, _ := cp.config(ns, "p")
	for _, name := range big {
		if strings.Contains(cfg, "/"+name+"/") {
			t.Errorf("the recovered config still holds %s", name)
		}
	}
}

// randomText is n random letters and digits.
func randomText(rng *rand.Rand, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}
