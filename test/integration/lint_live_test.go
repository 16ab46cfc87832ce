package integration

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/costtop"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/lint"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// fakeCostAPI is a Prometheus's /api/v1/targets and /api/v1/query as costtop reads
// them: one target per monitor (pool serviceMonitor/NS/NAME/0) exposing samples[NAME].
func fakeCostAPI(ns string, samples map[string]int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ts, rs []string
		for name, n := range samples {
			lbl := fmt.Sprintf(`"job":%q,"instance":"10.1.0.1:8080"`, name)
			ts = append(ts, fmt.Sprintf(`{"labels":{%s},"scrapePool":"serviceMonitor/%s/%s/0","health":"up"}`, lbl, ns, name))
			rs = append(rs, fmt.Sprintf(`{"metric":{"__name__":%q,%s},"value":[1,"%d"]}`, monitorcost.SamplesMetric, lbl, n),
				fmt.Sprintf(`{"metric":{"__name__":%q,%s},"value":[1,"1"]}`, monitorcost.SeriesAddedMetric, lbl))
		}
		switch r.URL.Path {
		case "/api/v1/targets":
			fmt.Fprintf(w, `{"status":"success","data":{"activeTargets":[%s]}}`, strings.Join(ts, ","))
		case "/api/v1/query":
			fmt.Fprintf(w, `{"status":"success","data":{"resultType":"vector","result":[%s]}}`, strings.Join(rs, ","))
		default:
			http.NotFound(w, r)
		}
	})
}

// TestLintLive: lint --live's reading (lint.ReadLive: clusterread and costtop.Measure)
// against the control plane. A ServiceMonitor whose selector matches no Service is
// found, a healthy one is not; the Prometheus's enforcedSampleLimit is exceeded by one
// monitor's target. The API server's pod proxy refuses loopback pod IPs ("address not
// allowed") and envtest has no pod network, so the Getter asks the fake Prometheus on
// loopback directly: Measure reads the real Prometheus and Pod objects and only the
// proxy hop is replaced. A file's monitor laid over the cluster is judged against the
// cluster's Services, and the cluster-only findings are not reported.
func TestLintLive(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "k8s", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: "true"} // the shared operator leaves it alone
		p.Spec.EnforcedSampleLimit = ptr.To[int64](1000)
	})
	create(t, p, newServiceMonitor(ns, "healthy"), newServiceMonitor(ns, "busy"),
		newServiceMonitor(ns, "typo", func(sm *monitoringv1.ServiceMonitor) { sm.Spec.Selector.MatchLabels["app"] = "helthy" }))
	addService(t, ns, "healthy", "web", "10.1.0.10")
	addService(t, ns, "busy", "web", "10.1.0.11")

	srv := httptest.NewServer(fakeCostAPI(ns, map[string]int{"healthy": 120, "busy": 1500}))
	defer srv.Close()
	sel, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(promserver.Of(p)))
	if err != nil {
		t.Fatal(err)
	}
	sel[layout.ShardLabel] = "0"
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "prometheus-k8s-0", Labels: sel},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus", Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: 9090}}}}}}
	create(t, pod)
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}}
	if err := k8s.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
	asked := 0
	get := func(ctx context.Context, pod *corev1.Pod, scheme string, port int, urlPath, query string, read func(io.Reader) error) error {
		if pod.Namespace != ns {
			return fmt.Errorf("not this test's Prometheus")
		}
		if port != 9090 || scheme != "http" {
			return fmt.Errorf("asked %s port %d", scheme, port)
		}
		asked++
		resp, err := http.Get(srv.URL + urlPath + "?" + query)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return read(resp.Body)
	}
	c, err := client.New(env.Config, client.Options{Scheme: costtop.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	live, err := lint.ReadLive(ctx, c, get)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lint.Lint(nil, nil, lint.Options{Live: live})
	if err != nil {
		t.Fatal(err)
	}
	ours := func(res *lint.Result) []string {
		var out []string
		for _, f := range res.Findings {
			if f.Namespace == ns {
				out = append(out, fmt.Sprintf("%s %s %s: %s", f.Severity, f.Check, f.Name, f.Message))
			}
		}
		return out
	}
	got := ours(res)
	if asked != 2 {
		t.Errorf("the fake Prometheus was asked %d times, want 2 (targets, query)", asked)
	}
	want := []string{
		"error monitor-sample-limit-exceeded busy: in Prometheus " + ns + "/k8s the busiest of its 1 target exposes 1,500 samples per scrape (after metric relabeling), more than enforcedSampleLimit 1,000",
		"warning monitor-selector-no-match typo: the selector app=helthy matches no Service in namespace " + ns,
	}
	if len(got) != len(want) {
		t.Fatalf("findings in %s:\n%s\nwant:\n%s", ns, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d: %q, want it to start with %q", i, got[i], want[i])
		}
	}

	// The same as a user holding only example/lint/rbac.yaml's ClusterRole.
	applyManifests(t, filepath.Join("..", "..", "example", "lint", "rbac.yaml"))
	user := rest.CopyConfig(env.Config)
	user.Impersonate = rest.ImpersonationConfig{UserName: "linter", Groups: []string{"lookout-lint"}}
	uc, err := client.New(user, client.Options{Scheme: costtop.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "lint --live as a user with example/lint/rbac.yaml", func() error {
		asked = 0
		l, err := lint.ReadLive(ctx, uc, get)
		if err != nil {
			return err
		}
		r, err := lint.Lint(nil, nil, lint.Options{Live: l})
		if err != nil {
			return err
		}
		var notes []string // about this test's objects (other tests' Prometheuses have no pods)
		for _, n := range r.Notes {
			if strings.Contains(n, ns+"/") {
				notes = append(notes, n)
			}
		}
		if g := ours(r); strings.Join(g, "\n") != strings.Join(got, "\n") || len(notes) > 0 {
			return fmt.Errorf("findings:\n%s\nnotes: %v\nwant the admin's:\n%s", strings.Join(g, "\n"), notes, strings.Join(got, "\n"))
		}
		return nil
	})

	// A pull request's monitor against the cluster: its port is not the Service's.
	file := fmt.Sprintf(`apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: pr, namespace: %s, labels: {team: a}}
spec:
  selector: {matchLabels: {app: healthy}}
  endpoints: [{port: metrics}]
`, ns)
	docs, err := manifest.Decode([]byte(file), "pr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	live.Measure = nil
	res, err = lint.Lint(docs, nil, lint.Options{Live: live})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Check != "monitor-port-not-found" || res.Findings[0].File != "pr.yaml" || res.ClusterOnly == 0 {
		t.Errorf("with the file: findings %+v, %d cluster-only", res.Findings, res.ClusterOnly)
	}
}

// applyManifests creates the objects of a manifest file as written (cluster-scoped RBAC
// examples), or leaves them when they exist.
func applyManifests(t *testing.T, path string) {
	t.Helper()
	docs, err := manifest.ReadPaths(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		u := &unstructured.Unstructured{Object: d.Object}
		if err := k8s.Create(ctx, u); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("%s %s: %v", d.GetKind(), d.GetName(), err)
		}
	}
}
