package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/costtop"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// fakeTopCluster holds Prometheus mon/k8s with one ready pod whose Prometheus answers
// with one ServiceMonitor target (1,500 samples, 7 series added), or fails (down).
func fakeTopCluster(t *testing.T, down bool) *topCluster {
	t.Helper()
	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "k8s"}}
	l, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(promserver.Of(p)))
	if err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "prometheus-k8s-0", Labels: l},
		Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}}
	c := fake.NewClientBuilder().WithScheme(costtop.Scheme()).WithObjects(p, pod).Build()
	get := func(_ context.Context, pod *corev1.Pod, scheme string, port int, urlPath, query string, read func(io.Reader) error) error {
		if down {
			return errors.New("HTTP 503 Service Unavailable")
		}
		switch urlPath {
		case "/api/v1/targets":
			return read(strings.NewReader(`{"status":"success","data":{"activeTargets":[{"labels":{"job":"api","instance":"a"},"scrapePool":"serviceMonitor/shop/api/0"}]}}`))
		case "/api/v1/query":
			return read(strings.NewReader(`{"status":"success","data":{"resultType":"vector","result":[
				{"metric":{"__name__":"scrape_samples_post_metric_relabeling","job":"api","instance":"a"},"value":[1,"1500"]},
				{"metric":{"__name__":"scrape_series_added","job":"api","instance":"a"},"value":[1,"7"]}]}}`))
		}
		return errors.New("unexpected path " + urlPath)
	}
	return &topCluster{reader: c, get: get}
}

func runTopWith(cluster *topCluster, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := runTop(args, &out, &errb, cluster)
	return out.String(), errb.String(), code
}

func TestTopText(t *testing.T) {
	out, errs, code := runTopWith(fakeTopCluster(t, false))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Prometheus mon/k8s (1 shard): 1,500 samples, 7 series added per scrape, 1 targets", "ServiceMonitor shop/api\n", "shop\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestTopJSON(t *testing.T) {
	out, errs, code := runTopWith(fakeTopCluster(t, false), "-o", "json", "--prometheus", "mon/k8s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var rep costtop.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Prometheuses) != 1 || len(rep.Prometheuses[0].Monitors) != 1 || rep.Prometheuses[0].Monitors[0].Samples != 1500 || rep.Prometheuses[0].Monitors[0].SeriesAdded != 7 {
		t.Errorf("report %+v", rep)
	}
}

func TestTopUnreachableExitsOne(t *testing.T) {
	out, _, code := runTopWith(fakeTopCluster(t, true))
	if code != 1 || !strings.Contains(out, "Prometheus mon/k8s: not measured: shard 0 (pod prometheus-k8s-0): targets: HTTP 503 Service Unavailable") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if _, errs, code := runTopWith(fakeTopCluster(t, false), "--prometheus", "mon/absent"); code != 1 || !strings.Contains(errs, "reading Prometheus mon/absent") {
		t.Errorf("an absent Prometheus: exit %d, %s", code, errs)
	}
}

func TestTopUsage(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"-o", "yaml"}, {"--top", "-1"}, {"--no-such-flag"}, {"--prometheus", "k8s"}, {"--timeout", "0s"}} {
		if _, _, code := runTopWith(fakeTopCluster(t, false), args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if _, errs, code := runTopWith(nil, "-h"); code != 0 || !strings.Contains(errs, "usage: lookout-operator top") {
		t.Errorf("-h: exit %d\n%s", code, errs)
	}
	if code := dispatch([]string{"top", "-o", "yaml"}); code != 2 {
		t.Errorf("dispatch: exit %d", code)
	}
}
