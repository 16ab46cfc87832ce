package integration

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	amconfig "github.com/prometheus/alertmanager/config"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TestNamespaceConfigBound: the monitors of one namespace cannot add more than
// --max-namespace-config-bytes (default 8 MiB) to a Prometheus together. Eight
// ServiceMonitors of about 1.1 MB each (a long relabeling replacement, within every
// per-object bound) go in; the eighth is refused with the bound in its condition, the
// seven before it stay, and it comes back once one of them goes.
func TestNamespaceConfigBound(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "bounded")
	create(t, p)
	const each = 1_100_000
	if 8*each < promcfg.DefaultMaxNamespaceBytes || 7*each > promcfg.DefaultMaxNamespaceBytes-100_000 {
		t.Fatalf("the monitors' size does not straddle the default bound %d", promcfg.DefaultMaxNamespaceBytes)
	}
	var sms []*monitoringv1.ServiceMonitor
	for i := range 8 {
		sm := newServiceMonitor(ns, fmt.Sprintf("m%d", i), func(s *monitoringv1.ServiceMonitor) {
			s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{
				Action: "replace", TargetLabel: "filler", Replacement: ptr.To(strings.Repeat(fmt.Sprint(i), each)),
			}}
		})
		create(t, sm)
		sms = append(sms, sm)
	}
	eventually(t, 90*time.Second, "the eighth monitor refused, the others accepted", func() error {
		for i := range 7 {
			if err := bindingFor(ns, fmt.Sprintf("m%d", i), "bounded", monitoringv1.ConditionTrue, "Accepted", ""); err != nil {
				return err
			}
		}
		return bindingFor(ns, "m7", "bounded", monitoringv1.ConditionFalse, "InvalidConfiguration",
			fmt.Sprintf("of namespace %s written before this one already add", ns))
	})
	if err := bindingFor(ns, "m7", "bounded", monitoringv1.ConditionFalse, "InvalidConfiguration", "(the operator's --max-namespace-config-bytes)"); err != nil {
		t.Fatal(err)
	}
	if err := k8s.Delete(ctx, sms[0]); err != nil {
		t.Fatal(err)
	}
	eventually(t, 90*time.Second, "the eighth monitor accepted once room is made", func() error {
		return bindingFor(ns, "m7", "bounded", monitoringv1.ConditionTrue, "Accepted", "")
	})
}

// TestAlertmanagerConfigBounds: two AlertmanagerConfigs of 693 KB no longer make the
// whole Alertmanager Invalid: each is refused for its size, and of ten objects of 250 KB
// (text gzip cannot squeeze) those that would take the compressed configuration past
// what its Secret holds are left out in order, while the Alertmanager stays Reconciled
// with a configuration that Alertmanager loads.
func TestAlertmanagerConfigBounds(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	rng := rand.New(rand.NewPCG(11, 12))
	noisy := func(name string, size int) *monitoringv1alpha1.AlertmanagerConfig {
		b := make([]byte, size/2)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return &monitoringv1alpha1.AlertmanagerConfig{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"team": "a"}},
			Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
				Route: &monitoringv1alpha1.Route{Receiver: "hook"},
				Receivers: []monitoringv1alpha1.Receiver{{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
					URL: ptr.To("https://hook.example.invalid/?" + hex.EncodeToString(b)),
				}}}},
			},
		}
	}
	create(t, noisy("huge-1", 693_000), noisy("huge-2", 693_000))
	for i := range 10 {
		create(t, noisy(fmt.Sprintf("large-%d", i), 250_000))
	}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}, Spec: monitoringv1.AlertmanagerSpec{
		AlertmanagerConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
	}}
	create(t, am)
	eventually(t, 90*time.Second, "the huge ones refused for their size", func() error {
		for _, name := range []string{"huge-1", "huge-2"} {
			if err := amcBinding(ns, name, "main", monitoringv1.ConditionFalse, fmt.Sprintf("more than the %d bytes one AlertmanagerConfig may add", amcfg.MaxObjectBytes)); err != nil {
				return err
			}
		}
		return nil
	})
	var cfg string
	eventually(t, 90*time.Second, "the large ones kept or left out in order", func() error {
		kept := 0
		for i := range 10 {
			name := fmt.Sprintf("large-%d", i)
			if amcBinding(ns, name, "main", monitoringv1.ConditionTrue, "") == nil {
				if kept != i {
					return fmt.Errorf("%s kept after one was left out", name)
				}
				kept++
				continue
			}
			if err := amcBinding(ns, name, "main", monitoringv1.ConditionFalse, "left out: it adds about"); err != nil {
				return err
			}
		}
		if kept < 3 || kept == 10 {
			return fmt.Errorf("%d of 10 kept; want some kept and some left out", kept)
		}
		c, _, err := amCondition(ns, "main", monitoringv1.Reconciled)
		if err != nil || c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled %+v, %v", c, err)
		}
		if cfg, _, err = amConfig(ns, "main"); err != nil {
			return err
		}
		if !strings.Contains(cfg, ns+"/large-0/hook") {
			return fmt.Errorf("large-0 is not in the configuration yet")
		}
		return nil
	})
	if _, err := amconfig.Load(cfg); err != nil {
		t.Fatalf("Alertmanager refuses the configuration: %v", err)
	}
}
