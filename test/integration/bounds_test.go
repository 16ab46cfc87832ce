package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promcfg"
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
