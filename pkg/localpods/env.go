package localpods

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// EnvVar is one variable of a container's environment.
type EnvVar struct{ Name, Value string }

// ContainerEnv is a container's environment as the kubelet builds it: base (what the
// image and the kubelet add: PATH, HOSTNAME, ...) in order, then the container's env,
// values with $(VAR) expanded from what precedes them and field references resolved by
// field. A resourceFieldRef is left out (no process has limits to report); other sources
// are an error. vars are what $(VAR) in the container's args may reference.
func ContainerEnv(base []EnvVar, c corev1.Container, field func(path string) (string, error)) (env []string, vars map[string]string, err error) {
	vars = map[string]string{}
	var order []string
	set := func(name, value string) {
		if _, seen := vars[name]; !seen {
			order = append(order, name)
		}
		vars[name] = value
	}
	for _, e := range base {
		set(e.Name, e.Value)
	}
	for _, e := range c.Env {
		var v string
		switch {
		case e.ValueFrom == nil:
			v = Expand(e.Value, vars)
		case e.ValueFrom.FieldRef != nil:
			if v, err = field(e.ValueFrom.FieldRef.FieldPath); err != nil {
				return nil, nil, fmt.Errorf("env %s: %w", e.Name, err)
			}
		case e.ValueFrom.ResourceFieldRef != nil:
			continue
		default:
			return nil, nil, fmt.Errorf("env %s: only values, fieldRef and resourceFieldRef are supported", e.Name)
		}
		set(e.Name, v)
	}
	for _, k := range order {
		env = append(env, k+"="+vars[k])
	}
	return env, vars, nil
}

// probeClient is the kubelet's: HTTPS probes do not verify the certificate.
var probeClient = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}

// ProbeReadiness runs a container's HTTP readiness probe once, as the kubelet does: a
// 2xx or 3xx answer is ready. The probe's port (a number or the name of one of the
// container's ports) is a container port; addr gives the host and port to dial for it.
// A container without an HTTP readiness probe is ready.
func ProbeReadiness(c corev1.Container, addr func(containerPort int32) (host string, port int, ok bool)) error {
	pr := c.ReadinessProbe
	if pr == nil || pr.HTTPGet == nil {
		return nil
	}
	cport := int32(pr.HTTPGet.Port.IntValue())
	for _, cp := range c.Ports {
		if cp.Name != "" && cp.Name == pr.HTTPGet.Port.String() {
			cport = cp.ContainerPort
		}
	}
	host, port, ok := addr(cport)
	if cport == 0 || !ok {
		return fmt.Errorf("container %s: readiness probe port %s is not a container port", c.Name, pr.HTTPGet.Port.String())
	}
	scheme := strings.ToLower(string(pr.HTTPGet.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	u := fmt.Sprintf("%s://%s%s", scheme, net.JoinHostPort(host, strconv.Itoa(port)), pr.HTTPGet.Path)
	resp, err := probeClient.Get(u)
	if err != nil {
		return fmt.Errorf("container %s: readiness probe: %w", c.Name, err)
	}
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode >= 400 {
		return fmt.Errorf("container %s: readiness probe %s: %s", c.Name, u, resp.Status)
	}
	return nil
}
