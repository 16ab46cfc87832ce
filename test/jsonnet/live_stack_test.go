package jsonnet

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

// TestLiveStackApplies checks that every file of example/stack was applied to the API
// server (server-side apply, CRDs first) and reads each object back.
func TestLiveStackApplies(t *testing.T) {
	s := liveSys(t)
	onDisk, err := render.OnDisk(s.root)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.stackFiles) != len(onDisk) {
		t.Errorf("applied %d files, %s holds %d", len(s.stackFiles), render.StackDir, len(onDisk))
	}
	for _, f := range s.stackFiles {
		objs, err := manifest.ReadPaths(filepath.Join(s.root, f))
		if err != nil {
			t.Fatal(err)
		}
		want := objs[0]
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(want.GroupVersionKind())
		if err := s.admin.Get(context.Background(), client.ObjectKeyFromObject(want), got); err != nil {
			t.Errorf("%s: %s %s not found after apply: %v", f, want.GetKind(), want.GetName(), err)
		}
	}
}

// TestLiveOperatorRBAC checks that the stack's RBAC is enough for the operator: it runs
// with the lookout-operator ServiceAccount's token, and no request it made was refused.
// The control plane must enforce RBAC for that to mean anything, which is checked first.
func TestLiveOperatorRBAC(t *testing.T) {
	s := liveSys(t)
	ctx := context.Background()
	kc, err := s.kubeconfigFor(ctx, stackNamespace, "lookout-operator")
	if err != nil {
		t.Fatal(err)
	}
	c, err := clientFromKubeconfig(kc)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.List(ctx, &corev1.PersistentVolumeList{}); !apierrors.IsForbidden(err) {
		t.Fatalf("listing PersistentVolumes as the operator: got %v, want forbidden (the control plane does not enforce RBAC?)", err)
	}
	if err := c.List(ctx, &corev1.SecretList{}); err != nil {
		t.Errorf("the operator's ServiceAccount cannot list Secrets: %v", err)
	}

	refused := regexp.MustCompile(`rest_client_requests_total\{[^}]*code="(401|403)"[^}]*\} [1-9]`)
	if m := refused.Find(s.metrics(t, s.operatorURL)); m != nil {
		t.Errorf("the operator had requests refused: %s", m)
	}
	log, err := os.ReadFile(s.operator.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "forbidden") {
			t.Errorf("operator log: %s", line)
		}
	}
}

// TestLiveStackPrometheus checks what the operator made of the stack: its Prometheus
// selects every ServiceMonitor of the stack (and rejects the fixture's invalid one), and
// accepts the mixin's PrometheusRule.
func TestLiveStackPrometheus(t *testing.T) {
	s := liveSys(t)
	endpoints := stackServiceMonitors(t, s.root)
	monitors := map[string]bool{}
	for _, e := range endpoints {
		monitors[e[:strings.LastIndex(e, "/")]] = true
	}
	b := s.metrics(t, s.operatorURL)
	for _, want := range []string{
		fmt.Sprintf(`lookout_managed_resources{kind="ServiceMonitor",name="k8s",namespace="lookout",state="selected"} %d`, len(monitors)),
		`lookout_managed_resources{kind="ServiceMonitor",name="k8s",namespace="lookout",state="rejected"} 1`,
		`lookout_managed_resources{kind="PrometheusRule",name="k8s",namespace="lookout",state="selected"} 1`,
		`lookout_managed_resources{kind="PrometheusRule",name="k8s",namespace="lookout",state="rejected"} 0`,
		`lookout_reconcile_failures_total{name="broken",namespace="fixtures",reason="InvalidConfiguration"}`,
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("operator /metrics lacks %s", want)
		}
	}
	cfg, hash := s.generatedConfig(t, "k8s")
	for _, e := range endpoints {
		if job := "serviceMonitor/" + e; !strings.Contains(cfg, job) {
			t.Errorf("the generated configuration of lookout/k8s has no scrape job for %s", job)
		}
	}
	if strings.Contains(cfg, "fixtures/rejected") {
		t.Errorf("the rejected ServiceMonitor made it into the configuration")
	}
	if want := fmt.Sprintf(`lookout_prometheus_config_info{hash=%q,name="k8s",namespace="lookout"} 1`, hash); !bytes.Contains(b, []byte(want)) {
		t.Errorf("operator /metrics lacks %s: the hash label is not the SHA-256 of the configuration in the Secret", want)
	}
}

// generatedConfig returns the configuration the operator stored for a Prometheus of the
// stack's namespace, and its SHA-256.
func (s *liveSystem) generatedConfig(t *testing.T, name string) (string, string) {
	t.Helper()
	sec := &corev1.Secret{}
	if err := s.admin.Get(context.Background(), client.ObjectKey{Namespace: stackNamespace, Name: "prometheus-" + name}, sec); err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(sec.Data["prometheus.yaml.gz"]))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), configName(b)
}

// TestLiveReloaderHash checks the other half of LookoutConfigOutOfDate: the reloader
// reports the SHA-256 of the uncompressed configuration it was given.
func TestLiveReloaderHash(t *testing.T) {
	s := liveSys(t)
	want := fmt.Sprintf(`reloader_config_info{hash=%q} 1`, configName(s.reloaderConfig))
	if !bytes.Contains(s.metrics(t, s.reloaderURL), []byte(want)) {
		t.Errorf("config-reloader /metrics lacks %s", want)
	}
}
