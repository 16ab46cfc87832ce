package ruletest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/render"
)

// kpsRelease is the Helm release name the chart is rendered with; the PrometheusRules are
// named "<release>-kube-prometheus-stack-<group file>".
const kpsRelease = "kps"

// binTool returns bin/<name> of the repository, which `make tools` builds.
func binTool(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "bin", name))
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		t.Fatalf("bin/%s not found: run `make tools` first (%v)", name, err)
	}
	return p
}

// kubePrometheusStack renders the kube-prometheus-stack chart (bin/charts, copied by
// `make tools`) with its default values in namespace monitoring and returns the stream
// of objects and its PrometheusRules.
func kubePrometheusStack(t *testing.T) (out []byte, rules []*unstructured.Unstructured) {
	t.Helper()
	chart := binTool(t, filepath.Join("charts", "kube-prometheus-stack"))
	cmd := exec.Command(binTool(t, "helm"), "template", kpsRelease, chart, "--namespace", "monitoring",
		"--set", "grafana.enabled=false,windowsMonitoring.enabled=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helm template: %v\n%s", err, stderr.String())
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(out), 4096)
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatalf("decoding the chart's objects: %v", err)
		}
		if u.GetKind() == "PrometheusRule" {
			rules = append(rules, u)
		}
	}
	if len(rules) < 20 {
		t.Fatalf("the chart renders %d PrometheusRules, want the kube-prometheus set (20 or more)", len(rules))
	}
	return out, rules
}

// writeKubePrometheusDirs writes each PrometheusRule of the chart twice, under the same
// name (the object's name without the release prefix, plus ".yaml"): as its manifest in
// manifests/ and as the plain rule file of its groups in plain/. The test file is copied
// into both, so its rule_files name the manifests in one and the plain files in the other.
func writeKubePrometheusDirs(t *testing.T, rules []*unstructured.Unstructured, testFile []byte) (manifests, plain string) {
	t.Helper()
	dir := t.TempDir()
	manifests, plain = filepath.Join(dir, "manifests"), filepath.Join(dir, "plain")
	for _, d := range []string{manifests, plain} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "rules_test.yaml"), testFile, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range rules {
		name := strings.TrimPrefix(u.GetName(), kpsRelease+"-kube-prometheus-stack-") + ".yaml"
		groups, found, err := unstructured.NestedSlice(u.Object, "spec", "groups")
		if err != nil || !found {
			t.Fatalf("PrometheusRule %s: no spec.groups (%v)", u.GetName(), err)
		}
		manifest, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		ruleFile, err := yaml.Marshal(map[string]any{"groups": groups})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(manifests, name), manifest, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plain, name), ruleFile, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return manifests, plain
}

// runBoth runs rules_test.yaml through Run in manifestDir (rule_files naming the
// PrometheusRule manifests) and through promtool in plainDir (the same groups as plain
// rule files); it returns both reports and exit codes.
func runBoth(t *testing.T, manifestDir, plainDir string) (ours string, ourCode int, theirs string, theirCode int) {
	t.Helper()
	cmd := exec.Command(binTool(t, "promtool"), "test", "rules", "rules_test.yaml")
	cmd.Dir = plainDir
	out, _ := cmd.CombinedOutput()
	theirs, theirCode = string(out), cmd.ProcessState.ExitCode()

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(manifestDir); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(Options{}, "rules_test.yaml")
	if cerr := os.Chdir(wd); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.Write(&b)
	return b.String(), rep.ExitCode(), theirs, theirCode
}

// TestKubePrometheusRules runs unit tests of kube-prometheus's alerts and recording rules
// (testdata/kubeprometheus/rules_test.yaml) on the PrometheusRules the
// kube-prometheus-stack chart renders, through Run, and through promtool on the same
// groups as plain rule files: both pass. Then, with one expectation broken, both fail
// with the same report, word for word.
func TestKubePrometheusRules(t *testing.T) {
	testFile, err := os.ReadFile(filepath.Join("testdata", "kubeprometheus", "rules_test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Watchdog", "TargetDown", "KubePodCrashLooping", "KubePodNotReady",
		"KubeDeploymentReplicasMismatch", "KubeJobFailed", "KubePersistentVolumeFillingUp",
		"NodeFilesystemSpaceFillingUp", "node_namespace_pod_container:container_cpu_usage_seconds_total:sum_irate",
		"namespace_workload_pod:kube_pod_owner:relabel"} {
		if !bytes.Contains(testFile, []byte(name)) {
			t.Errorf("rules_test.yaml does not test %s", name)
		}
	}
	chartOut, rules := kubePrometheusStack(t)

	t.Run("both pass", func(t *testing.T) {
		manifests, plain := writeKubePrometheusDirs(t, rules, testFile)
		ours, ourCode, theirs, theirCode := runBoth(t, manifests, plain)
		const want = "Processing test file: rules_test.yaml\n  SUCCESS\n"
		if theirCode != 0 || !strings.HasPrefix(theirs, want) {
			t.Errorf("promtool exited %d:\n%s", theirCode, theirs)
		}
		if ourCode != 0 || ours != theirs {
			t.Errorf("lookout exited %d:\n%s\npromtool:\n%s", ourCode, ours, theirs)
		}
	})

	// KubeJobFailed is critical in this copy: the alert's severity label (warning) no
	// longer matches, and a recording rule's value is off.
	broken := bytes.Replace(testFile,
		[]byte("exp_labels: {severity: warning, job: kube-state-metrics, namespace: default, job_name: j1"),
		[]byte("exp_labels: {severity: critical, job: kube-state-metrics, namespace: default, job_name: j1"), 1)
	broken = bytes.Replace(broken,
		[]byte("workload=\"ds1\", workload_type=\"daemonset\"}'\n            value: 1"),
		[]byte("workload=\"ds1\", workload_type=\"daemonset\"}'\n            value: 2"), 1)
	if bytes.Equal(broken, testFile) || bytes.Count(broken, []byte("severity: critical")) != 1 {
		t.Fatal("the expectations to break are not in rules_test.yaml")
	}
	t.Run("a broken expectation fails both with the same message", func(t *testing.T) {
		manifests, plain := writeKubePrometheusDirs(t, rules, broken)
		ours, ourCode, theirs, theirCode := runBoth(t, manifests, plain)
		if theirCode != 1 || ourCode != 1 {
			t.Errorf("exit codes: promtool %d, lookout %d, want 1 and 1", theirCode, ourCode)
		}
		for _, w := range []string{
			"name: KubeJobFailed fires for a failed job, not for one that did not fail,\n    alertname: KubeJobFailed, time: 20m, ",
			`Labels:{alertname="KubeJobFailed", condition="true", job="kube-state-metrics", job_name="j1", namespace="default", severity="critical"}`,
			`Labels:{alertname="KubeJobFailed", condition="true", job="kube-state-metrics", job_name="j1", namespace="default", severity="warning"}`,
			`expr: "namespace_workload_pod:kube_pod_owner:relabel", time: 5m,`,
			`workload="ds1", workload_type="daemonset"} 2E+00`,
		} {
			if !strings.Contains(theirs, w) {
				t.Errorf("promtool's report lacks %q:\n%s", w, theirs)
			}
		}
		if ours != theirs {
			t.Errorf("lookout:\n%s\npromtool:\n%s", ours, theirs)
		}
	})

	// As Documentation/rule-tests.md tells a user to: the whole rendered chart in one
	// file, named in rule_files and given with -f, tested for the chart's Prometheus.
	t.Run("one rendered chart file for the chart's Prometheus", func(t *testing.T) {
		dir := t.TempDir()
		chartFile := filepath.Join(dir, "kube-prometheus-stack.yaml")
		if err := os.WriteFile(chartFile, chartOut, 0o644); err != nil {
			t.Fatal(err)
		}
		i, j := bytes.Index(testFile, []byte("rule_files:\n")), bytes.Index(testFile, []byte("evaluation_interval:"))
		if i < 0 || j < i {
			t.Fatal("rules_test.yaml: no rule_files before evaluation_interval")
		}
		oneFile := append(append(append([]byte{}, testFile[:i]...), "rule_files:\n  - kube-prometheus-stack.yaml\n"...), testFile[j:]...)
		testPath := filepath.Join(dir, "rules_test.yaml")
		if err := os.WriteFile(testPath, oneFile, 0o644); err != nil {
			t.Fatal(err)
		}
		objs, err := render.Load("monitoring", chartFile)
		if err != nil || len(objs.Prometheuses) != 1 {
			t.Fatalf("the chart's Prometheus: %v", err)
		}
		rep, err := Run(Options{Namespace: "monitoring", Prometheus: objs.Prometheuses[0],
			Rules: objs.PrometheusRules, NamespaceLabels: objs.NamespaceLabels()}, testPath)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		rep.Write(&b)
		if rep.ExitCode() != 0 || len(rep.Files[0].Warnings) > 0 || len(rep.Files[0].Groups) != 10 {
			t.Errorf("exit %d, %d groups:\n%s", rep.ExitCode(), len(rep.Files[0].Groups), b.String())
		}
	})
}
