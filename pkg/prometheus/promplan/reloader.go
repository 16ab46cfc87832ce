package promplan

import (
	"fmt"
	"path"
	"strconv"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// prometheusLocalURL is endpoint on Prometheus as the sidecar reaches it: 127.0.0.1 over HTTP, localhost over
// HTTPS (server certificates name hosts, rarely loopback addresses), or Options.LocalHost.
func prometheusLocalURL(p *promserver.Server, opts workload.Options, endpoint string) string {
	return workload.LocalURL(opts, webTLS(p), layout.PrometheusWebPort, webPath(p, endpoint))
}

// reloadSignal reports whether spec.reloadStrategy asks for a process signal.
func reloadSignal(p *promserver.Server) bool {
	return ptr.Deref(p.Spec.ReloadStrategy, monitoringv1.HTTPReloadStrategyType) == monitoringv1.ProcessSignalReloadStrategyType
}

// prometheusReloader is the reloader of one Prometheus shard.
func prometheusReloader(p *promserver.Server, opts workload.Options, shard int32, ruleSlots, configParts int) workload.ReloaderSpec {
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
	r := workload.ReloaderSpec{
		ConfigParts:  parts,
		ConfigFile:   path.Join(layout.ConfigDir, layout.ConfigCompressedKey),
		EnvsubstFile: path.Join(layout.ConfigOutDir, layout.ConfigOutFile),
		WatchedDirs:  dirs,
		ReloadURL:    prometheusLocalURL(p, opts, "/-/reload"),
		Signal:       reloadSignal(p),
		ListenLocal:  p.Spec.ListenLocal,
		LogLevel:     p.Spec.LogLevel,
		LogFormat:    p.Spec.LogFormat,
		PullPolicy:   p.Spec.ImagePullPolicy,
		Env:          reloaderEnv(p, shard),
		Mounts:       reloaderMounts(p, opts, ruleSlots, configParts),
	}
	if r.Signal {
		// As prometheus-operator: runtimeinfo confirms a signal's load; with the http method
		// Prometheus's answer does (ADR 39).
		r.RuntimeInfoURL = prometheusLocalURL(p, opts, "/api/v1/status/runtimeinfo")
	}
	if p.Spec.Web != nil {
		// As prometheus-operator: only with spec.web, so that a Prometheus without it
		// keeps the pod template an older reloader image accepts.
		r.WebConfigFile = path.Join(layout.WebConfigDir, layout.WebConfigFile)
		r.Mounts = append(r.Mounts, corev1.VolumeMount{Name: workload.WebConfigVolume, MountPath: layout.WebConfigDir, ReadOnly: true})
	}
	if opts.ReloaderWatchAPI {
		r.ExtraArgs = apiWatchArgs(p, ruleSlots, configParts)
	}
	if ReportsConfig(p, opts) {
		r.ReportArgs = []string{workload.ReportPodArg(p.Namespace)}
	}
	return r
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
// NODE_NAME, which the config's node-local pod discovery names; under topology sharding
// TOPOLOGY_ZONE and INZONE_SHARD, the shard's zone and its position among that zone's
// shards, which the config's zone and shard rules compare with.
func reloaderEnv(p *promserver.Server, shard int32) []corev1.EnvVar {
	env := []corev1.EnvVar{
		{Name: workload.PodNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		{Name: workload.ShardEnv, Value: strconv.Itoa(int(shard))},
	}
	if zone := p.ZoneOfShard(shard); zone != "" {
		env = append(env,
			corev1.EnvVar{Name: TopologyZoneEnv, Value: zone},
			corev1.EnvVar{Name: InZoneShardEnv, Value: strconv.Itoa(int(p.InZoneShard(shard)))})
	}
	if p.DaemonSetMode() {
		env = append(env, corev1.EnvVar{Name: workload.NodeNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nodeName"}}})
	}
	return env
}

// reloaderMounts are the volume mounts of both reloader containers: the config it reads,
// the directory it writes, and the rule directories it watches (and, in API-watch mode,
// fills).
func reloaderMounts(p *promserver.Server, opts workload.Options, ruleSlots, configParts int) []corev1.VolumeMount {
	readOnly := !opts.ReloaderWatchAPI
	mounts := []corev1.VolumeMount{
		{Name: configVolume, MountPath: layout.ConfigDir, ReadOnly: readOnly},
		{Name: workload.ConfigOutVolume, MountPath: layout.ConfigOutDir},
	}
	if configParts > 1 {
		mounts = append(mounts, corev1.VolumeMount{Name: configPartsVolume, MountPath: layout.ConfigPartsDir, ReadOnly: readOnly})
	}
	for n := range ruleSlots {
		mounts = append(mounts, corev1.VolumeMount{Name: ruleSlotVolume(p, n), MountPath: ruleSlotDir(p, n), ReadOnly: readOnly})
	}
	if needsAPIAccessVolume(p, opts) {
		mounts = append(mounts, corev1.VolumeMount{Name: workload.APIAccessVolume, MountPath: layout.ServiceAccountDir, ReadOnly: true})
	}
	return mounts
}

// reloaderContainer builds the sidecar (init false) or the init container (init true)
// of a Prometheus shard.
func reloaderContainer(p *promserver.Server, opts workload.Options, shard int32, ruleSlots, configParts int, init bool) (corev1.Container, error) {
	return prometheusReloader(p, opts, shard, ruleSlots, configParts).Container(opts, init)
}
