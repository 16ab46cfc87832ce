package workload

import (
	"fmt"
	"k8s.io/apimachinery/pkg/util/intstr"
	"net"
	"net/url"
	"path"
	"strconv"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Environment variables the config-reloader expands into the generated config.
const (
	PodNameEnv = "POD_NAME"
	ShardEnv   = "SHARD"
)

// prometheusLocalURL is endpoint on Prometheus as the sidecar reaches it: 127.0.0.1 over HTTP, localhost over
// HTTPS (server certificates name hosts, rarely loopback addresses), or Options.LocalHost.
func prometheusLocalURL(p *monitoringv1.Prometheus, opts Options, endpoint string) string {
	u := url.URL{
		Scheme: "http",
		Host:   net.JoinHostPort(opts.localHost("127.0.0.1"), strconv.Itoa(layout.PrometheusWebPort)),
		Path:   webPath(p, endpoint),
	}
	if webTLS(p) {
		u.Scheme = "https"
		u.Host = net.JoinHostPort(opts.localHost("localhost"), strconv.Itoa(layout.PrometheusWebPort))
	}
	return u.String()
}

// localHost is Options.LocalHost, or def when it is not set.
func (o Options) localHost(def string) string {
	if o.LocalHost != "" {
		return o.LocalHost
	}
	return def
}

// reloaderProbes are the probes --enable-config-reloader-probes adds to the sidecar:
// /healthz on its port, or, when it listens on loopback only (spec.listenLocal), the same
// request made inside the container with whichever HTTP client the image has.
func reloaderProbes(p *monitoringv1.Prometheus, opts Options) *corev1.Probe {
	handler := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString(reloaderPortName)}}
	if p.Spec.ListenLocal {
		u := url.URL{Scheme: "http", Host: net.JoinHostPort(opts.localHost("127.0.0.1"), strconv.Itoa(reloaderPort)), Path: "/healthz"}
		script := fmt.Sprintf(`if command -v wget >/dev/null 2>&1; then exec wget -q -O /dev/null %[1]q; `+
			`elif command -v curl >/dev/null 2>&1; then exec curl -fs -o /dev/null %[1]q; else exit 1; fi`, u.String())
		handler = corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"sh", "-c", script}}}
	}
	return &corev1.Probe{ProbeHandler: handler}
}

// reloadSignal reports whether spec.reloadStrategy asks for a process signal.
func reloadSignal(p *monitoringv1.Prometheus) bool {
	return ptr.Deref(p.Spec.ReloadStrategy, monitoringv1.HTTPReloadStrategyType) == monitoringv1.ProcessSignalReloadStrategyType
}

// reloaderArgs are the flags of the config-reloader; init renders once and exits.
//
// They are flags prometheus-operator's prometheus-config-reloader v0.93 accepts, with
// the same meaning, so the pod also runs with that image as ConfigReloaderImage: only a
// Lookout-only feature switched on in Options adds others (apiWatchArgs). The
// --runtimeinfo-url given with the http method is read by Lookout's reloader to confirm
// reloads and ignored by upstream's. TestReloaderArgsUpstreamCompatible holds this.
func reloaderArgs(p *monitoringv1.Prometheus, opts Options, ruleSlots int, init bool) ([]string, error) {
	args := []string{
		"--config-file=" + path.Join(layout.ConfigDir, layout.ConfigCompressedKey),
		"--config-envsubst-file=" + path.Join(layout.ConfigOutDir, layout.ConfigOutFile),
	}
	for n := range ruleSlots {
		args = append(args, "--watched-dir="+ruleSlotDir(p.Name, n))
	}
	// The config's own directory too, as prometheus-operator passes it: upstream's
	// reloader watches --config-file itself, and the kubelet's "..data" swap replaces
	// that file without an event the watch sees, so it would notice a config change only
	// at its next --watch-interval. Lookout's reloader watches the directory anyway and
	// does not count the config file twice.
	args = append(args, "--watched-dir="+layout.ConfigDir)
	if opts.ReloaderWatchAPI {
		args = append(args, apiWatchArgs(p, ruleSlots)...)
	}
	if init {
		args = append(args, "--watch-interval=0")
	} else {
		method := "http"
		if reloadSignal(p) {
			method = "signal"
		}
		listen := ":" + strconv.Itoa(reloaderPort)
		if p.Spec.ListenLocal {
			listen = opts.localHost("127.0.0.1") + listen
		}
		args = append(args,
			"--watch-interval="+opts.watchInterval().String(),
			"--reload-url="+prometheusLocalURL(p, opts, "/-/reload"),
			"--runtimeinfo-url="+prometheusLocalURL(p, opts, "/api/v1/status/runtimeinfo"),
			"--reload-method="+method,
			"--listen-address="+listen,
		)
	}
	if err := logArgs(p.Spec.LogLevel, p.Spec.LogFormat, func(n, v string) { args = append(args, "--log-"+n+"="+v) }); err != nil {
		return nil, err
	}
	return args, nil
}

// apiWatchArgs are the flags of API-watch mode (Options.ReloaderWatchAPI), which only
// Lookout's reloader has: the config Secret and the rule ConfigMaps, mirrored into the
// directories the other flags name.
func apiWatchArgs(p *monitoringv1.Prometheus, ruleSlots int) []string {
	args := []string{fmt.Sprintf("--watch-secret=%s/%s=%s", p.Namespace, layout.ConfigSecretName(p.Name), layout.ConfigDir)}
	for n := range ruleSlots {
		args = append(args, fmt.Sprintf("--watch-configmap=%s/%s=%s", p.Namespace, layout.RuleConfigMapName(p.Name, n), ruleSlotDir(p.Name, n)))
	}
	return args
}

// reloaderEnv is the environment of both reloader containers.
func reloaderEnv(shard int32) []corev1.EnvVar {
	return []corev1.EnvVar{
		{Name: PodNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		{Name: ShardEnv, Value: strconv.Itoa(int(shard))},
	}
}

// reloaderMounts are the volume mounts of both reloader containers: the config it reads,
// the directory it writes, and the rule directories it watches (and, in API-watch mode,
// fills).
func reloaderMounts(p *monitoringv1.Prometheus, opts Options, ruleSlots int) []corev1.VolumeMount {
	readOnly := !opts.ReloaderWatchAPI
	mounts := []corev1.VolumeMount{
		{Name: configVolume, MountPath: layout.ConfigDir, ReadOnly: readOnly},
		{Name: configOutVolume, MountPath: layout.ConfigOutDir},
	}
	for n := range ruleSlots {
		mounts = append(mounts, corev1.VolumeMount{Name: ruleSlotVolume(p.Name, n), MountPath: ruleSlotDir(p.Name, n), ReadOnly: readOnly})
	}
	if needsAPIAccessVolume(p, opts) {
		mounts = append(mounts, corev1.VolumeMount{Name: apiAccessVolume, MountPath: layout.ServiceAccountDir, ReadOnly: true})
	}
	return mounts
}

// reloaderContainer builds the sidecar (init false) or the init container (init true).
func reloaderContainer(p *monitoringv1.Prometheus, opts Options, shard int32, ruleSlots int, init bool) (corev1.Container, error) {
	if opts.ConfigReloaderImage == "" {
		return corev1.Container{}, fmt.Errorf("the operator has no config-reloader image")
	}
	args, err := reloaderArgs(p, opts, ruleSlots, init)
	if err != nil {
		return corev1.Container{}, err
	}
	c := corev1.Container{
		Name:                     ReloaderContainerName,
		Image:                    opts.ConfigReloaderImage,
		ImagePullPolicy:          p.Spec.ImagePullPolicy,
		Args:                     args,
		Env:                      reloaderEnv(shard),
		Resources:                *opts.ConfigReloaderResources.DeepCopy(),
		VolumeMounts:             reloaderMounts(p, opts, ruleSlots),
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          containerSecurityContext(),
	}
	if init {
		c.Name = ReloaderInitName
		return c, nil
	}
	if !p.Spec.ListenLocal {
		c.Ports = []corev1.ContainerPort{{Name: reloaderPortName, ContainerPort: reloaderPort, Protocol: corev1.ProtocolTCP}}
	}
	if opts.ReloaderProbes {
		probe := reloaderProbes(p, opts)
		c.StartupProbe, c.ReadinessProbe, c.LivenessProbe = probe, probe.DeepCopy(), probe.DeepCopy()
	}
	return c, nil
}
