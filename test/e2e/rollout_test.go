//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// TestSpecChangeRollsPod: a Prometheus spec change that changes the pod (the query timeout is a
// flag) updates the StatefulSet; the pod is recreated once, as the StatefulSet controller
// would, and the new Prometheus runs with the new flag and the same scrape config.
func TestSpecChangeRollsPod(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(1))
	mustCreate(t, sc.prometheus(sc.ns, "main"), sampleServiceMonitor(sc, app))
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}
	pool := fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns)
	sc.step("target up", 60*time.Second, func() error { return oneTargetUp(prom, pool, nil) })

	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "main"}}
	mustUpdate(t, p, func() { p.Spec.Query = &monitoringv1.QuerySpec{Timeout: ptr.To(monitoringv1.Duration("1m"))} })
	pd.wantRestarts = 1
	sc.step("query timeout changed: pod recreated with --query.timeout=1m", s.kubeSync+60*time.Second, func() error {
		if n := pd.restartCount(); n != 1 {
			return fmt.Errorf("pod recreated %d times", n)
		}
		if err := pd.ready(); err != nil {
			return err
		}
		var flags map[string]string
		if err := prom.get("/api/v1/status/flags", nil, &flags); err != nil {
			return err
		}
		if got := flags["query.timeout"]; got != "1m" {
			return fmt.Errorf("query.timeout = %q", got)
		}
		return nil
	})
	sc.step("target up in the new pod", 60*time.Second, func() error { return oneTargetUp(prom, pool, nil) })
}
