package clusterread

import (
	"context"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

const cluster = `apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: sm, namespace: app}
spec:
  selector: {matchLabels: {app: web}}
  endpoints:
  - port: web
    basicAuth:
      username: {name: auth, key: user}
      password: {name: auth, key: pass}
    tlsConfig:
      ca: {configMap: {name: ca, key: ca.crt}}
---
apiVersion: v1
kind: Secret
metadata: {name: auth, namespace: app}
stringData: {user: u, pass: p}
---
apiVersion: v1
kind: Secret
metadata: {name: unrelated, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: app}
data: {ca.crt: x}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: app, labels: {app: web}}
spec: {ports: [{name: web, port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: app}
spec: {containers: [{name: c, image: x}]}
`

func fakeReaderClient(t *testing.T) client.Reader {
	t.Helper()
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(monitoringv1.AddToScheme(s))
	utilruntime.Must(monitoringv1alpha1.AddToScheme(s))
	docs, err := manifest.Decode([]byte(cluster), "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, d := range docs {
		objs = append(objs, d.Unstructured)
	}
	return fake.NewClientBuilder().WithScheme(s).WithRuntimeObjects(objs...).Build()
}

func kinds(docs []manifest.Object) map[string]int {
	out := map[string]int{}
	for _, d := range docs {
		out[d.GetKind()+" "+d.GetName()]++
		if d.Source != Source {
			panic("source " + d.Source)
		}
	}
	return out
}

// TestReadReferencedAssets: lint's read takes the workloads and only the Secret and
// ConfigMap the monitor names; diff's takes every Secret of the namespace and no
// workload.
func TestReadReferencedAssets(t *testing.T) {
	c := fakeReaderClient(t)
	res, err := Read(context.Background(), c, Options{Workloads: true, Assets: ReferencedAssets})
	if err != nil {
		t.Fatal(err)
	}
	got := kinds(res.Docs)
	for _, want := range []string{"ServiceMonitor sm", "Secret auth", "ConfigMap ca", "Service web", "Pod web-0"} {
		if got[want] != 1 {
			t.Errorf("%s read %d times, want once: %v", want, got[want], got)
		}
	}
	if got["Secret unrelated"] != 0 {
		t.Errorf("an unreferenced Secret was read: %v", got)
	}
	res, err = Read(context.Background(), c, Options{Assets: ListAssets})
	if err != nil {
		t.Fatal(err)
	}
	got = kinds(res.Docs)
	if got["Secret unrelated"] != 1 || got["Secret auth"] != 1 || got["Service web"] != 0 {
		t.Errorf("diff's read: %v", got)
	}
}

// TestOverlay: a file's object replaces the cluster's of the same kind, namespace and
// name (its namespace defaulted); others are added.
func TestOverlay(t *testing.T) {
	cl, err := manifest.Decode([]byte(cluster), "c")
	if err != nil {
		t.Fatal(err)
	}
	files, err := manifest.Decode([]byte(`apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: other}}
---
apiVersion: v1
kind: Service
metadata: {name: new, namespace: app}
`), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := Overlay(cl, files, "app")
	if len(out) != len(cl)+1 {
		t.Fatalf("%d documents, want %d", len(out), len(cl)+1)
	}
	for _, d := range out {
		if d.GetKind() == "Service" && d.GetName() == "web" && d.File != "f.yaml" {
			t.Errorf("the cluster's Service web was kept: %+v", d.Source)
		}
	}
}
