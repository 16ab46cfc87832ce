package promplan

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"strconv"

	"github.com/lookout-operator/lookout/pkg/workload"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

const (
	startupPeriodSeconds      = 15
	defaultMaxStartupDuration = 900
	minMaxStartupDuration     = 60
)

// probeHandler checks endpoint under the route prefix. With listenLocal the kubelet
// cannot reach 127.0.0.1 inside the pod, so the check runs in the container with
// whichever HTTP client the image has.
func probeHandler(p *promserver.Server, endpoint string) corev1.ProbeHandler {
	scheme := corev1.URISchemeHTTP
	if webTLS(p) {
		scheme = corev1.URISchemeHTTPS
	}
	if !p.Spec.ListenLocal {
		return corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path:   webPath(p, endpoint),
			Port:   intstr.FromString(portName(p)),
			Scheme: scheme,
		}}
	}
	u := url.URL{
		Scheme: "http",
		Host:   net.JoinHostPort("127.0.0.1", strconv.Itoa(layout.PrometheusWebPort)),
		Path:   webPath(p, endpoint),
	}
	if scheme == corev1.URISchemeHTTPS {
		u.Scheme, u.Host = "https", net.JoinHostPort("localhost", strconv.Itoa(layout.PrometheusWebPort))
	}
	script := fmt.Sprintf(`if command -v wget >/dev/null 2>&1; then exec wget -q -O /dev/null --no-check-certificate %[1]q; `+
		`elif command -v curl >/dev/null 2>&1; then exec curl -fsk -o /dev/null %[1]q; else exit 1; fi`, u.String())
	return corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"sh", "-c", script}}}
}

// probes returns the startup, readiness and liveness probes of the prometheus container.
// /-/ready succeeds only once the WAL is replayed, so the startup probe waits on it for up
// to spec.maximumStartupDurationSeconds (15 minutes by default); /-/healthy answers as
// soon as the web server runs and is the liveness check.
func probes(p *promserver.Server) (startup, readiness, liveness *corev1.Probe, err error) {
	maxStartup := int32(defaultMaxStartupDuration)
	if m := p.Spec.MaximumStartupDurationSeconds; m != nil {
		if *m < minMaxStartupDuration {
			return nil, nil, nil, fmt.Errorf("spec.maximumStartupDurationSeconds must be at least %d, got %d", minMaxStartupDuration, *m)
		}
		maxStartup = *m
	}
	ready := probeHandler(p, "/-/ready")
	startup = &corev1.Probe{
		ProbeHandler:     ready,
		TimeoutSeconds:   workload.ProbeTimeoutSeconds,
		PeriodSeconds:    startupPeriodSeconds,
		FailureThreshold: int32(math.Ceil(float64(maxStartup) / startupPeriodSeconds)),
	}
	readiness = &corev1.Probe{
		ProbeHandler:     *ready.DeepCopy(),
		TimeoutSeconds:   workload.ProbeTimeoutSeconds,
		PeriodSeconds:    5,
		FailureThreshold: 3,
	}
	liveness = &corev1.Probe{
		ProbeHandler:     probeHandler(p, "/-/healthy"),
		TimeoutSeconds:   workload.ProbeTimeoutSeconds,
		PeriodSeconds:    5,
		FailureThreshold: 6,
	}
	return startup, readiness, liveness, nil
}
