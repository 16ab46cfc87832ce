package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// secretLimit is what a Secret's data may hold (the operator keeps 16 KiB of the 1 MiB
// object limit for metadata).
const secretLimit = 1024*1024 - 16*1024

// TestOversizedConfigIsSplit: monitors that push the compressed configuration past what
// a Secret holds no longer stop the configuration (ADR 20): it is spread over the config
// Secret and part Secrets (the jobs in the parts, ADR 42), the pods read them all,
// Reconciled stays True and the size is in lookout_prometheus_config_bytes. Removing the
// monitors brings it back into one Secret and deletes the parts.
func TestOversizedConfigIsSplit(t *testing.T) {
	ns := cp.newNamespace(t)
	op := startOperator(t, cp, "oversize", "oversize")
	ops := []*operator{op}
	cp.mustCreate(t, newPrometheus(ns, "p", "oversize"), newServiceMonitor(ns, "small", "oversize"))
	poll(t, "config generated", 30*time.Second, ops, func() error { return cp.configHasMonitors(ns, "p", "small") })
	quiet(t, time.Second, 30*time.Second, op)

	// Random replacement strings do not compress: about 1.2 MB of gzip in eight monitors
	// of 200 KB of text (about 150 KB gzipped each), every one within the per-object
	// limit (promcfg.MaxObjectCompressedBytes, 256 KiB) so that it is accepted on its own:
	// only together do they exceed what a Secret holds. They are created unselected, then
	// selected at once by one change of the Prometheus.
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
	part := layout.Prometheus("p").ConfigPartSecret(1)
	took := poll(t, "the configuration spread over several Secrets, Reconciled=True", 60*time.Second, ops, func() error {
		c, err := cp.reconciled(ns, "p")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled is %s/%s: %s", c.Status, c.Reason, c.Message)
		}
		if err := cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: part}, &corev1.Secret{}); err != nil {
			return err
		}
		return cp.configHasMonitors(ns, "p", append([]string{"small"}, big...)...)
	})
	var size float64
	poll(t, "lookout_prometheus_config_bytes reports the size of them all", 10*time.Second, ops, func() error {
		m, err := op.metrics()
		if err != nil {
			return err
		}
		key := fmt.Sprintf(`lookout_prometheus_config_bytes{encoding="gzip",name="p",namespace=%q}`, ns)
		if size = m[key]; size <= secretLimit {
			return fmt.Errorf("%s = %v, want more than one Secret's %d", key, size, secretLimit)
		}
		return nil
	})
	t.Logf("measured: %.0f bytes of compressed configuration spread over several Secrets %s after the selector change", size, took.Round(time.Millisecond))
	sts, err := cp.statefulSet(ns, layout.Prometheus("p").StatefulSet(0))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(sts.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == "config-parts" }) {
		t.Error("the StatefulSet does not mount the part Secret")
	}

	for _, name := range big {
		if err := cp.c.Delete(ctx, newServiceMonitor(ns, name, "oversize-big")); err != nil {
			t.Fatal(err)
		}
	}
	cp.mustCreate(t, newServiceMonitor(ns, "after", "oversize"))
	took = poll(t, "back in one Secret once the monitors are removed, the part deleted", 60*time.Second, ops, func() error {
		if err := cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: part}, &corev1.Secret{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("part Secret %s: %v", part, err)
		}
		return cp.configHasMonitors(ns, "p", "small", "after")
	})
	t.Logf("measured: back in one Secret %s after the monitors were removed", took.Round(time.Millisecond))
	cfg, _, _ := cp.config(ns, "p")
	for _, name := range big {
		if strings.Contains(cfg, "/"+name+"/") {
			t.Errorf("the config still holds %s", name)
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
