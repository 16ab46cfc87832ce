package promplan

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/workload"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// podTemplate builds the pod of one shard, without the storage volume and spec.volumes
// (the StatefulSet builder appends those).
func podTemplate(p *promserver.Server, opts workload.Options, v versions.Version, shard int32, ruleSlots, tlsSlots, configParts int, storageMount corev1.VolumeMount) (corev1.PodTemplateSpec, error) {
	s := p.Spec
	image, err := Image(p, opts)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	promArgs, err := prometheusArgs(p, v)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	args, err := workload.MergeArgs(promArgs, s.AdditionalArgs, "spec.additionalArgs")
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	volumes, mounts, err := podVolumes(p, opts, ruleSlots, tlsSlots, configParts)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	mounts = append(mounts, storageMount)
	for _, m := range s.VolumeMounts {
		mounts = append(mounts, *m.DeepCopy())
	}
	startup, readiness, liveness, err := probes(p)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}

	prometheus := corev1.Container{
		Name:                     PrometheusContainerName,
		Image:                    image,
		ImagePullPolicy:          s.ImagePullPolicy,
		Args:                     args,
		VolumeMounts:             mounts,
		StartupProbe:             startup,
		ReadinessProbe:           readiness,
		LivenessProbe:            liveness,
		Resources:                *s.Resources.DeepCopy(),
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          workload.ContainerSecurityContext(),
	}
	if !s.ListenLocal {
		prometheus.Ports = []corev1.ContainerPort{{Name: portName(p), ContainerPort: layout.PrometheusWebPort, Protocol: corev1.ProtocolTCP}}
	}
	reloader, err := reloaderContainer(p, opts, shard, ruleSlots, configParts, false)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	initReloader, err := reloaderContainer(p, opts, shard, ruleSlots, configParts, true)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	ours := []corev1.Container{prometheus, reloader}
	thanos, thanosVolumes, err := thanosSidecar(p, opts, v, storageMount)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	if thanos != nil {
		ours = append(ours, *thanos)
		volumes = append(volumes, thanosVolumes...)
	}
	pod, err := workload.PodShape{
		Containers:                   ours,
		UserContainers:               s.Containers,
		InitContainers:               []corev1.Container{initReloader},
		UserInitContainers:           s.InitContainers,
		Volumes:                      volumes,
		TopologySpread:               func() ([]corev1.TopologySpreadConstraint, error) { return topologySpread(p, opts, shard) },
		DefaultGracePeriod:           defaultTerminationGracePeriod,
		AutomountServiceAccountToken: ptr.To(ptr.Deref(s.AutomountServiceAccountToken, true)),
		SpecFields:                   zonedSpecFields(p, shard),
	}.PodSpec()
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	if reloadSignal(p) {
		// The reloader signals the Prometheus process, so it must see it.
		pod.ShareProcessNamespace = ptr.To(true)
	}
	return corev1.PodTemplateSpec{ObjectMeta: podMetadata(p, opts, shard), Spec: pod}, nil
}
