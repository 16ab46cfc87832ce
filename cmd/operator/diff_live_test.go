package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/confdiff"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/render"
)

// TestDiffLiveReadsTheCluster: the objects of testdata/diff/base, served by a fake
// cluster, render as the files do: no difference against base, the interval's hunk
// against interval.
func TestDiffLiveReadsTheCluster(t *testing.T) {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(monitoringv1.AddToScheme(scheme))
	utilruntime.Must(monitoringv1alpha1.AddToScheme(scheme))
	docs, err := manifest.ReadPaths("testdata/diff/base")
	if err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, d := range docs {
		if d.GetNamespace() == "" && d.GetKind() != "Namespace" {
			d.SetNamespace("default")
		}
		objs = append(objs, d.Unstructured)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithRuntimeObjects(objs...).Build()
	live, err := loadLive(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	opts := render.Options{}
	var warnings bytes.Buffer
	old, err := generated(live, opts, "the cluster", &warnings)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 3 {
		t.Fatalf("%d instances from the cluster, want 3 (Prometheus, PrometheusAgent, Alertmanager)", len(old))
	}
	for _, c := range []struct {
		tree  string
		hunks int
	}{{"base", 0}, {"interval", 1}} {
		tree, err := render.Load("default", "testdata/diff/"+c.tree)
		if err != nil {
			t.Fatal(err)
		}
		insts, err := generated(tree, opts, "NEW", &warnings)
		if err != nil {
			t.Fatal(err)
		}
		res, err := confdiff.Compare(old, insts)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := confdiff.WriteUnified(&out, res); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(out.String(), "\n@@ "); n != c.hunks {
			t.Errorf("cluster vs %s: %d hunks, want %d:\n%s", c.tree, n, c.hunks, out.String())
		}
	}
	if warnings.Len() > 0 {
		t.Errorf("warnings:\n%s", warnings.String())
	}
}
