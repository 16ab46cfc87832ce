package explain

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kept are the addresses of ep's kept targets, sorted.
func kept(ep Endpoint) []string {
	var out []string
	for _, t := range ep.Targets {
		if t.Kept {
			out = append(out, t.Address)
		}
	}
	slices.Sort(out)
	return out
}

// oneEndpoint is the one endpoint of the one monitor of r.
func oneEndpoint(t *testing.T, r *Report) Endpoint {
	t.Helper()
	m := only(t, r)
	if !m.Used() || len(m.Endpoints) != 1 {
		t.Fatalf("monitor %s %s/%s: verdict %+v, %d endpoints", m.Kind, m.Namespace, m.Name, m.Verdict, len(m.Endpoints))
	}
	return m.Endpoints[0]
}

// TestExplainProbes: a Probe's static targets and its Ingresses, as the generated job
// relabels them (the probed URL is the target, the prober the address).
func TestExplainProbes(t *testing.T) {
	r := run(t, Subject{Kind: KindProbe, Namespace: "mon", Name: "sites"}, Options{}, "testdata/probes.yaml")
	ep := oneEndpoint(t, r)
	if !r.OK || ep.Job != "probe/mon/sites" || ep.Kept != 2 || ep.Port != "static targets, prober blackbox.mon.svc:9115" {
		t.Fatalf("ok %v, endpoint %+v", r.OK, ep)
	}
	for _, tg := range ep.Targets {
		if tg.Labels["instance"] == "" || !strings.HasPrefix(tg.Labels["instance"], "https://example.") || tg.Labels["env"] != "prod" ||
			!strings.Contains(tg.URL, "blackbox.mon.svc:9115/probe") || !strings.Contains(tg.URL, "module=http_2xx") {
			t.Errorf("target %+v: want the probed URL as instance, the env label, and the prober's /probe URL", tg)
		}
	}

	r = run(t, Subject{Kind: KindProbe, Namespace: "mon", Name: "ingresses"}, Options{}, "testdata/probes.yaml")
	ep = oneEndpoint(t, r)
	if !r.OK || ep.Kept != 1 || ep.Discovery != "role ingress in every namespace" {
		t.Fatalf("ok %v, endpoint %+v", r.OK, ep)
	}
	for _, tg := range ep.Targets {
		if tg.Kept && tg.Labels["instance"] != "http://shop.example.com/" {
			t.Errorf("kept %+v, want the labelled Ingress's URL as instance", tg)
		}
	}
}

// TestExplainScrapeConfigs: static targets (one dropped by the relabeling, named), all
// dropped (FAIL), and Kubernetes's node role answered by the Nodes of the files.
func TestExplainScrapeConfigs(t *testing.T) {
	sc := func(name string) Subject { return Subject{Kind: KindScrapeConfig, Namespace: "mon", Name: name} }
	r := run(t, sc("static"), Options{}, "testdata/probes.yaml")
	ep := oneEndpoint(t, r)
	if !r.OK || ep.Job != "scrapeConfig/mon/static" || !slices.Equal(kept(ep), []string{"db-0.example.com:9187"}) || ep.Discovery != "static targets (2)" {
		t.Fatalf("ok %v, endpoint %+v", r.OK, ep)
	}
	for _, tg := range ep.Targets {
		if !tg.Kept && (tg.Drop == nil || tg.Address != "db-1.example.com:9187") {
			t.Errorf("dropped %+v: want db-1 with the rule that drops it", tg)
		}
	}

	r = run(t, sc("none-kept"), Options{}, "testdata/probes.yaml")
	if ep = oneEndpoint(t, r); r.OK || r.Unknown || ep.Kept != 0 || len(ep.Targets) != 1 || ep.Targets[0].Drop == nil {
		t.Fatalf("ok %v unknown %v, endpoint %+v: want FAIL with the dropping rule", r.OK, r.Unknown, ep)
	}

	r = run(t, sc("nodes"), Options{}, "testdata/probes.yaml")
	if ep = oneEndpoint(t, r); !r.OK || !slices.Equal(kept(ep), []string{"10.1.0.1:10250", "10.1.0.2:10250"}) || ep.Discovery != "role node in every namespace" {
		t.Fatalf("ok %v, endpoint %+v", r.OK, ep)
	}
}

// scrapeConfigFile writes a Prometheus selecting every ScrapeConfig, and the ScrapeConfig
// spec given, into a file of dir.
func scrapeConfigFile(t *testing.T, spec string) string {
	t.Helper()
	doc := `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {namespace: mon, name: k8s}
spec: {scrapeConfigSelector: {}, scrapeConfigNamespaceSelector: {}}
---
apiVersion: monitoring.coreos.com/v1alpha1
kind: ScrapeConfig
metadata: {namespace: mon, name: sc}
spec:
` + spec
	f := filepath.Join(t.TempDir(), "sc.yaml")
	if err := os.WriteFile(f, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestExplainFileSD: file_sd files on this machine are read with Prometheus's file
// discovery; a file that is only in the Prometheus pod makes the answer UNKNOWN.
func TestExplainFileSD(t *testing.T) {
	dir := t.TempDir()
	targets := filepath.Join(dir, "targets.json")
	if err := os.WriteFile(targets, []byte(`[{"targets": ["a.example.com:9100", "b.example.com:9100"], "labels": {"team": "db"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	subject := Subject{Kind: KindScrapeConfig, Namespace: "mon", Name: "sc"}
	r := run(t, subject, Options{}, scrapeConfigFile(t, "  fileSDConfigs: [{files: ["+targets+"]}]\n"))
	ep := oneEndpoint(t, r)
	if !r.OK || !slices.Equal(kept(ep), []string{"a.example.com:9100", "b.example.com:9100"}) || ep.Targets[0].Labels["team"] != "db" {
		t.Fatalf("ok %v, endpoint %+v", r.OK, ep)
	}

	missing := filepath.Join(dir, "in-the-pod.json")
	r = run(t, subject, Options{}, scrapeConfigFile(t, "  fileSDConfigs: [{files: ["+missing+"]}]\n"))
	ep = oneEndpoint(t, r)
	if r.OK || !r.Unknown || !ep.Undetermined() || len(ep.Unknown) != 1 || !strings.Contains(ep.Unknown[0], "in-the-pod.json is read in the Prometheus pod") {
		t.Fatalf("ok %v unknown %v, endpoint %+v: want UNKNOWN naming the file", r.OK, r.Unknown, ep)
	}
}

// TestExplainHTTPSD: HTTP discovery is run with Prometheus's own code against the
// endpoint (here a loopback server); an endpoint that fails is the endpoint's error.
func TestExplainHTTPSD(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"targets": ["10.2.0.1:9100"], "labels": {"dc": "x"}}]`))
	}))
	defer ok.Close()
	subject := Subject{Kind: KindScrapeConfig, Namespace: "mon", Name: "sc"}
	r := run(t, subject, Options{}, scrapeConfigFile(t, "  httpSDConfigs: [{url: "+ok.URL+"/sd}]\n"))
	ep := oneEndpoint(t, r)
	if !r.OK || !slices.Equal(kept(ep), []string{"10.2.0.1:9100"}) || ep.Discovery != "http discovery (run from this machine)" {
		t.Fatalf("ok %v, endpoint %+v", r.OK, ep)
	}

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) }))
	defer bad.Close()
	r = run(t, subject, Options{}, scrapeConfigFile(t, "  httpSDConfigs: [{url: "+bad.URL+"/sd}]\n"))
	if ep = oneEndpoint(t, r); r.OK || !strings.Contains(ep.Error, "503") {
		t.Fatalf("ok %v, endpoint %+v: want the HTTP status in the error", r.OK, ep)
	}
}
