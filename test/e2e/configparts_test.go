//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
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

// TestConfigParts: a configuration larger than one Secret can hold (600 ServiceMonitors
// whose relabelings carry 2 KB of random text each, about 1.2 MiB compressed) is spread
// over four Secrets, part 0 without jobs (ADR 42) and three holding them; the real
// reloader reads them all and the real Prometheus runs every job; a change to one monitor
// rewrites its part and part 0 (whose manifest names the parts) and reaches Prometheus.
func TestConfigParts(t *testing.T) {
	sc := newScenario(t, 4*time.Minute)
	defer sc.done()
	ctx := context.Background()
	const noisy = 600

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(1))
	for i := range noisy {
		noise := make([]byte, 2000)
		if _, err := rand.Read(noise); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, &monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: fmt.Sprintf("noise-%03d", i), Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": "nothing"}},
				Endpoints: []monitoringv1.Endpoint{{Port: "web", RelabelConfigs: []monitoringv1.RelabelConfig{
					{TargetLabel: "noise", Replacement: ptr.To(hex.EncodeToString(noise))},
				}}},
			},
		})
	}
	mustCreate(t, &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
			Endpoints: []monitoringv1.Endpoint{{Port: samplePortName, Interval: "1s"}},
		},
	})
	mustCreate(t, sc.prometheus(sc.ns, "main"))

	secrets := func() (map[string]string, error) {
		versions := map[string]string{}
		for n := 0; ; n++ {
			name := layout.Prometheus("main").ConfigPartSecret(n)
			var sec corev1.Secret
			err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: name}, &sec)
			if apierrors.IsNotFound(err) && n > 0 {
				return versions, nil
			}
			if err != nil {
				return nil, err
			}
			versions[name] = sec.ResourceVersion
		}
	}
	sc.step("the configuration is spread over four Secrets", 90*time.Second, func() error {
		v, err := secrets()
		if err != nil {
			return err
		}
		if len(v) != 4 {
			return fmt.Errorf("%d config Secrets, want 4", len(v))
		}
		return nil
	})

	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}
	pool := fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns)
	sc.step("Prometheus runs the jobs of every part; the sample target is up", 90*time.Second, func() error {
		cfg, err := prom.config()
		if err != nil {
			return err
		}
		if n := strings.Count(cfg, "job_name: serviceMonitor/"+sc.ns+"/"); n != noisy+1 {
			return fmt.Errorf("Prometheus runs %d of the %d jobs", n, noisy+1)
		}
		return oneTargetUp(prom, pool, map[string]string{"job": "sample", "namespace": sc.ns})
	})

	before, err := secrets()
	if err != nil {
		t.Fatal(err)
	}
	var sm monitoringv1.ServiceMonitor
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "sample"}, &sm); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, &sm, func() { sm.Spec.Endpoints[0].Interval = "2s" })
	took := sc.step("one monitor's change reaches Prometheus", 60*time.Second, func() error {
		cfg, err := prom.config()
		if err != nil {
			return err
		}
		_, job, ok := strings.Cut(cfg, "job_name: "+pool+"\n")
		if !ok {
			return fmt.Errorf("no job %s", pool)
		}
		if next := strings.Index(job, "\n- job_name:"); next >= 0 {
			job = job[:next]
		}
		if !strings.Contains(job, "scrape_interval: 2s") {
			return fmt.Errorf("job %s does not scrape every 2s yet", pool)
		}
		return nil
	})
	t.Logf("one monitor's change in a configuration of four Secrets reached Prometheus in %s", took.Round(time.Millisecond))
	after, err := secrets()
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for name, rv := range after {
		if before[name] != rv {
			changed++
		}
	}
	if changed != 2 || len(after) != 4 {
		t.Errorf("%d of %d config Secrets rewritten for one monitor's change, want 2 of 4 (its part and part 0)", changed, len(after))
	}
}
