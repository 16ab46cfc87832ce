package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// costPromAPI is fakePromAPI that also answers the cost query: every target's instance
// has the samples given, and 1 series added.
type costPromAPI struct {
	*fakePromAPI
	samples map[string]int // instance -> samples
}

func (f *costPromAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/query" {
		f.fakePromAPI.ServeHTTP(w, r)
		return
	}
	f.requests.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	var rs []string
	for inst, n := range f.samples {
		rs = append(rs, fmt.Sprintf(`{"metric":{"__name__":%q,"instance":%q},"value":[1,"%d"]}`, monitorcost.SamplesMetric, inst, n),
			fmt.Sprintf(`{"metric":{"__name__":%q,"instance":%q},"value":[1,"1"]}`, monitorcost.SeriesAddedMetric, inst))
	}
	fmt.Fprintf(w, `{"status":"success","data":{"resultType":"vector","result":[%s]}}`, strings.Join(rs, ","))
}

// TestMonitorCost: with Lookout's CRDs the API server accepts the SampleCost condition
// beside Accepted and TargetsHealthy, and TopMonitors beside the Prometheus controller's
// own conditions; while the figures do not change, neither the ServiceMonitors nor the
// Prometheus is written again.
func TestMonitorCost(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	reg := prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.Registry = reg
		o.TargetHealthInterval = 200 * time.Millisecond
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	api := &costPromAPI{fakePromAPI: &fakePromAPI{}, samples: map[string]int{"10.0.0.1:8080": 900, "10.0.0.2:8080": 950, "10.0.0.3:8080": 12}}
	pool := func(name string) string { return "serviceMonitor/" + ns + "/" + name + "/0" }
	api.set([]string{pool("big"), pool("small")},
		activeTarget(pool("big"), "10.0.0.1:8080", "up", ""),
		activeTarget(pool("big"), "10.0.0.2:8080", "up", ""),
		activeTarget(pool("small"), "10.0.0.3:8080", "up", ""),
	)
	srv := httptest.NewServer(api)
	defer srv.Close()

	limit := int64(1000)
	p := newPrometheus(ns, "p", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
		p.Spec.EnforcedSampleLimit = &limit
	})
	create(t, p, newServiceMonitor(ns, "big"), newServiceMonitor(ns, "small"))
	runningPrometheusPod(t, p, srv.Listener.Addr().String())

	sampleCost := func(name string) (string, error) {
		sm := &monitoringv1.ServiceMonitor{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sm); err != nil {
			return "", err
		}
		for _, b := range sm.Status.Bindings {
			if len(b.Conditions) == 3 && b.Conditions[0].Type == monitoringv1.Accepted && b.Conditions[1].Type == "TargetsHealthy" && b.Conditions[2].Type == monitorcost.ConditionType {
				c := b.Conditions[2]
				return fmt.Sprintf("%s %s %s", c.Status, c.Reason, c.Message), nil
			}
		}
		return "", fmt.Errorf("%s: bindings %+v", name, sm.Status.Bindings)
	}
	want := map[string]string{
		"big":   "False NearSampleLimit 1,900 samples, 2 series added per scrape from 2 targets (busiest target at 95% of enforcedSampleLimit 1,000)",
		"small": "True WithinSampleLimit 12 samples, 1 series added per scrape from 1 target (busiest target at 1% of enforcedSampleLimit 1,000)",
	}
	eventually(t, 30*time.Second, "SampleCost", func() error {
		for name, w := range want {
			got, err := sampleCost(name)
			if err != nil {
				return err
			}
			if got != w {
				return fmt.Errorf("%s: %q, want %q", name, got, w)
			}
		}
		return nil
	})
	prom := &monitoringv1.Prometheus{}
	wantTop := fmt.Sprintf("1,900 samples, 3 series added per scrape from 2 monitors; most samples: ServiceMonitor %s/big 1,900, ServiceMonitor %s/small 12", ns, ns)
	eventually(t, 30*time.Second, "TopMonitors", func() error {
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "p"}, prom); err != nil {
			return err
		}
		byType := map[monitoringv1.ConditionType]string{}
		for _, c := range prom.Status.Conditions {
			byType[c.Type] = c.Message
		}
		if byType[monitorcost.TopConditionType] != wantTop {
			return fmt.Errorf("TopMonitors %q, want %q", byType[monitorcost.TopConditionType], wantTop)
		}
		if _, ok := byType[monitoringv1.Reconciled]; !ok {
			return fmt.Errorf("no Reconciled condition beside TopMonitors: %+v", prom.Status.Conditions)
		}
		return nil
	})

	// Idle, then a wobble within the rounding: no write of either.
	smWrites := func() float64 { return writeCountsOf(reg)["ServiceMonitor/apply-status"] }
	before, rv := smWrites(), prom.ResourceVersion
	time.Sleep(time.Second)
	api.fakePromAPI.mu.Lock()
	api.samples["10.0.0.1:8080"] = 903
	api.fakePromAPI.mu.Unlock()
	time.Sleep(time.Second)
	if w := smWrites() - before; w != 0 {
		t.Errorf("%v ServiceMonitor status writes while the rounded figures did not change", w)
	}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "p"}, prom); err != nil {
		t.Fatal(err)
	}
	if prom.ResourceVersion != rv {
		t.Errorf("the Prometheus was written while nothing changed (resourceVersion %s -> %s): %+v", rv, prom.ResourceVersion, prom.Status.Conditions)
	}
}
