package chartcompare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/lookout-operator/lookout/test/testenv"
)

// release is the Helm release name every case renders; its namespace is the case's.
const release = "kps"

// chartDir returns bin/charts/kube-prometheus-stack, which `make tools` copies from the
// chart's Go module (hack/build-tool.sh kube-prometheus-stack).
func chartDir() (string, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "bin", "charts", "kube-prometheus-stack")
	if _, err := os.Stat(filepath.Join(dir, "Chart.yaml")); err != nil {
		return "", fmt.Errorf("no chart in %s: run `make tools` (or make tool-kube-prometheus-stack) first: %w", dir, err)
	}
	return dir, nil
}

// render runs `helm template` on the chart in namespace ns with the values files given
// (relative to the chart's directory, or absolute) and returns every object it renders.
// grafana is always disabled: it is a chart of another repository, left out of the copy.
func render(ns string, values ...string) ([]*unstructured.Unstructured, error) {
	dir, err := chartDir()
	if err != nil {
		return nil, err
	}
	root, _ := testenv.RepoRoot()
	args := []string{"template", release, dir, "--namespace", ns, "--set", "grafana.enabled=false,windowsMonitoring.enabled=false"}
	for _, v := range values {
		if !filepath.IsAbs(v) {
			v = filepath.Join(dir, v)
		}
		args = append(args, "--values", v)
	}
	cmd := exec.Command(filepath.Join(root, "bin", "helm"), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("helm %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return decodeAll(out)
}

// decodeAll splits a multi-document YAML stream into objects, skipping empty documents.
func decodeAll(b []byte) ([]*unstructured.Unstructured, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	var out []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		if len(u.Object) == 0 {
			continue
		}
		out = append(out, u)
	}
}

// inputs keeps what the operators read: the monitoring.coreos.com objects and the Secrets
// and ConfigMaps (the Alertmanager configuration, object storage and scrape config
// Secrets the CRs name). Deployments, RBAC, webhooks and Services are left out.
func inputs(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range objs {
		gv := o.GetAPIVersion()
		if strings.HasPrefix(gv, "monitoring.coreos.com/") || (gv == "v1" && (o.GetKind() == "Secret" || o.GetKind() == "ConfigMap")) {
			out = append(out, o)
		}
	}
	return out
}

// operatorArgs returns the arguments of the chart's prometheus-operator container.
func operatorArgs(objs []*unstructured.Unstructured) ([]string, error) {
	for _, o := range objs {
		if o.GetKind() != "Deployment" || !strings.HasSuffix(o.GetName(), "-operator") {
			continue
		}
		d := &appsv1.Deployment{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, d); err != nil {
			return nil, err
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			if c.Name == "kube-prometheus-stack" {
				return c.Args, nil
			}
		}
	}
	return nil, errors.New("the chart renders no prometheus-operator Deployment")
}

// localArgs rewrites the chart's operator arguments for a process on this machine: the
// web listener on a free loopback address, with a certificate in dir instead of the
// chart's mounted /cert files. Every other argument is kept as the chart renders it.
func localArgs(args []string, addr, certFile, keyFile string) []string {
	var out []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--web.listen-address="):
			a = "--web.listen-address=" + addr
		case strings.HasPrefix(a, "--web.cert-file="):
			a = "--web.cert-file=" + certFile
		case strings.HasPrefix(a, "--web.key-file="):
			a = "--web.key-file=" + keyFile
		}
		out = append(out, a)
	}
	return out
}

// flagValue returns the value of --name=value in args, or "".
func flagValue(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}
