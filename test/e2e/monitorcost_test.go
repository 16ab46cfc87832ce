//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
)

// TestMonitorCost: a real Prometheus scrapes two apps of two instances each, one
// exposing 150 series per instance (its ServiceMonitor's sampleLimit 170), the sample app
// 2; the operator (--target-health-interval=2s, --monitor-cost on by default) joins the
// targets answer with one query and writes SampleCost into each ServiceMonitor's binding
// and TopMonitors into the Prometheus's status. The figures are those Prometheus
// reports, queried here: 300 samples for the big app, its busiest target at 88% of its
// sampleLimit (NearSampleLimit), 4 for the sample app.
func TestMonitorCost(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	sc.startOperator("cost", "--target-health-interval=2s")
	big := startSeriesApp(t, sc.ns, "big", allocateIPs(2), 150)
	small := startSampleApp(t, sc.ns, "small", allocateIPs(2))
	bigSM := sampleServiceMonitor(sc, big)
	bigSM.Spec.SampleLimit = ptr.To[int64](170)
	mustCreate(t,
		sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{operatorLabel: "cost"} }),
		bigSM,
		sampleServiceMonitor(sc, small),
	)
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	if err := createPodObject(ctx, pd); err != nil {
		t.Fatal(err)
	}
	api := promAPI{base: pd.url("web")}

	for _, tc := range []struct {
		monitor       string
		samples       int64
		limit         int64
		status        string
		reason        string
		busiestTarget int64
	}{
		{"big", 300, 170, "False", monitorcost.ReasonNearSampleLimit, 150},
		{"small", 4, 0, "True", monitorcost.ReasonNoSampleLimit, 2},
	} {
		sc.step(fmt.Sprintf("ServiceMonitor %s: SampleCost %s %s, %d samples as Prometheus reports", tc.monitor, tc.status, tc.reason, tc.samples), 90*time.Second, func() error {
			// What Prometheus reports for the monitor's targets (its job label is the
			// Service's name).
			sel := fmt.Sprintf(`{namespace=%q,service=%q}`, sc.ns, tc.monitor)
			samples, err := queryScalar(api, "sum(scrape_samples_post_metric_relabeling"+sel+")")
			if err != nil {
				return err
			}
			added, err := queryScalar(api, "sum(scrape_series_added"+sel+")")
			if err != nil {
				return err
			}
			if samples != tc.samples {
				return fmt.Errorf("Prometheus reports %d samples, want %d (not scraped yet?)", samples, tc.samples)
			}
			c := monitorcost.Cost{Samples: samples, SeriesAdded: added, MaxTargetSamples: tc.busiestTarget, Targets: 2, Scraped: 2}.Rounded()
			l := monitorcost.Limit{}
			if tc.limit > 0 {
				l = monitorcost.Limit{Value: tc.limit, Field: "sampleLimit"}
			}
			wantStatus, wantReason, wantMsg := monitorcost.Condition(c, l)
			if string(wantStatus) != tc.status || wantReason != tc.reason {
				return fmt.Errorf("test expectation %s %s, computed %s %s", tc.status, tc.reason, wantStatus, wantReason)
			}
			var sm monitoringv1.ServiceMonitor
			if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: tc.monitor}, &sm); err != nil {
				return err
			}
			for _, b := range sm.Status.Bindings {
				for _, cond := range b.Conditions {
					if cond.Type != monitorcost.ConditionType {
						continue
					}
					got := fmt.Sprintf("%s %s %s", cond.Status, cond.Reason, cond.Message)
					if want := fmt.Sprintf("%s %s %s", wantStatus, wantReason, wantMsg); got != want {
						return fmt.Errorf("SampleCost: %q, want %q", got, want)
					}
					t.Logf("ServiceMonitor %s: SampleCost %s", tc.monitor, got)
					return nil
				}
			}
			return fmt.Errorf("no SampleCost condition in %+v", sm.Status.Bindings)
		})
	}

	sc.step("Prometheus main: TopMonitors names big, then small", 60*time.Second, func() error {
		var p monitoringv1.Prometheus
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "main"}, &p); err != nil {
			return err
		}
		for _, c := range p.Status.Conditions {
			if c.Type != monitorcost.TopConditionType {
				continue
			}
			want := fmt.Sprintf("most samples: ServiceMonitor %s/big 300, ServiceMonitor %s/small 4", sc.ns, sc.ns)
			if c.Status != "True" || !strings.HasSuffix(c.Message, want) || !strings.HasPrefix(c.Message, "300 samples, ") {
				return fmt.Errorf("TopMonitors %s %q, want ...%q", c.Status, c.Message, want)
			}
			t.Logf("Prometheus main: TopMonitors %q", c.Message)
			// The Prometheus controller's own conditions are still there.
			for _, other := range []monitoringv1.ConditionType{monitoringv1.Available, monitoringv1.Reconciled} {
				found := false
				for _, o := range p.Status.Conditions {
					found = found || o.Type == other
				}
				if !found {
					return fmt.Errorf("no %s condition beside TopMonitors: %+v", other, p.Status.Conditions)
				}
			}
			return nil
		}
		return fmt.Errorf("no TopMonitors condition in %+v", p.Status.Conditions)
	})
}

// queryScalar runs an instant query whose result is one series and returns its value.
func queryScalar(a promAPI, expr string) (int64, error) {
	var data struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	}
	if err := a.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return 0, err
	}
	if len(data.Result) != 1 {
		return 0, fmt.Errorf("query %s: %d series", expr, len(data.Result))
	}
	s, _ := data.Result[0].Value[1].(string)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("query %s: value %v", expr, data.Result[0].Value[1])
	}
	return int64(f), nil
}

// startSeriesApp is the sample app whose instances expose exactly n series each
// (e2e_cost_series{i="0".."n-1"}), and nothing else.
func startSeriesApp(t *testing.T, ns, name string, ips []string, n int) *sampleApp {
	t.Helper()
	ctx := context.Background()
	app := &sampleApp{name: name}
	labels := map[string]string{"app": name}
	var eps []endpoint
	for k, ip := range ips {
		in := &sampleInstance{pod: fmt.Sprintf("%s-%d", name, k), ip: ip}
		reg := prometheus.NewRegistry()
		g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "e2e_cost_series", Help: "One of n series."}, []string{"i"})
		for i := 0; i < n; i++ {
			g.WithLabelValues(strconv.Itoa(i)).Set(float64(i))
		}
		reg.MustRegister(g)
		if err := addHostAddress(ip); err != nil {
			t.Fatal(err)
		}
		l, err := net.Listen("tcp", in.address())
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		srv := &http.Server{Handler: mux}
		go func() { _ = srv.Serve(l) }()
		t.Cleanup(func() { srv.Close() })
		ports := []corev1.ContainerPort{{Name: samplePortName, ContainerPort: samplePort, Protocol: corev1.ProtocolTCP}}
		if err := createRunningPod(ctx, ns, in.pod, ip, labels, "app", ports); err != nil {
			t.Fatal(err)
		}
		app.instances = append(app.instances, in)
		eps = append(eps, endpoint{ip: ip, pod: in.pod})
	}
	if err := createService(ctx, ns, name, labels, samplePortName, samplePort, eps); err != nil {
		t.Fatal(err)
	}
	return app
}
