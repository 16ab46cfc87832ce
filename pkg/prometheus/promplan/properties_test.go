package promplan

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

func build(t *testing.T, p *monitoringv1.Prometheus, opts workload.Options, rules, tls int) *appsv1.StatefulSet {
	t.Helper()
	sts, err := StatefulSet(Input{Prometheus: promserver.Of(p), RuleConfigMaps: rules, TLSAssetSecrets: tls}, opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sts
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Adding rule ConfigMaps or TLS assets Secrets within the pre-mounted slots must leave the
// StatefulSet byte-identical, so the controller writes nothing and no pod rolls.
func TestGrowingWithinSlotsKeepsThePodTemplate(t *testing.T) {
	for _, api := range []bool{false, true} {
		opts := workload.DefaultOptions()
		opts.ReloaderWatchAPI = api
		base := build(t, prom(), opts, 1, 1)
		for n := 0; n <= 4; n++ {
			for _, sts := range []*appsv1.StatefulSet{build(t, prom(), opts, n, 1), build(t, prom(), opts, 1, n)} {
				if !bytes.Equal(jsonOf(t, base.Spec.Template), jsonOf(t, sts.Spec.Template)) {
					t.Errorf("api=%v n=%d: the pod template changed", api, n)
				}
				if !bytes.Equal(jsonOf(t, base), jsonOf(t, sts)) || !workload.UpToDate(base, sts) {
					t.Errorf("api=%v n=%d: the StatefulSet or its hash changed", api, n)
				}
			}
		}
		// Past the slots the template must grow, or the property above is vacuous.
		more := build(t, prom(), opts, 5, 1)
		if bytes.Equal(jsonOf(t, base.Spec.Template), jsonOf(t, more.Spec.Template)) {
			t.Errorf("api=%v: 5 rule ConfigMaps did not add slots", api)
		}
		if got := len(more.Spec.Template.Spec.Volumes) - len(base.Spec.Template.Spec.Volumes); got != 4 {
			t.Errorf("api=%v: 5 rule ConfigMaps added %d volumes, want 4", api, got)
		}
	}
}

// The same input gives the same bytes and hash however often it is built, maps are
// emitted sorted, and the input is never modified.
func TestDeterminism(t *testing.T) {
	for _, c := range buildCases() {
		t.Run(c.name, func(t *testing.T) {
			in, opts := c.input()
			before := in.Prometheus.DeepCopy()
			first, err := StatefulSet(in, opts, c.shard)
			if err != nil {
				t.Fatal(err)
			}
			for range 20 {
				in2 := in
				in2.Prometheus = before.DeepCopy()
				again, err := StatefulSet(in2, opts, c.shard)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(jsonOf(t, first), jsonOf(t, again)) {
					t.Fatal("two builds of the same input differ")
				}
			}
			if !equality.Semantic.DeepEqual(before, in.Prometheus) {
				t.Fatal("the builder modified its input")
			}
			h, err := workload.Hash(first)
			if err != nil {
				t.Fatal(err)
			}
			if h != first.Annotations[layout.InputHashAnnotation] {
				t.Fatal("the hash annotation is not the hash of the StatefulSet")
			}
		})
	}
}

func TestHashFollowsTheSpec(t *testing.T) {
	v310 := func(p *monitoringv1.Prometheus) { p.Spec.Version = "v3.10.0" }
	a := build(t, prom(v310), workload.DefaultOptions(), 1, 1)
	b := build(t, prom(v310, func(p *monitoringv1.Prometheus) { p.Spec.Retention = "2d" }), workload.DefaultOptions(), 1, 1)
	if workload.UpToDate(a, b) {
		t.Error("changing spec.retention kept the hash")
	}
	// From 3.11 retention is in the configuration file: changing it reloads Prometheus
	// and leaves the pods alone.
	if !workload.UpToDate(build(t, prom(), workload.DefaultOptions(), 1, 1), build(t, prom(func(p *monitoringv1.Prometheus) { p.Spec.Retention = "2d" }), workload.DefaultOptions(), 1, 1)) {
		t.Error("changing spec.retention of a 3.16 Prometheus changed its StatefulSet")
	}
	// Annotations other than the hash and labels count; the hash annotation does not.
	c := a.DeepCopy()
	c.Annotations[layout.InputHashAnnotation] = "something else"
	if h, _ := workload.Hash(c); h != a.Annotations[layout.InputHashAnnotation] {
		t.Error("the hash depends on its own annotation")
	}
	c.Labels["extra"] = "1"
	if h, _ := workload.Hash(c); h == a.Annotations[layout.InputHashAnnotation] {
		t.Error("the hash ignores labels")
	}
	// A live object without the annotation (or from another operator) is not up to date.
	live := a.DeepCopy()
	delete(live.Annotations, layout.InputHashAnnotation)
	if workload.UpToDate(live, a) {
		t.Error("a live object without hash is up to date")
	}
}

func TestNeedsRecreate(t *testing.T) {
	withPVC := func(size string) *monitoringv1.Prometheus {
		return prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Storage = &monitoringv1.StorageSpec{}
			p.Spec.Storage.VolumeClaimTemplate.Spec.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}
		})
	}
	desired := build(t, withPVC("10Gi"), workload.DefaultOptions(), 1, 1)

	// What the API server returns: defaulted claim templates.
	live := desired.DeepCopy()
	live.Spec.VolumeClaimTemplates[0].Spec.VolumeMode = ptr.To(corev1.PersistentVolumeFilesystem)
	live.Spec.VolumeClaimTemplates[0].Status.Phase = corev1.ClaimPending
	live.Spec.RevisionHistoryLimit = ptr.To[int32](10)
	if re, field := workload.NeedsRecreate(live, desired); re {
		t.Errorf("defaulted fields ask for a re-creation (%s)", field)
	}

	bigger := build(t, withPVC("20Gi"), workload.DefaultOptions(), 1, 1)
	if re, field := workload.NeedsRecreate(live, bigger); !re || field != "spec.volumeClaimTemplates[0].spec" {
		t.Errorf("resized claim: %v %q", re, field)
	}
	if re, _ := workload.NeedsRecreate(live, build(t, prom(), workload.DefaultOptions(), 1, 1)); !re {
		t.Error("dropping the claim template does not ask for a re-creation")
	}
	// A StatefulSet made by an earlier Lookout (whose selector left managed-by out) is
	// recreated once, orphaning its pods; prometheus-operator's is taken over in place
	// (TestSelectorIsUpstreamSelector).
	older := live.DeepCopy()
	delete(older.Spec.Selector.MatchLabels, layout.ManagedByLabel)
	if re, field := workload.NeedsRecreate(older, desired); !re || field != "spec.selector" {
		t.Errorf("an earlier Lookout's selector: %v %q", re, field)
	}
	ordered := build(t, prom(func(p *monitoringv1.Prometheus) {
		p.Spec.PodManagementPolicy = ptr.To(monitoringv1.OrderedReadyPodManagement)
	}), workload.DefaultOptions(), 1, 1)
	if re, field := workload.NeedsRecreate(build(t, prom(), workload.DefaultOptions(), 1, 1), ordered); !re || field != "spec.podManagementPolicy" {
		t.Errorf("pod management policy: %v %q", re, field)
	}
}

// The selector is exactly the one prometheus-operator v0.93 puts on its StatefulSets, so
// either operator takes over the other's StatefulSet in place, keeping pods and volumes,
// and it matches our own pods.
func TestSelectorIsUpstreamSelector(t *testing.T) {
	upstreamSelector := map[string]string{
		"app.kubernetes.io/name":       "prometheus",
		"app.kubernetes.io/managed-by": "prometheus-operator",
		"app.kubernetes.io/instance":   "k8s",
		"prometheus":                   "k8s",
		"operator.prometheus.io/shard": "0",
		"operator.prometheus.io/name":  "k8s",
	}
	sts := build(t, prom(), workload.DefaultOptions(), 1, 1)
	if !maps.Equal(sts.Spec.Selector.MatchLabels, upstreamSelector) {
		t.Errorf("selector %v, want prometheus-operator's %v", sts.Spec.Selector.MatchLabels, upstreamSelector)
	}
	for k, v := range sts.Spec.Selector.MatchLabels {
		if sts.Spec.Template.Labels[k] != v {
			t.Errorf("selector %s=%s does not match our own pods", k, v)
		}
	}
	// prometheus-operator's StatefulSet informer lists by these labels.
	for k, v := range map[string]string{"managed-by": "prometheus-operator", "operator.prometheus.io/mode": "server", "operator.prometheus.io/shard": "0", "operator.prometheus.io/name": "k8s"} {
		if sts.Labels[k] != v {
			t.Errorf("StatefulSet label %s=%q, want %q", k, sts.Labels[k], v)
		}
	}
}

func TestMergeSemantics(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) {
		p.Spec.Containers = []corev1.Container{{
			Name: "config-reloader",
			Args: []string{"--only-this"},
			Env:  []corev1.EnvVar{{Name: "SHARD", Value: "7"}, {Name: "EXTRA", Value: "x"}},
		}}
	})
	sts := build(t, p, workload.DefaultOptions(), 1, 1)
	c := sts.Spec.Template.Spec.Containers[1]
	if c.Name != workload.ReloaderContainerName {
		t.Fatalf("container order changed: %s", c.Name)
	}
	if strings.Join(c.Args, " ") != "--only-this" {
		t.Errorf("args are replaced by the patch, got %v", c.Args)
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env["SHARD"] != "7" || env["EXTRA"] != "x" || len(c.Env) != 3 {
		t.Errorf("env is merged by name, got %+v", c.Env)
	}
	if c.Image != workload.DefaultOptions().ConfigReloaderImage {
		t.Errorf("unpatched fields are kept, image %q", c.Image)
	}
}

func TestImage(t *testing.T) {
	opts := workload.DefaultOptions()
	cases := []struct {
		mut  func(*monitoringv1.Prometheus)
		want string
	}{
		{func(*monitoringv1.Prometheus) {}, "quay.io/prometheus/prometheus:" + versions.DefaultPrometheus},
		{func(p *monitoringv1.Prometheus) { p.Spec.Version = "v3.1.0" }, "quay.io/prometheus/prometheus:v3.1.0"},
		{func(p *monitoringv1.Prometheus) { p.Spec.Image = ptr.To("my/prom:x"); p.Spec.Tag = "ignored" }, "my/prom:x"},
		{func(p *monitoringv1.Prometheus) { p.Spec.BaseImage = "b/p"; p.Spec.Version = "v3.0.0" }, "b/p:v3.0.0"},
		{func(p *monitoringv1.Prometheus) { p.Spec.Tag = "t1"; p.Spec.Version = "v3.0.0" }, "quay.io/prometheus/prometheus:t1"},
		{func(p *monitoringv1.Prometheus) { p.Spec.Tag = "t1"; p.Spec.SHA = "abc" }, "quay.io/prometheus/prometheus@sha256:abc"},
		{func(p *monitoringv1.Prometheus) { p.Spec.SHA = "sha256:abc" }, "quay.io/prometheus/prometheus@sha256:abc"},
		// A base image that already has a tag or digest is used as it is.
		{func(p *monitoringv1.Prometheus) {
			p.Spec.BaseImage = "registry:5000/p:v3.2.0"
			p.Spec.Version = "v3.0.0"
		}, "registry:5000/p:v3.2.0"},
		{func(p *monitoringv1.Prometheus) { p.Spec.BaseImage = "b/p@sha256:def"; p.Spec.Tag = "t1" }, "b/p@sha256:def"},
		{func(p *monitoringv1.Prometheus) { p.Spec.BaseImage = "registry:5000/p"; p.Spec.Version = "v3.0.0" }, "registry:5000/p:v3.0.0"},
	}
	for _, c := range cases {
		p := prom(c.mut)
		got, err := Image(promserver.Of(p), opts)
		if err != nil || got != c.want {
			t.Errorf("Image = %q, %v; want %q", got, err, c.want)
		}
	}
	// The operator's default base image too (kube-prometheus-stack passes tagged ones;
	// amplan's TestTaggedDefaultBaseImage checks Alertmanager's).
	tagged := opts
	tagged.PrometheusBaseImage = "quay.io/prometheus/prometheus:v3.5.0"
	if got, _ := Image(promserver.Of(prom()), tagged); got != "quay.io/prometheus/prometheus:v3.5.0" {
		t.Errorf("tagged default Prometheus base image: %q", got)
	}
}

func TestNamesAndSelector(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptr.To[int32](3) })
	names, err := StatefulSetNames(promserver.Of(p))
	if err != nil || strings.Join(names, ",") != "prometheus-k8s,prometheus-k8s-shard-1,prometheus-k8s-shard-2" {
		t.Errorf("names %v %v", names, err)
	}
	if n, _ := Shards(promserver.Of(prom(func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptr.To[int32](0) }))); n != 1 {
		t.Errorf("0 shards is 1 shard, got %d", n)
	}
	want := "app.kubernetes.io/instance=k8s,app.kubernetes.io/managed-by=prometheus-operator,app.kubernetes.io/name=prometheus,operator.prometheus.io/name=k8s,prometheus=k8s"
	if got := Selector(promserver.Of(p)); got != want {
		t.Errorf("Selector = %q, want %q", got, want)
	}
	if ServiceName(promserver.Of(p)) != "prometheus-operated" || !ManagesGoverningService(promserver.Of(p)) {
		t.Error("default governing service")
	}
	p.Spec.ServiceName = ptr.To("mine")
	if ServiceName(promserver.Of(p)) != "mine" || ManagesGoverningService(promserver.Of(p)) {
		t.Error("spec.serviceName")
	}
}
