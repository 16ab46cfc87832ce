package localpods

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestContainerEnv(t *testing.T) {
	c := corev1.Container{Env: []corev1.EnvVar{
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "GREETING", Value: "hello $(POD_NAME) on $(HOSTNAME), $$(literal)"},
		{Name: "GOMEMLIMIT", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.memory"}}},
		{Name: "HOSTNAME", Value: "override"},
	}}
	field := func(path string) (string, error) {
		if path == "metadata.name" {
			return "web-0", nil
		}
		return "", errors.New("unsupported")
	}
	env, vars, err := ContainerEnv([]EnvVar{{"PATH", "/bin"}, {"HOSTNAME", "web-0"}}, c, field)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"PATH=/bin", "HOSTNAME=override", "POD_NAME=web-0", "GREETING=hello web-0 on web-0, $(literal)"}
	if !slices.Equal(env, want) {
		t.Errorf("env = %q, want %q", env, want)
	}
	if vars["POD_NAME"] != "web-0" {
		t.Errorf("vars = %v", vars)
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: "X", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.nodeName"}}})
	if _, _, err := ContainerEnv(nil, c, field); err == nil || !strings.Contains(err.Error(), "env X") {
		t.Errorf("unsupported field: err = %v", err)
	}
	c.Env = []corev1.EnvVar{{Name: "S", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{Key: "k"}}}}
	if _, _, err := ContainerEnv(nil, c, field); err == nil {
		t.Error("secretKeyRef accepted")
	}
}

func TestProbeReadiness(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/-/ready" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	_, portStr, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	port, _ := strconv.Atoi(portStr)
	c := corev1.Container{
		Name:  "prometheus",
		Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: 9090}},
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path: "/-/ready", Port: intstr.FromString("web"),
		}}},
	}
	var asked int32
	addr := func(cport int32) (string, int, bool) {
		asked = cport
		return "127.0.0.1", port, cport == 9090
	}
	if err := ProbeReadiness(c, addr); err != nil || asked != 9090 {
		t.Fatalf("ready: err %v, asked for container port %d", err, asked)
	}
	status = http.StatusServiceUnavailable
	if err := ProbeReadiness(c, addr); err == nil {
		t.Error("503 counted as ready")
	}
	c.ReadinessProbe.HTTPGet.Port = intstr.FromString("metrics")
	if err := ProbeReadiness(c, addr); err == nil {
		t.Error("a probe on an unknown port name passed")
	}
	if err := ProbeReadiness(corev1.Container{Name: "no-probe"}, addr); err != nil {
		t.Errorf("no probe: %v", err)
	}
}
