package jsonnet

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/manifest"
	prender "github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/test/jsonnet/render"
	"github.com/lookout-operator/lookout/test/testenv"
)

// stackServiceMonitors lists "namespace/name/i" for every endpoint i of every
// ServiceMonitor of example/stack: the job names the operator gives them
// (serviceMonitor/namespace/name/i).
func stackServiceMonitors(t *testing.T, root string) []string {
	t.Helper()
	objs, err := manifest.ReadPaths(filepath.Join(root, render.StackDir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range objs {
		if o.GetKind() != "ServiceMonitor" {
			continue
		}
		eps, _ := object(o.Object).get("spec", "endpoints").([]any)
		if len(eps) == 0 {
			t.Errorf("ServiceMonitor %s/%s has no endpoints", o.GetNamespace(), o.GetName())
		}
		for i := range eps {
			out = append(out, fmt.Sprintf("%s/%s/%d", o.GetNamespace(), o.GetName(), i))
		}
	}
	if len(out) < 10 {
		t.Fatalf("example/stack has only %d ServiceMonitor endpoints", len(out))
	}
	sort.Strings(out)
	return out
}

// TestStackRenders runs what `lookout-operator render -f example/stack` runs (the same
// loader, renderer and rule file layout as cmd/operator's render command): the stack's
// Prometheus renders, no ServiceMonitor or PrometheusRule is rejected, every
// ServiceMonitor is used, and the configuration has exactly one scrape job per
// ServiceMonitor endpoint.
func TestStackRenders(t *testing.T) {
	root := repoRoot(t)
	objs, err := prender.Load("default", filepath.Join(root, render.StackDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Prometheuses) != 1 {
		t.Fatalf("example/stack holds %d Prometheus objects, want 1", len(objs.Prometheuses))
	}
	outs, err := prender.Render(objs, prender.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := stackServiceMonitors(t, root)
	for _, o := range outs {
		name := o.Prometheus.Namespace + "/" + o.Prometheus.Name
		if o.Err != nil {
			t.Fatalf("Prometheus %s: %v", name, o.Err)
		}
		for _, w := range o.Result.Warnings {
			t.Logf("warning: Prometheus %s: %s", name, w)
		}
		used := map[string]bool{}
		for _, v := range o.Verdicts {
			if v.Reason == selection.InvalidConfiguration {
				t.Errorf("Prometheus %s: %s %s/%s rejected: %s", name, v.Kind, v.Namespace, v.Name, v.Message)
			}
			if v.Used() {
				used[v.Kind+" "+v.Namespace+"/"+v.Name] = true
			} else {
				t.Errorf("Prometheus %s: %s %s/%s is not used: %s: %s", name, v.Kind, v.Namespace, v.Name, v.Reason, v.Message)
			}
		}
		for _, sm := range objs.Monitors.ServiceMonitors {
			if !used["ServiceMonitor "+sm.Namespace+"/"+sm.Name] {
				t.Errorf("Prometheus %s does not use ServiceMonitor %s/%s", name, sm.Namespace, sm.Name)
			}
		}
		if !used["PrometheusRule lookout/lookout-rules"] {
			t.Errorf("Prometheus %s does not use the mixin's PrometheusRule", name)
		}

		var cfg struct {
			ScrapeConfigs []struct {
				JobName string `json:"job_name"`
			} `json:"scrape_configs"`
		}
		if err := yaml.Unmarshal(o.Result.Config, &cfg); err != nil {
			t.Fatalf("Prometheus %s: the configuration does not parse: %v", name, err)
		}
		var jobs []string
		for _, sc := range cfg.ScrapeConfigs {
			jobs = append(jobs, sc.JobName)
		}
		sort.Strings(jobs)
		var wantJobs []string
		for _, w := range want {
			wantJobs = append(wantJobs, "serviceMonitor/"+w)
		}
		if !slices.Equal(jobs, wantJobs) {
			t.Errorf("Prometheus %s scrape jobs:\n %v\nwant one per ServiceMonitor endpoint:\n %v", name, jobs, wantJobs)
		}
		t.Logf("Prometheus %s: %d scrape jobs from %d ServiceMonitors", name, len(jobs), len(objs.Monitors.ServiceMonitors))
	}
}

// TestStackServerDryRun sends every object of example/stack to a real API server: the
// namespace and the CRDs are applied (the rest needs them), then every object, those two
// included, goes through a server-side apply with dryRun=All, which runs defaulting,
// validation (the CRDs' schemas for the monitoring.coreos.com objects) and admission
// without storing anything.
func TestStackServerDryRun(t *testing.T) {
	root := repoRoot(t)
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{SkipCRDs: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	c := env.Client

	setup, err := manifest.ReadPaths(filepath.Join(root, render.StackDir, "setup"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := manifest.ReadPaths(filepath.Join(root, render.StackDir))
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := render.OnDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(onDisk) || len(setup) == 0 {
		t.Fatalf("read %d objects (%d in setup) from %d files", len(all), len(setup), len(onDisk))
	}
	apply := func(o manifest.Object, opts ...client.ApplyOption) error {
		ac := client.ApplyConfigurationFromUnstructured(o.Unstructured)
		return c.Apply(ctx, ac, append(opts, client.FieldOwner("lookout-stack-test"), client.ForceOwnership)...)
	}
	for _, o := range setup {
		if err := apply(o); err != nil {
			t.Fatalf("applying %s: %v", o.Source, err)
		}
	}
	if err := poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		var crds apiextensionsv1.CustomResourceDefinitionList
		if err := c.List(ctx, &crds); err != nil {
			return err
		}
		for _, crd := range crds.Items {
			established := false
			for _, cond := range crd.Status.Conditions {
				established = established || (cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue)
			}
			if !established {
				return fmt.Errorf("CRD %s is not established", crd.Name)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, o := range all {
		rel, _ := filepath.Rel(root, o.Source)
		if err := apply(o, client.DryRunAll); err != nil {
			t.Errorf("%s (%s %s): server-side dry run: %v", rel, o.GetKind(), o.GetName(), err)
			continue
		}
		kinds[o.GetKind()]++
	}
	t.Logf("dry run of %d objects: %v", len(all), kinds)
}
