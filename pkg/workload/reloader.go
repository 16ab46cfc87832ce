package workload

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"

	corev1 "k8s.io/api/core/v1"
)

// Environment variables the config-reloader expands into the generated config.
const (
	PodNameEnv = "POD_NAME"
	ShardEnv   = "SHARD"
	// NodeNameEnv is the node of a DaemonSet-mode agent's pod.
	NodeNameEnv = "NODE_NAME"
)

// LocalURL is the URL of path on port of a server in the pod, as its sidecar reaches it:
// 127.0.0.1 over HTTP, localhost over HTTPS, or Options.LocalHost.
func LocalURL(opts Options, tls bool, port int, path string) string {
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

// ReloaderSpec is what the config-reloader of one kind's pod does; the sidecar and its
// init container are built from it the same way for every kind.
type ReloaderSpec struct {
	// ConfigFile is the compressed config the reloader reads, envsubstFile where it
	// writes it expanded (both empty: the reloader only watches directories).
	ConfigFile, EnvsubstFile string
	// ConfigParts are the further parts of a config spread over several Secrets.
	ConfigParts []string
	// WatchedDirs are watched for changes (--watched-dir), in order.
	WatchedDirs []string
	// ExtraArgs follow the watched directories (API-watch mode).
	ExtraArgs []string
	// ReportArgs are the sidecar's alone (--report-pod): the init container reloads
	// nothing.
	ReportArgs []string
	// ReloadURL is the server's reload endpoint; runtimeInfoURL, when set, confirms a
	// reload (Lookout's reloader reads it, upstream's ignores it).
	ReloadURL, RuntimeInfoURL string
	// Signal reloads with a process signal instead of HTTP.
	Signal bool
	// WebConfigFile is the web configuration (TLS, basic auth) of the sidecar's own
	// listener, as the server's (--web-config-file; empty: plain HTTP). The web config
	// volume is then among mounts.
	WebConfigFile string
	// ListenLocal makes the sidecar listen on loopback only.
	ListenLocal         bool
	LogLevel, LogFormat string
	PullPolicy          corev1.PullPolicy
	Env                 []corev1.EnvVar
	Mounts              []corev1.VolumeMount
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
// generates. As prometheus-operator, the http method gets --reload-url and the signal
// method --runtimeinfo-url, which confirms the signal's load (ADR 39).
// TestReloaderArgsUpstreamCompatible holds this.
func (r ReloaderSpec) args(opts Options, init bool) ([]string, error) {
	var args []string
	if r.ConfigFile != "" {
		args = append(args, "--config-file="+r.ConfigFile, "--config-envsubst-file="+r.EnvsubstFile)
		for _, f := range r.ConfigParts {
			args = append(args, "--config-part-file="+f)
		}
	}
	for _, d := range r.WatchedDirs {
		args = append(args, "--watched-dir="+d)
	}
	args = append(args, r.ExtraArgs...)
	if init {
		args = append(args, "--watch-interval=0")
	} else {
		method := "http"
		if r.Signal {
			method = "signal"
		}
		listen := ":" + strconv.Itoa(reloaderPort)
		if r.ListenLocal {
			listen = opts.localHost("127.0.0.1") + listen
		}
		args = append(args, "--watch-interval="+opts.watchInterval().String())
		if !r.Signal {
			// As prometheus-operator: the signal method reloads without a URL.
			args = append(args, "--reload-url="+r.ReloadURL)
		}
		if r.RuntimeInfoURL != "" {
			args = append(args, "--runtimeinfo-url="+r.RuntimeInfoURL)
		}
		args = append(args, "--reload-method="+method, "--listen-address="+listen)
		if r.WebConfigFile != "" {
			args = append(args, "--web-config-file="+r.WebConfigFile)
		}
		args = append(args, r.ReportArgs...)
	}
	if err := LogArgsUnlessDefault(r.LogLevel, r.LogFormat, func(n, v string) { args = append(args, "--log-"+n+"="+v) }); err != nil {
		return nil, err
	}
	return args, nil
}

// Container builds the sidecar (init false) or the init container (init true).
func (r ReloaderSpec) Container(opts Options, init bool) (corev1.Container, error) {
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
		ImagePullPolicy:          r.PullPolicy,
		Args:                     args,
		Env:                      r.Env,
		Resources:                *opts.ConfigReloaderResources.DeepCopy(),
		VolumeMounts:             r.Mounts,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          ContainerSecurityContext(),
	}
	if init {
		c.Name = ReloaderInitName
		return c, nil
	}
	if !r.ListenLocal {
		c.Ports = []corev1.ContainerPort{{Name: reloaderPortName, ContainerPort: reloaderPort, Protocol: corev1.ProtocolTCP}}
	}
	if opts.ReloaderProbes {
		probe := reloaderProbes(r.ListenLocal, r.WebConfigFile != "", opts)
		c.StartupProbe, c.ReadinessProbe, c.LivenessProbe = probe, probe.DeepCopy(), probe.DeepCopy()
	}
	return c, nil
}

// ReportPodArg is the sidecar's --report-pod flag: the pod's namespace and its name, which
// the kubelet expands from the POD_NAME variable of the container's environment.
func ReportPodArg(namespace string) string {
	return "--report-pod=" + namespace + "/$(" + PodNameEnv + ")"
}
