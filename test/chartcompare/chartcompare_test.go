package chartcompare

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// chartCase is one rendering of the chart: its values files (relative to the chart's
// directory, or absolute).
type chartCase struct {
	name   string
	values []string
}

// cases: the chart's defaults, its CI values that deploy a Prometheus or an Alertmanager
// (ci/03-non-defaults-values.yaml: --deny-namespaces, --labels, additional configuration
// strings, custom rules), and this package's values for the features the defaults leave
// off.
func cases(t *testing.T) []chartCase {
	features, err := filepath.Abs("testdata/features-values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return []chartCase{
		{name: "defaults"},
		{name: "ci-non-defaults", values: []string{"ci/03-non-defaults-values.yaml"}},
		{name: "features", values: []string{features}},
	}
}

// TestChartCompare renders the community kube-prometheus-stack chart for each case,
// applies its inputs, runs prometheus-operator with the chart's operator arguments,
// collects what it generates, deletes that, runs Lookout with the same arguments, and
// compares: the same object names, the same StatefulSet containers, images and
// arguments, the same Services, and the same generated configurations and rule files as
// data. Only the differences in allowed_test.go may remain.
func TestChartCompare(t *testing.T) {
	files := newOperatorFiles(t)
	for i, c := range cases(t) {
		t.Run(c.name, func(t *testing.T) {
			ns := fmt.Sprintf("kps-%d-%s", i, c.name)
			objs, err := render(ns, c.values...)
			if err != nil {
				t.Fatal(err)
			}
			args, err := operatorArgs(objs)
			if err != nil {
				t.Fatal(err)
			}
			args = unquoteLabels(args)
			in := inputs(objs)
			keys, err := applyInputs(ns, in)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := deleteInputs(in, ns); err != nil {
					t.Errorf("deleting the inputs: %v", err)
				}
			}()
			sc := scope{namespaces: namespacesOf(in, ns), inputs: keys, kubelet: flagValue(args, "kubelet-service")}
			want := expectedStatefulSets(in, ns)
			t.Logf("%d inputs, expecting StatefulSets %v", len(in), want)

			start := time.Now()
			stop := startUpstream(t, args, files)
			upstream := settle(t, sc, want, "prometheus-operator")
			stop()
			t.Logf("prometheus-operator settled in %s", time.Since(start).Round(time.Millisecond))
			if err := deleteGenerated(sc); err != nil {
				t.Fatal(err)
			}

			start = time.Now()
			stop = startLookout(t, args, files)
			lookout := settle(t, sc, want, "Lookout")
			stop()
			t.Logf("Lookout settled in %s", time.Since(start).Round(time.Millisecond))
			if err := deleteGenerated(sc); err != nil {
				t.Fatal(err)
			}

			r := compare(upstream, lookout, allowed)
			t.Logf("equal as generated: %d entries: %s", len(r.equal), strings.Join(r.equal, ", "))
			names := make([]string, 0, len(r.allowed))
			for n := range r.allowed {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				t.Logf("equal under allowance %q (%s): %s", n, reasonOf(n), strings.Join(r.allowed[n], ", "))
			}
			for _, d := range r.diffs {
				t.Error(d)
			}
		})
	}
}

// settle waits until the StatefulSets want exist and the generated objects have not
// changed for three seconds, and returns their snapshot.
func settle(t *testing.T, sc scope, want []string, who string) snapshot {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	var last snapshot
	stableSince := time.Time{}
	for time.Now().Before(deadline) {
		g, err := list(sc)
		if err != nil {
			t.Fatal(err)
		}
		s := take(g)
		if missing := missingStatefulSets(g, want); len(missing) > 0 {
			last, stableSince = s, time.Time{}
			time.Sleep(500 * time.Millisecond)
			continue
		}
		if last == nil || !cmp.Equal(last, s) {
			last, stableSince = s, time.Now()
		} else if time.Since(stableSince) >= 3*time.Second {
			return s
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("%s: no steady state within 2 minutes; generated so far: %v", who, last["objects"])
	return nil
}

func missingStatefulSets(g *generated, want []string) []string {
	have := map[string]bool{}
	for _, s := range g.StatefulSets {
		have[s.Namespace+"/"+s.Name] = true
	}
	var missing []string
	for _, w := range want {
		if !have[w] {
			missing = append(missing, w)
		}
	}
	return missing
}

// expectedStatefulSets names the StatefulSets the inputs call for: one per Prometheus
// shard, one per Alertmanager and ThanosRuler.
func expectedStatefulSets(in []*unstructured.Unstructured, ns string) []string {
	var out []string
	for _, o := range in {
		n := o.GetNamespace()
		if n == "" {
			n = ns
		}
		switch o.GetKind() {
		case "Prometheus":
			shards, found, _ := unstructured.NestedInt64(o.Object, "spec", "shards")
			if !found || shards < 1 {
				shards = 1
			}
			for i := int64(0); i < shards; i++ {
				name := "prometheus-" + o.GetName()
				if i > 0 {
					name += fmt.Sprintf("-shard-%d", i)
				}
				out = append(out, n+"/"+name)
			}
		case "Alertmanager":
			out = append(out, n+"/alertmanager-"+o.GetName())
		case "ThanosRuler":
			out = append(out, n+"/thanos-ruler-"+o.GetName())
		}
	}
	return out
}

func namespacesOf(in []*unstructured.Unstructured, ns string) []string {
	seen := map[string]bool{ns: true}
	out := []string{ns}
	for _, o := range in {
		if n := o.GetNamespace(); n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func reasonOf(name string) string {
	for _, a := range allowed {
		if a.name == name {
			return a.reason
		}
	}
	return ""
}

// unquoteLabels removes the double quotes around a --labels value. The chart's CI values
// write --labels="cluster=talos-cluster"; no shell runs a container's arguments, so both
// operators get the quotes: prometheus-operator then fails every write (the label key
// `"cluster` is invalid) and generates nothing to compare, Lookout refuses to start
// (TestQuotedLabelsRefused). The comparison runs both with the value the CI meant.
func unquoteLabels(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--labels="); ok && len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			a = "--labels=" + v[1:len(v)-1]
		}
		out = append(out, a)
	}
	return out
}

// TestQuotedLabelsRefused: the chart's CI operator arguments, quotes and all, are refused
// by Lookout's flag parsing with a message naming the key, rather than accepted and
// failing every write later as prometheus-operator does.
func TestQuotedLabelsRefused(t *testing.T) {
	objs, err := render("kps-quoted", "ci/03-non-defaults-values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	args, err := operatorArgs(objs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(args, `--labels="cluster=talos-cluster"`) {
		t.Fatalf("the CI values no longer quote --labels: %q", args)
	}
	var out strings.Builder
	_, err = operator.ParseArgs(args, &out)
	if err == nil || !strings.Contains(err.Error(), `invalid key "\"cluster"`) {
		t.Fatalf("parsing %q: err %v, want the quoted key refused", args, err)
	}
	if _, err := operator.ParseArgs(unquoteLabels(args), &out); err != nil {
		t.Fatalf("without the quotes: %v", err)
	}
}
