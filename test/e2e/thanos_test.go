//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// TestThanosSidecar: a Prometheus with spec.thanos runs the generated thanos-sidecar
// container (the real Thanos, bin/thanos, with the generated arguments, optional ones
// included) beside Prometheus;
// the governing Service carries the sidecar's gRPC port; a real `thanos query`, given the
// sidecar's address as the Service's endpoints name it (what its dnssrv+ lookup of
// _grpc._tcp.prometheus-operated would return), answers /api/v1/query with the series
// Prometheus scraped, read through the sidecar's Store API and labelled with the
// Prometheus's external labels.
func TestThanosSidecar(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	st := sc.thanosStack()
	app, pd, endpoint, query := st.app, st.pod, st.endpoint, st.query

	sc.step("thanos query lists the sidecar as a store with the Prometheus's external labels", 60*time.Second, func() error {
		return thanosStoreUp(query, endpoint, map[string]string{"prometheus": sc.ns + "/main", "prometheus_replica": pd.name})
	})
	want := map[string]string{
		"__name__": "up", "job": "sample", "namespace": sc.ns, "instance": app.instances[0].address(),
		"prometheus": sc.ns + "/main", "prometheus_replica": pd.name,
	}
	sc.step("thanos query answers up{job=\"sample\"} through the sidecar", 60*time.Second, func() error {
		var data struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		}
		if err := query.get("/api/v1/query", url.Values{"query": {`up{job="sample"}`}}, &data); err != nil {
			return err
		}
		if data.ResultType != "vector" || len(data.Result) != 1 {
			return fmt.Errorf("want one series, got %s %+v", data.ResultType, data.Result)
		}
		r := data.Result[0]
		for k, v := range want {
			if r.Metric[k] != v {
				return fmt.Errorf("label %s=%q, want %q (series %v)", k, r.Metric[k], v, r.Metric)
			}
		}
		if r.Value[1] != "1" {
			return fmt.Errorf("up = %v, want 1", r.Value[1])
		}
		return nil
	})
}

// thanosStack is a Prometheus with the real Thanos sidecar scraping the sample app, and a
// real `thanos query` reading it through the sidecar's Store API.
type thanosStack struct {
	app             *sampleApp
	pod             *pod
	endpoint        string
	query           promAPI
	thanos, version string
}

// thanosStack starts the sample app, a Prometheus "main" with spec.thanos (the version of
// bin/thanos, optional flags set so that the real binary parses them), runs its pod, checks
// its target and the sidecar's readiness and the grpc port of the governing Service, and
// starts `thanos query` against the sidecar's address as the Service's endpoints name it.
func (sc *scenario) thanosStack() *thanosStack {
	t := sc.t
	t.Helper()
	ctx := context.Background()
	thanos, err := binaryPath(s.bin, "thanos")
	if err != nil {
		t.Fatalf("Thanos is not built: %v", err)
	}
	version := "v" + imageVersion(thanosImageRepo)

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(1))
	mustCreate(t,
		sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) {
			p.Spec.Thanos = &monitoringv1.ThanosSpec{
				// The version of bin/thanos: the image tag the kubelet helper maps to it,
				// and the version the generator gates the sidecar's flags on.
				Version: ptr.To(version),
				// Optional flags, so that the real binary parses them too. The sidecar
				// starts with Prometheus and retries reaching it every getConfigInterval
				// (30s by default, which would make most of this scenario's time).
				GetConfigInterval: "1s",
				GetConfigTimeout:  "5s",
				ReadyTimeout:      "2m",
				MinTime:           "-1h",
				LogLevel:          "debug",
			}
		}),
		sampleServiceMonitor(sc, app),
	)
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}
	sc.step("target up in Prometheus", 60*time.Second, func() error {
		return oneTargetUp(prom, fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns), nil)
	})
	sc.step("thanos-sidecar ready (its /-/ready: Prometheus reached, external labels read)", 60*time.Second, func() error {
		resp, err := httpc.Get(pd.url("http") + "/-/ready")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("sidecar /-/ready: %s", resp.Status)
		}
		return nil
	})

	// The governing Service has the sidecar's gRPC port, targeting the container port by
	// name.
	svc := &corev1.Service{}
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: layout.GoverningServiceName}, svc); err != nil {
		t.Fatal(err)
	}
	var grpcPort *corev1.ServicePort
	for i, sp := range svc.Spec.Ports {
		if sp.Name == workload.ThanosGRPCPortName {
			grpcPort = &svc.Spec.Ports[i]
		}
	}
	if grpcPort == nil || grpcPort.Port != 10901 || grpcPort.TargetPort != intstr.FromString(workload.ThanosGRPCPortName) {
		t.Fatalf("Service %s: want port grpc 10901 targeting container port grpc, got %+v", svc.Name, svc.Spec.Ports)
	}

	// The endpoint controllers' view of the Service: the sidecar's address is the pod's
	// address and the grpc port's target.
	if err := publishPods(ctx, sc.ns, layout.GoverningServiceName, []*pod{pd}); err != nil {
		t.Fatal(err)
	}
	endpoint, err := serviceEndpoint(ctx, sc.ns, layout.GoverningServiceName, workload.ThanosGRPCPortName)
	if err != nil {
		t.Fatal(err)
	}
	query := sc.startThanosQuery(thanos, endpoint)
	return &thanosStack{app: app, pod: pd, endpoint: endpoint, query: query, thanos: thanos, version: version}
}

// startThanosQuery runs `thanos query` in the suite's network namespace, on an address
// of its own in the pod network (so its ports are free), with the Store API endpoint
// given, and stops it when the test ends. Its HTTP API is served like Prometheus's.
func (sc *scenario) startThanosQuery(thanos, endpoint string) promAPI {
	sc.t.Helper()
	ip := s.ips.allocate()
	if err := addHostAddress(ip); err != nil {
		sc.t.Fatal(err)
	}
	httpAddr := net.JoinHostPort(ip, "10902")
	cmd := exec.Command(thanos, "query",
		"--http-address="+httpAddr,
		"--grpc-address="+net.JoinHostPort(ip, "10901"),
		"--endpoint="+endpoint,
		"--log.level=debug",
	)
	p, err := startProc("thanos-query", filepath.Join(s.artifacts, "thanos-query-"+sc.name+".log"), cmd)
	if err != nil {
		sc.t.Fatal(err)
	}
	sc.procs = append(sc.procs, p)
	sc.t.Cleanup(func() {
		if err := p.Stop(15 * time.Second); err != nil {
			sc.t.Errorf("thanos query: %v", err)
		}
	})
	if err := waitHTTP(p, "http://"+httpAddr+"/-/ready", 60*time.Second); err != nil {
		sc.t.Fatal(err)
	}
	return promAPI{base: "http://" + httpAddr}
}

// serviceEndpoint is ip:port of the single ready endpoint of a Service's EndpointSlices
// for the named port: the answer a DNS SRV lookup of _<port>._tcp.<service> would give.
func serviceEndpoint(ctx context.Context, ns, service, portName string) (string, error) {
	var slices discoveryv1.EndpointSliceList
	if err := s.k8s.List(ctx, &slices, client.InNamespace(ns), client.MatchingLabels{discoveryv1.LabelServiceName: service}); err != nil {
		return "", err
	}
	var out []string
	for _, sl := range slices.Items {
		for _, p := range sl.Ports {
			if ptr.Deref(p.Name, "") != portName || p.Port == nil {
				continue
			}
			for _, e := range sl.Endpoints {
				if ptr.Deref(e.Conditions.Ready, false) {
					for _, a := range e.Addresses {
						out = append(out, net.JoinHostPort(a, strconv.Itoa(int(*p.Port))))
					}
				}
			}
		}
	}
	if len(out) != 1 {
		return "", fmt.Errorf("Service %s/%s port %s: endpoints %v, want one", ns, service, portName, out)
	}
	return out[0], nil
}

// thanosStoreUp checks that Thanos Query's /api/v1/stores lists endpoint, healthy, with a
// label set holding the labels in want.
func thanosStoreUp(query promAPI, endpoint string, want map[string]string) error {
	var stores map[string][]struct {
		Name      string              `json:"name"`
		LastError *string             `json:"lastError"`
		LabelSets []map[string]string `json:"labelSets"`
	}
	if err := query.get("/api/v1/stores", nil, &stores); err != nil {
		return err
	}
	for typ, list := range stores {
		for _, st := range list {
			if st.Name != endpoint {
				continue
			}
			if st.LastError != nil && *st.LastError != "" {
				return fmt.Errorf("store %s (%s): %s", endpoint, typ, *st.LastError)
			}
			for _, ls := range st.LabelSets {
				ok := true
				for k, v := range want {
					ok = ok && ls[k] == v
				}
				if ok {
					return nil
				}
			}
			return fmt.Errorf("store %s (%s): label sets %v, want one with %v", endpoint, typ, st.LabelSets, want)
		}
	}
	return fmt.Errorf("store %s not listed: %v", endpoint, stores)
}
