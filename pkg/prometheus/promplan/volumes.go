package promplan

import (
	"path"
	"path/filepath"

	"github.com/lookout-operator/lookout/pkg/workload"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// ruleSlotVolume is the volume name of the n-th rule ConfigMap slot; it is the ConfigMap
// name, as prometheus-operator names it, when that is a valid volume name.
func ruleSlotVolume(p *promserver.Server, n int) string {
	return workload.VolumeName("", Instance(p).RuleConfigMap(n))
}

// needsAPIAccessVolume reports whether the reloader needs its own projected service
// account token: it reads (or, reporting the loaded configuration, writes) the API but
// the pod does not mount the token.
func needsAPIAccessVolume(p *promserver.Server, opts workload.Options) bool {
	return reloaderUsesAPI(p, opts) && !ptr.Deref(p.Spec.AutomountServiceAccountToken, true)
}

// reloaderUsesAPI reports whether the Prometheus reloader talks to the API server.
func reloaderUsesAPI(p *promserver.Server, opts workload.Options) bool {
	return opts.ReloaderWatchAPI || ReportsConfig(p, opts)
}

// ReportsConfig reports whether p's reloader writes the loaded configuration's hash on
// its pod: with Options.ReloaderReportConfig. The Role names each pod allowed to report
// (ReportingPods): a StatefulSet's pods are known in advance, a DaemonSet's are the ones
// that exist, so its Role follows them.
func ReportsConfig(p *promserver.Server, opts workload.Options) bool {
	return opts.ReloaderReportConfig
}

// usesLogDir reports whether a log file is given without directory, and so is written
// to the log-files emptyDir at layout.LogDir (the config generator must use that path
// for it).
func usesLogDir(file string) bool {
	return file != "" && filepath.Dir(file) == "."
}

// podVolumes returns the volumes the operator adds (storage and spec.volumes excluded)
// and the mounts of the prometheus container (storage and spec.volumeMounts excluded).
func podVolumes(p *promserver.Server, opts workload.Options, ruleSlots, tlsSlots, configParts int) ([]corev1.Volume, []corev1.VolumeMount, error) {
	memory := &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}

	configSource := corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: Instance(p).ConfigSecret()}}
	if opts.ReloaderWatchAPI {
		configSource = corev1.VolumeSource{EmptyDir: memory.DeepCopy()}
	}

	tlsSources := make([]corev1.VolumeProjection, 0, tlsSlots)
	for n := range tlsSlots {
		tlsSources = append(tlsSources, corev1.VolumeProjection{Secret: &corev1.SecretProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: Instance(p).TLSAssetsSecret(n)},
			Optional:             ptr.To(true),
		}})
	}

	webSources, err := webConfigSources(p)
	if err != nil {
		return nil, nil, err
	}

	volumes := []corev1.Volume{
		{Name: configVolume, VolumeSource: configSource},
		{Name: workload.TLSAssetsVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: tlsSources}}},
		{Name: workload.ConfigOutVolume, VolumeSource: corev1.VolumeSource{EmptyDir: memory.DeepCopy()}},
		{Name: workload.WebConfigVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: webSources}}},
	}
	if configParts > 1 {
		volumes = append(volumes, corev1.Volume{Name: configPartsVolume, VolumeSource: configPartsSource(p, opts, configParts)})
	}
	mounts := []corev1.VolumeMount{
		{Name: workload.ConfigOutVolume, MountPath: layout.ConfigOutDir, ReadOnly: true},
		{Name: workload.TLSAssetsVolume, MountPath: layout.TLSAssetsDir, ReadOnly: true},
		{Name: workload.WebConfigVolume, MountPath: layout.WebConfigDir, ReadOnly: true},
	}

	for n := range ruleSlots {
		src := corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: Instance(p).RuleConfigMap(n)},
			Optional:             ptr.To(true),
		}}
		if opts.ReloaderWatchAPI {
			src = corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}
		}
		volumes = append(volumes, corev1.Volume{Name: ruleSlotVolume(p, n), VolumeSource: src})
		mounts = append(mounts, corev1.VolumeMount{Name: ruleSlotVolume(p, n), MountPath: ruleSlotDir(p, n), ReadOnly: true})
	}

	seen := map[string]bool{}
	for _, s := range p.Spec.Secrets {
		if s == "" || seen["s/"+s] {
			continue
		}
		seen["s/"+s] = true
		name := workload.VolumeName("secret", s)
		volumes = append(volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: s}}})
		mounts = append(mounts, corev1.VolumeMount{Name: name, MountPath: path.Join(layout.SecretsDir, s), ReadOnly: true})
	}
	for _, c := range p.Spec.ConfigMaps {
		if c == "" || seen["c/"+c] {
			continue
		}
		seen["c/"+c] = true
		name := workload.VolumeName("configmap", c)
		volumes = append(volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: c},
		}}})
		mounts = append(mounts, corev1.VolumeMount{Name: name, MountPath: path.Join(layout.ConfigMapsDir, c), ReadOnly: true})
	}

	if usesLogDir(p.PrometheusOnly().QueryLogFile) || usesLogDir(ptr.Deref(p.Spec.ScrapeFailureLogFile, "")) {
		volumes = append(volumes, corev1.Volume{Name: logFilesVolume, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		mounts = append(mounts, corev1.VolumeMount{Name: logFilesVolume, MountPath: layout.LogDir})
	}

	if needsAPIAccessVolume(p, opts) {
		volumes = append(volumes, workload.APIAccessVolumeSource())
	}
	return volumes, mounts, nil
}

// configPartsSource is the volume of the further parts of a config spread over several
// Secrets: each part Secret's key in its own directory (layout.ConfigPartDir), or, in
// API-watch mode, an emptyDir the reloader fills. The parts are optional: while one is
// missing (just created, or deleted before the pod rolls) the reloader waits for it and
// keeps the configuration it has.
func configPartsSource(p *promserver.Server, opts workload.Options, configParts int) corev1.VolumeSource {
	if opts.ReloaderWatchAPI {
		return corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}
	}
	sources := make([]corev1.VolumeProjection, 0, configParts-1)
	for n := 1; n < configParts; n++ {
		sources = append(sources, corev1.VolumeProjection{Secret: &corev1.SecretProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: Instance(p).ConfigPartSecret(n)},
			Items:                []corev1.KeyToPath{{Key: layout.ConfigCompressedKey, Path: path.Join(path.Base(layout.ConfigPartDir(n)), layout.ConfigCompressedKey)}},
			Optional:             ptr.To(true),
		}})
	}
	return corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}
}
