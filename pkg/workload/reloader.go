package workload

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Environment variables the config-reloader expands into the generated config.
const (
	PodNameEnv = "POD_NAME"
	ShardEnv   = "SHARD"
	// NodeNameEnv is the node of a DaemonSet-mode agent's pod.
	NodeNameEnv = "NODE_NAME"
)

// prometheusLocalURL is endpoint on Prometheus as the sidecar reaches it: 127.0.0.1 over HTTP, localhost over
// HTTPS (server certificates name hosts, rarely loopback addresses), or Options.LocalHost.
func prometheusLocalURL(p *promserver.Server, opts Options, endpoint string) string {
	return localURL(opts, webTLS(p), layout.PrometheusWebPort, webPath(p, endpoint))
}

// localURL is the URL of path on port of a server in the pod, as its sidecar reaches it:
// 127.0.0.1 over HTTP, localhost over HTTPS, or Options.LocalHost.
func localURL(opts Options, tls bool, port int, path string) string {
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(opts.localHost("127.0.0.1"), strconv.Itoa(port)), Path: path}
	if tls {
		u.Scheme = "https"
		u.Host = net.JoinHostPort(opts.localHost("localhost"), strconv.Itoa(port))
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
// /healthz on its port, or, when it listens on loopback only (listenLocal), the same
// request made inside the container with whichever HTTP client the image has. A sidecar
// with a web configuration (web) may ask for TLS, a client certificate or a password,
// which a kubelet probe cannot give: its port is probed with a TCP connection instead.
func reloaderProbes(listenLocal, web bool, opts Options) *corev1.Probe {
	handler := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString(reloaderPortName)}}
	if web {
		handler = corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString(reloaderPortName)}}
	}
	if listenLocal {
		u := url.URL{Scheme: "http", Host: net.JoinHostPort(opts.localHost("127.0.0.1"), strconv.Itoa(reloaderPort)), Path: "/healthz"}
		script := fmt.Sprintf(`if command -v wget >/dev/null 2>&1; then exec wget -q -O /dev/null %[1]q; `+
			`elif command -v curl >/dev/null 2>&1; then exec curl -fs -o /dev/null %[1]q; else exit 1; fi`, u.String())
		handler = corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"sh", "-c", script}}}
	}
	return &corev1.Probe{ProbeHandler: handler}
}

// reloadSignal reports whether spec.reloadStrategy asks for a process signal.
func reloadSignal(p *promserver.Server) bool {
	return ptr.Deref(p.Spec.ReloadStrategy, monitoringv1.HTTPReloadStrategyType) == monitoringv1.ProcessSignalReloadStrategyType
}

// reloaderSpec is what the config-reloader of one kind's pod does; the sidecar and its
// init container are built from it the same way for every kind.
type reloaderSpec struct {
	// configFile is the compressed config the reloader reads, envsubstFile where it
	// writes it expanded (both empty: the reloader only watches directories).
	configFile, envsubstFile string
	// configParts are the further parts of a config spread over several Secrets.
	configParts []string
	// watchedDirs are watched for changes (--watched-dir), in order.
	watchedDirs []string
	// extraArgs follow the watched directories (API-watch mode).
	extraArgs []string
	// reportArgs are the sidecar's alone (--report-pod): the init container reloads
	// nothing.
	reportArgs []string
	// reloadURL is the server's reload endpoint; runtimeInfoURL, when set, confirms a
	// reload (Lookout's reloader reads it, upstream's ignores it).
	reloadURL, runtimeInfoURL string
	// signal reloads with a process signal instead of HTTP.
	signal bool
	// webConfigFile is the web configuration (TLS, basic auth) of the sidecar's own
	// listener, as the server's (--web-config-file; empty: plain HTTP). The web config
	// volume is then among mounts.
	webConfigFile string
	// listenLocal makes the sidecar listen on loopback only.
	listenLocal         bool
	logLevel, logFormat string
	pullPolicy          corev1.PullPolicy
	env                 []corev1.EnvVar
	mounts              []corev1.VolumeMount
}

// UpstreamReloaderImage reports whether image is prometheus-operator's
// prometheus-config-reloader, which takes none of Lookout's own reloader flags.
func UpstreamReloaderImage(image string) bool {
	return strings.Contains(image, "prometheus-config-reloader")
}

// args are the flags of the config-reloader; init renders once and exits.
//
// They are flags prometheus-operator's prometheus-config-reloader v0.93 accepts, with
// the same meaning, so the pod also runs with that image as ConfigReloaderImage: only a
// Lookout-only feature switched on in Options adds others (apiWatchArgs), and so does a
// configuration spread over several Secrets (--config-part-file), which upstream never
// generates. The
// --runtimeinfo-url given with the http method is read by Lookout's reloader to confirm
// reloads and ignored by upstream's. TestReloaderArgsUpstreamCompatible holds this.
func (r reloaderSpec) args(opts Options, init bool) ([]string, error) {
	var args []string
	if r.configFile != "" {
		args = append(args, "--config-file="+r.configFile, "--config-envsubst-file="+r.envsubstFile)
		for _, f := range r.configParts {
			args = append(args, "--config-part-file="+f)
		}
	}
	for _, d := range r.watchedDirs {
		args = append(args, "--watched-dir="+d)
	}
	args = append(args, r.extraArgs...)
	if init {
		args = append(args, "--watch-interval=0")
	} else {
		method := "http"
		if r.signal {
			method = "signal"
		}
		listen := ":" + strconv.Itoa(reloaderPort)
		if r.listenLocal {
			listen = opts.localHost("127.0.0.1") + listen
		}
		args = append(args, "--watch-interval="+opts.watchInterval().String(), "--reload-url="+r.reloadURL)
		if r.runtimeInfoURL != "" {
			args = append(args, "--runtimeinfo-url="+r.runtimeInfoURL)
		}
		args = append(args, "--reload-method="+method, "--listen-address="+listen)
		if r.webConfigFile != "" {
			args = append(args, "--web-config-file="+r.webConfigFile)
		}
		args = append(args, r.reportArgs...)
	}
	if err := logArgs(r.logLevel, r.logFormat, func(n, v string) { args = append(args, "--log-"+n+"="+v) }); err != nil {
		return nil, err
	}
	return args, nil
}

// container builds the sidecar (init false) or the init container (init true).
func (r reloaderSpec) container(opts Options, init bool) (corev1.Container, error) {
	if opts.ConfigReloaderImage == "" {
		return corev1.Container{}, fmt.Errorf("the operator has no config-reloader image")
	}
	args, err := r.args(opts, init)
	if err != nil {
		return corev1.Container{}, err
	}
	c := corev1.Container{
		Name:                     ReloaderContainerName,
		Image:                    opts.ConfigReloaderImage,
		ImagePullPolicy:          r.pullPolicy,
		Args:                     args,
		Env:                      r.env,
		Resources:                *opts.ConfigReloaderResources.DeepCopy(),
		VolumeMounts:             r.mounts,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          containerSecurityContext(),
	}
	if init {
		c.Name = ReloaderInitName
		return c, nil
	}
	if !r.listenLocal {
		c.Ports = []corev1.ContainerPort{{Name: reloaderPortName, ContainerPort: reloaderPort, Protocol: corev1.ProtocolTCP}}
	}
	if opts.ReloaderProbes {
		probe := reloaderProbes(r.listenLocal, r.webConfigFile != "", opts)
		c.StartupProbe, c.ReadinessProbe, c.LivenessProbe = probe, probe.DeepCopy(), probe.DeepCopy()
	}
	return c, nil
}

// prometheusReloader is the reloader of one Prometheus shard.
func prometheusReloader(p *promserver.Server, opts Options, shard int32, ruleSlots, configParts int) reloaderSpec {
	dirs := make([]string, 0, ruleSlots+1)
	for n := range ruleSlots {
		dirs = append(dirs, ruleSlotDir(p, n))
	}
	// The config's own directory too, as prometheus-operator passes it: upstream's
	// reloader watches --config-file itself, and the kubelet's "..data" swap replaces
	// that file without an event the watch sees, so it would notice a config change only
	// at its next --watch-interval. Lookout's reloader watches the directory anyway and
	// does not count the config file twice.
	dirs = append(dirs, layout.ConfigDir)
	var parts []string
	for n := 1; n < configParts; n++ {
		parts = append(parts, path.Join(layout.ConfigPartDir(n), layout.ConfigCompressedKey))
	}
	if len(parts) > 0 && !opts.ReloaderWatchAPI {
		// The kubelet swaps the projected volume's "..data" link in its root.
		dirs = append(dirs, layout.ConfigPartsDir)
	}
	r := reloaderSpec{
		configParts:    parts,
		configFile:     path.Join(layout.ConfigDir, layout.ConfigCompressedKey),
		envsubstFile:   path.Join(layout.ConfigOutDir, layout.ConfigOutFile),
		watchedDirs:    dirs,
		reloadURL:      prometheusLocalURL(p, opts, "/-/reload"),
		runtimeInfoURL: prometheusLocalURL(p, opts, "/api/v1/status/runtimeinfo"),
		signal:         reloadSignal(p),
		listenLocal:    p.Spec.ListenLocal,
		logLevel:       p.Spec.LogLevel,
		logFormat:      p.Spec.LogFormat,
		pullPolicy:     p.Spec.ImagePullPolicy,
		env:            reloaderEnv(p, shard),
		mounts:         reloaderMounts(p, opts, ruleSlots, configParts),
	}
	if p.Spec.Web != nil {
		// As prometheus-operator: only with spec.web, so that a Prometheus without it
		// keeps the pod template an older reloader image accepts.
		r.webConfigFile = path.Join(layout.WebConfigDir, layout.WebConfigFile)
		r.mounts = append(r.mounts, corev1.VolumeMount{Name: webConfigVolume, MountPath: layout.WebConfigDir, ReadOnly: true})
	}
	if opts.ReloaderWatchAPI {
		r.extraArgs = apiWatchArgs(p, ruleSlots, configParts)
	}
	if ReportsConfig(p, opts) {
		r.reportArgs = []string{ReportPodArg(p.Namespace)}
	}
	return r
}

// ReportPodArg is the sidecar's --report-pod flag: the pod's namespace and its name, which
// the kubelet expands from the POD_NAME variable of the container's environment.
func ReportPodArg(namespace string) string {
	return "--report-pod=" + namespace + "/$(" + PodNameEnv + ")"
}

// apiWatchArgs are the flags of API-watch mode (Options.ReloaderWatchAPI), which only
// Lookout's reloader has: the config Secret and the rule ConfigMaps, mirrored into the
// directories the other flags name.
func apiWatchArgs(p *promserver.Server, ruleSlots, configParts int) []string {
	args := []string{fmt.Sprintf("--watch-secret=%s/%s=%s", p.Namespace, Instance(p).ConfigSecret(), layout.ConfigDir)}
	for n := 1; n < configParts; n++ {
		args = append(args, fmt.Sprintf("--watch-secret=%s/%s=%s", p.Namespace, Instance(p).ConfigPartSecret(n), layout.ConfigPartDir(n)))
	}
	for n := range ruleSlots {
		args = append(args, fmt.Sprintf("--watch-configmap=%s/%s=%s", p.Namespace, Instance(p).RuleConfigMap(n), ruleSlotDir(p, n)))
	}
	return args
}

// reloaderEnv is the environment of both reloader containers. In DaemonSet mode it adds
// NODE_NAME, which the config's node-local pod discovery names.
func reloaderEnv(p *promserver.Server, shard int32) []corev1.EnvVar {
	env := []corev1.EnvVar{
		{Name: PodNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		{Name: ShardEnv, Value: strconv.Itoa(int(shard))},
	}
	if p.DaemonSetMode() {
		env = append(env, corev1.EnvVar{Name: NodeNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nodeName"}}})
	}
	return env
}

// reloaderMounts are the volume mounts of both reloader containers: the config it reads,
// the directory it writes, and the rule directories it watches (and, in API-watch mode,
// fills).
func reloaderMounts(p *promserver.Server, opts Options, ruleSlots, configParts int) []corev1.VolumeMount {
	readOnly := !opts.ReloaderWatchAPI
	mounts := []corev1.VolumeMount{
		{Name: configVolume, MountPath: layout.ConfigDir, ReadOnly: readOnly},
		{Name: configOutVolume, MountPath: layout.ConfigOutDir},
	}
	if configParts > 1 {
		mounts = append(mounts, corev1.VolumeMount{Name: configPartsVolume, MountPath: layout.ConfigPartsDir, ReadOnly: readOnly})
	}
	for n := range ruleSlots {
		mounts = append(mounts, corev1.VolumeMount{Name: ruleSlotVolume(p, n), MountPath: ruleSlotDir(p, n), ReadOnly: readOnly})
	}
	if needsAPIAccessVolume(p, opts) {
		mounts = append(mounts, corev1.VolumeMount{Name: apiAccessVolume, MountPath: layout.ServiceAccountDir, ReadOnly: true})
	}
	return mounts
}

// reloaderContainer builds the sidecar (init false) or the init container (init true)
// of a Prometheus shard.
func reloaderContainer(p *promserver.Server, opts Options, shard int32, ruleSlots, configParts int, init bool) (corev1.Container, error) {
	return prometheusReloader(p, opts, shard, ruleSlots, configParts).container(opts, init)
}
