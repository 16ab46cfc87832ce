package amplan

import (
	"fmt"
	"path"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// AlertmanagerStatefulSet builds the StatefulSet of an Alertmanager, with the hash of its
// content in the layout.InputHashAnnotation annotation. Owner references are the
// controller's job. An error means the spec cannot become a valid StatefulSet; its
// message names the field.
func AlertmanagerStatefulSet(in AlertmanagerInput, opts workload.Options) (*appsv1.StatefulSet, error) {
	a := in.Alertmanager
	if a == nil {
		return nil, fmt.Errorf("no Alertmanager given")
	}
	sts, err := buildAlertmanagerStatefulSet(a, opts, in)
	if err != nil {
		return nil, fmt.Errorf("alertmanager %s/%s: %w", a.Namespace, a.Name, err)
	}
	return sts, nil
}

func buildAlertmanagerStatefulSet(a *monitoringv1.Alertmanager, opts workload.Options, in AlertmanagerInput) (*appsv1.StatefulSet, error) {
	replicas, err := AlertmanagerReplicas(a)
	if err != nil {
		return nil, err
	}
	if in.TLSAssetSecrets < 0 {
		return nil, fmt.Errorf("negative number of TLS assets Secrets (%d)", in.TLSAssetSecrets)
	}
	name := layout.Alertmanager(a.Name).StatefulSet()
	if err := workload.CheckStatefulSetName(name, "Alertmanager"); err != nil {
		return nil, err
	}
	v, err := amVersion(a)
	if err != nil {
		return nil, err
	}
	if _, err := AlertmanagerWebConfig(a); err != nil {
		return nil, err
	}
	if _, err := AlertmanagerClusterTLSConfig(a); err != nil {
		return nil, err
	}
	volName := workload.StorageVolumeName(a.Spec.Storage, layout.Alertmanager(a.Name).StorageVolume())
	subPath := ""
	if a.Spec.Storage != nil {
		// prometheus-operator mounts the data sub-directory only when storage is given.
		subPath = alertmanagerStorageSubPath
	}
	storageVol, claim, storageMount, err := workload.StorageFor(a.Spec.Storage, volName, layout.AlertmanagerStorageDir, subPath)
	if err != nil {
		return nil, err
	}
	template, err := alertmanagerPod(a, opts, v, replicas, workload.Slots(in.TLSAssetSecrets), storageMount)
	if err != nil {
		return nil, err
	}

	// spec.minReadySeconds is checked first, as it always was for an Alertmanager.
	if err := workload.CheckMinReadySeconds(a.Spec.MinReadySeconds); err != nil {
		return nil, err
	}
	return workload.BuildStatefulSet(workload.StatefulSetShape{
		Name:                name,
		Namespace:           a.Namespace,
		Labels:              alertmanagerSelectorLabels(a.Name),
		MatchLabels:         workload.WithOperatorLabels(opts, alertmanagerSelectorLabels(a.Name)),
		Replicas:            replicas,
		ServiceName:         AlertmanagerServiceName(a),
		Template:            template,
		MinReadySeconds:     a.Spec.MinReadySeconds,
		PodManagementPolicy: a.Spec.PodManagementPolicy,
		UpdateStrategy:      a.Spec.UpdateStrategy,
		PVCRetention:        a.Spec.PersistentVolumeClaimRetentionPolicy,
		Storage:             storageVol,
		Claim:               claim,
		Volumes:             a.Spec.Volumes,
	})
}

// alertmanagerPod builds the pod template, without the storage volume and spec.volumes.
func alertmanagerPod(a *monitoringv1.Alertmanager, opts workload.Options, v versions.Version, replicas int32, tlsSlots int, storageMount corev1.VolumeMount) (corev1.PodTemplateSpec, error) {
	s := &a.Spec
	image, err := AlertmanagerImage(a, opts)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	args, err := alertmanagerArgs(a, opts, v, replicas)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	vols, err := alertmanagerVolumes(a, opts, v, tlsSlots, storageMount)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}

	ports := []corev1.ContainerPort{
		{Name: meshTCPPortName, ContainerPort: layout.AlertmanagerMeshPort, Protocol: corev1.ProtocolTCP},
		{Name: meshUDPPortName, ContainerPort: layout.AlertmanagerMeshPort, Protocol: corev1.ProtocolUDP},
	}
	var liveness, readiness *corev1.Probe
	if !s.ListenLocal {
		ports = append([]corev1.ContainerPort{{Name: amPortName(a), ContainerPort: layout.AlertmanagerWebPort, Protocol: corev1.ProtocolTCP}}, ports...)
		liveness, readiness = alertmanagerProbes(a, v)
	}
	env := []corev1.EnvVar{{Name: podIPEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}}}
	if v.Supports(versions.AMClusterPeerName) {
		env = append(env, workload.PodNameEnvVar())
	}
	resources := workload.WithDefaultMemoryRequest(s.Resources)
	am := corev1.Container{
		Name:                     AlertmanagerContainerName,
		Image:                    image,
		ImagePullPolicy:          s.ImagePullPolicy,
		Args:                     args,
		Ports:                    ports,
		Env:                      env,
		VolumeMounts:             vols.amMounts,
		LivenessProbe:            liveness,
		ReadinessProbe:           readiness,
		Resources:                resources,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          workload.ContainerSecurityContext(),
	}
	rl := workload.ReloaderSpec{
		ConfigFile:    path.Join(layout.AlertmanagerConfigDir, layout.AlertmanagerConfigCompressedKey),
		EnvsubstFile:  path.Join(layout.AlertmanagerConfigOutDir, layout.AlertmanagerConfigOutFile),
		WatchedDirs:   vols.watched,
		ReloadURL:     workload.LocalURL(opts, amWebTLS(a, v), layout.AlertmanagerWebPort, path.Join("/", amRoutePrefix(a), "/-/reload")),
		ListenLocal:   s.ListenLocal,
		LogLevel:      s.LogLevel,
		LogFormat:     s.LogFormat,
		PullPolicy:    s.ImagePullPolicy,
		Env:           []corev1.EnvVar{workload.PodNameEnvVar()},
		Mounts:        vols.reloaderMounts,
		WebConfigFile: vols.reloaderWebConfig,
	}
	if opts.ReloaderWatchAPI {
		// The generated config Secret, mirrored into the directory --config-file names.
		rl.ExtraArgs = []string{fmt.Sprintf("--watch-secret=%s/%s=%s", a.Namespace, layout.Alertmanager(a.Name).GeneratedSecret(), layout.AlertmanagerConfigDir)}
	}
	if opts.ReloaderReportConfig {
		// Alertmanager answers a reload with an error when the configuration does not
		// load, so a reload the reloader counts as done is one Alertmanager confirmed.
		rl.ReportArgs = []string{workload.ReportPodArg(a.Namespace)}
	}
	reloader, err := rl.Container(opts, false)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	initReloader, err := rl.Container(opts, true)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	pod, err := workload.PodShape{
		Containers:                   []corev1.Container{am, reloader},
		UserContainers:               s.Containers,
		InitContainers:               []corev1.Container{initReloader},
		UserInitContainers:           s.InitContainers,
		Volumes:                      vols.volumes,
		TopologySpreadConstraints:    s.TopologySpreadConstraints,
		DefaultGracePeriod:           alertmanagerGracePeriod,
		AutomountServiceAccountToken: ptr.To(ptr.Deref(s.AutomountServiceAccountToken, true)),
		SpecFields:                   workload.SpecFieldsOf(s),
	}.PodSpec()
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	return corev1.PodTemplateSpec{ObjectMeta: alertmanagerPodMetadata(a, opts, v), Spec: pod}, nil
}

// alertmanagerPodMetadata merges spec.podMetadata with the selector labels and the
// version label; the operator's labels win, and its --labels over them.
func alertmanagerPodMetadata(a *monitoringv1.Alertmanager, opts workload.Options, v versions.Version) metav1.ObjectMeta {
	labels := map[string]string{"app.kubernetes.io/version": v.String()}
	annotations := map[string]string{}
	if m := a.Spec.PodMetadata; m != nil {
		for k, val := range m.Labels {
			labels[k] = val
		}
		for k, val := range m.Annotations {
			annotations[k] = val
		}
	}
	for k, val := range alertmanagerSelectorLabels(a.Name) {
		labels[k] = val
	}
	annotations[workload.DefaultContainerAnnotation] = AlertmanagerContainerName
	return metav1.ObjectMeta{Labels: workload.WithOperatorLabels(opts, labels), Annotations: annotations}
}

// alertmanagerProbes are prometheus-operator's liveness (/-/healthy) and readiness
// (/-/ready) probes on the web port under the route prefix.
func alertmanagerProbes(a *monitoringv1.Alertmanager, v versions.Version) (liveness, readiness *corev1.Probe) {
	scheme := corev1.URISchemeHTTP
	if amWebTLS(a, v) {
		scheme = corev1.URISchemeHTTPS
	}
	get := func(endpoint string) corev1.ProbeHandler {
		return corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path:   path.Join("/", amRoutePrefix(a), endpoint),
			Port:   intstr.FromString(amPortName(a)),
			Scheme: scheme,
		}}
	}
	liveness = &corev1.Probe{ProbeHandler: get("/-/healthy"), TimeoutSeconds: workload.ProbeTimeoutSeconds, FailureThreshold: 10}
	readiness = &corev1.Probe{ProbeHandler: get("/-/ready"), InitialDelaySeconds: 3, TimeoutSeconds: workload.ProbeTimeoutSeconds, PeriodSeconds: 5, FailureThreshold: 10}
	return liveness, readiness
}
