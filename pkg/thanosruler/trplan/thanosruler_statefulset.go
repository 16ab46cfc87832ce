package trplan

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// ErrThanosRulerNoQuery is the refusal of a ThanosRuler with neither spec.queryEndpoints
// nor spec.queryConfig (prometheus-operator refuses it too): the ruler has nothing to
// evaluate its rules against.
var ErrThanosRulerNoQuery = errors.New("spec.queryEndpoints and spec.queryConfig are both empty: a Thanos Ruler evaluates its rules through a Thanos Query API, give at least one query endpoint or a query configuration")

// ThanosRulerStatefulSet builds the StatefulSet of a ThanosRuler, with the hash of its
// content in the layout.InputHashAnnotation annotation. Owner references are the
// controller's job. An error means the spec cannot become a valid StatefulSet; its
// message names the field.
func ThanosRulerStatefulSet(in ThanosRulerInput, opts workload.Options) (*appsv1.StatefulSet, error) {
	t := in.ThanosRuler
	if t == nil {
		return nil, fmt.Errorf("no ThanosRuler given")
	}
	sts, err := buildThanosRulerStatefulSet(t, opts, in)
	if err != nil {
		return nil, fmt.Errorf("thanosruler %s/%s: %w", t.Namespace, t.Name, err)
	}
	return sts, nil
}

func buildThanosRulerStatefulSet(t *monitoringv1.ThanosRuler, opts workload.Options, in ThanosRulerInput) (*appsv1.StatefulSet, error) {
	if t.Spec.QueryConfig == nil && len(t.Spec.QueryEndpoints) == 0 {
		return nil, ErrThanosRulerNoQuery
	}
	replicas := ptr.Deref(t.Spec.Replicas, 1)
	if replicas < 0 {
		return nil, workload.ErrNegative("spec.replicas", replicas)
	}
	if in.RuleConfigMaps < 0 || in.TLSAssetSecrets < 0 {
		return nil, fmt.Errorf("negative number of rule ConfigMaps (%d) or TLS assets Secrets (%d)", in.RuleConfigMaps, in.TLSAssetSecrets)
	}
	names := layout.ThanosRuler(t.Name)
	if err := workload.CheckStatefulSetName(names.StatefulSet(), "ThanosRuler"); err != nil {
		return nil, err
	}
	v, err := thanosRulerVersion(t)
	if err != nil {
		return nil, err
	}
	if _, err := ThanosRulerWebConfig(t); err != nil {
		return nil, err
	}
	volName := workload.StorageVolumeName(t.Spec.Storage, names.StorageVolume())
	storageVol, claim, storageMount, err := workload.StorageFor(t.Spec.Storage, volName, layout.ThanosRulerStorageDir, "")
	if err != nil {
		return nil, err
	}
	template, err := thanosRulerPod(t, opts, v, in, storageMount)
	if err != nil {
		return nil, err
	}
	selector := thanosRulerSelectorLabels(t, opts.OperatorLabels)
	// spec.minReadySeconds is checked first, as it always was for a ThanosRuler.
	if err := workload.CheckMinReadySeconds(t.Spec.MinReadySeconds); err != nil {
		return nil, err
	}
	return workload.BuildStatefulSet(workload.StatefulSetShape{
		Name:                names.StatefulSet(),
		Namespace:           t.Namespace,
		Labels:              thanosRulerFixedLabels(t.Name),
		MatchLabels:         selector,
		Replicas:            replicas,
		ServiceName:         ThanosRulerServiceName(t),
		Template:            template,
		MinReadySeconds:     t.Spec.MinReadySeconds,
		PodManagementPolicy: t.Spec.PodManagementPolicy,
		UpdateStrategy:      t.Spec.UpdateStrategy,
		Storage:             storageVol,
		Claim:               claim,
		Volumes:             t.Spec.Volumes,
	})
}

// thanosRulerPod builds the pod template, without the storage volume and spec.volumes.
func thanosRulerPod(t *monitoringv1.ThanosRuler, opts workload.Options, v versions.Version, in ThanosRulerInput, storageMount corev1.VolumeMount) (corev1.PodTemplateSpec, error) {
	s := &t.Spec
	image, err := ThanosRulerImage(t, opts)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	ruleSlots, tlsSlots := workload.Slots(in.RuleConfigMaps), workload.Slots(in.TLSAssetSecrets)
	names := layout.ThanosRuler(t.Name)

	// The volumes of the Secret keys the flags name, as prometheus-operator mounts them:
	// the remote-write configuration first (the ruler's own config Secret, always
	// mounted), then each key, one directory each under layout.ThanosRulerConfigDir.
	keys := append([]workload.SecretKeyField{{Volume: "remote-write-config", Flag: "remote-write.config-file",
		Selector: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: names.ConfigSecret()}, Key: layout.ThanosRulerRemoteWriteKey}}},
		ThanosRulerSecretKeys(t)...)
	var volumes []corev1.Volume
	var mounts []corev1.VolumeMount
	files := map[string]string{}
	for _, k := range keys {
		if k.Selector.Name == "" || k.Selector.Key == "" {
			return corev1.PodTemplateSpec{}, fmt.Errorf("%s needs both name and key of a Secret", k.Field)
		}
		dir := path.Join(layout.ThanosRulerConfigDir, k.Volume)
		volumes = append(volumes, corev1.Volume{Name: k.Volume, VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
			SecretName: k.Selector.Name, Items: []corev1.KeyToPath{{Key: k.Selector.Key, Path: k.Selector.Key}},
		}}})
		mounts = append(mounts, corev1.VolumeMount{Name: k.Volume, MountPath: dir, ReadOnly: true})
		files[k.Flag] = path.Join(dir, k.Selector.Key)
	}

	args, err := thanosRulerArgs(t, v, files)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}

	tlsSources := make([]corev1.VolumeProjection, 0, tlsSlots)
	for n := range tlsSlots {
		tlsSources = append(tlsSources, corev1.VolumeProjection{Secret: &corev1.SecretProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: names.TLSAssetsSecret(n)},
			Optional:             ptr.To(true),
		}})
	}
	volumes = append(volumes, corev1.Volume{Name: workload.TLSAssetsVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: tlsSources}}})
	mounts = append(mounts, corev1.VolumeMount{Name: workload.TLSAssetsVolume, MountPath: layout.ThanosRulerTLSAssetsDir, ReadOnly: true})

	var (
		reloaderMounts    []corev1.VolumeMount
		webMount          *corev1.VolumeMount
		reloaderWebConfig string
	)
	if v.Supports(versions.ThanosRulerWebConfig) {
		sources, err := workload.WebConfigSourcesFor(thanosRulerWebFields(t), names.WebConfigSecret())
		if err != nil {
			return corev1.PodTemplateSpec{}, err
		}
		volumes = append(volumes, corev1.Volume{Name: workload.WebConfigVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}})
		m := corev1.VolumeMount{Name: workload.WebConfigVolume, MountPath: layout.ThanosRulerWebConfigDir, ReadOnly: true}
		mounts = append(mounts, m)
		args = append(args, workload.Arg{Name: "http.config", Value: path.Join(layout.ThanosRulerWebConfigDir, layout.WebConfigFile)}.String())
		// The reloader's listener is served as the ruler's, as prometheus-operator does.
		webMount, reloaderWebConfig = &m, path.Join(layout.ThanosRulerWebConfigDir, layout.WebConfigFile)
	}
	mounts = append(mounts, storageMount)

	// The rule ConfigMaps: Slots of them, optional, each in its own directory, which
	// the reloader watches.
	var watched []string
	for n := range ruleSlots {
		cm := names.RuleConfigMap(n)
		vol := workload.VolumeName("", cm)
		dir := path.Join(layout.ThanosRulerRulesDir, cm)
		volumes = append(volumes, corev1.Volume{Name: vol, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: cm}, Optional: ptr.To(true),
		}}})
		m := corev1.VolumeMount{Name: vol, MountPath: dir, ReadOnly: true}
		mounts = append(mounts, m)
		reloaderMounts = append(reloaderMounts, m)
		watched = append(watched, dir)
	}
	for _, m := range s.VolumeMounts {
		mounts = append(mounts, *m.DeepCopy())
	}
	if webMount != nil {
		reloaderMounts = append(reloaderMounts, *webMount)
	}

	ports := []corev1.ContainerPort{{Name: workload.ThanosGRPCPortName, ContainerPort: layout.ThanosRulerGRPCPort, Protocol: corev1.ProtocolTCP}}
	if !s.ListenLocal {
		ports = append(ports, corev1.ContainerPort{Name: thanosRulerPortName(t), ContainerPort: layout.ThanosRulerHTTPPort, Protocol: corev1.ProtocolTCP})
	}
	resources := workload.WithDefaultMemoryRequest(s.Resources)
	ruler := corev1.Container{
		Name:                     ThanosRulerContainerName,
		Image:                    image,
		ImagePullPolicy:          s.ImagePullPolicy,
		Args:                     args,
		Env:                      []corev1.EnvVar{workload.PodNameEnvVar()},
		VolumeMounts:             mounts,
		Resources:                resources,
		Ports:                    ports,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          workload.ContainerSecurityContext(),
	}
	// The reloader only watches the rule directories and asks the ruler to reload: the
	// ruler reads its other files at start. It always reads the kubelet volumes (the
	// operator's --reloader-watch-api does not apply to a ThanosRuler).
	rl := workload.ReloaderSpec{
		WatchedDirs:   watched,
		ReloadURL:     workload.LocalURL(opts, thanosRulerWebTLS(t, v), layout.ThanosRulerHTTPPort, path.Join("/", s.RoutePrefix, "/-/reload")),
		ListenLocal:   s.ListenLocal,
		LogLevel:      s.LogLevel,
		LogFormat:     s.LogFormat,
		PullPolicy:    s.ImagePullPolicy,
		Env:           []corev1.EnvVar{workload.PodNameEnvVar()},
		Mounts:        reloaderMounts,
		WebConfigFile: reloaderWebConfig,
	}
	if opts.ReloaderReportConfig {
		// Thanos answers a reload with an error when the rules do not load (ThanosRulerOptions).
		rl.ReportArgs = []string{workload.ReportPodArg(t.Namespace)}
	}
	reloader, err := rl.Container(opts, false)
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	// No init container, no token automount setting, never the host network: as
	// prometheus-operator builds the ruler's pod.
	pod, err := workload.PodShape{
		Containers:                []corev1.Container{ruler, reloader},
		UserContainers:            s.Containers,
		UserInitContainers:        s.InitContainers,
		Volumes:                   volumes,
		TopologySpreadConstraints: s.TopologySpreadConstraints,
		DefaultGracePeriod:        thanosRulerGracePeriod,
		SpecFields:                workload.SpecFieldsOf(s),
	}.PodSpec()
	if err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	return corev1.PodTemplateSpec{ObjectMeta: thanosRulerPodMetadata(t, v, opts.OperatorLabels), Spec: pod}, nil
}

// thanosRulerPodMetadata is the selector labels with the version label, and
// spec.podMetadata's annotations with the default-container one.
func thanosRulerPodMetadata(t *monitoringv1.ThanosRuler, v versions.Version, operatorLabels map[string]string) metav1.ObjectMeta {
	labels := thanosRulerSelectorLabels(t, operatorLabels)
	labels["app.kubernetes.io/version"] = v.String()
	annotations := map[string]string{}
	if m := t.Spec.PodMetadata; m != nil {
		for k, val := range m.Annotations {
			annotations[k] = val
		}
	}
	annotations[workload.DefaultContainerAnnotation] = ThanosRulerContainerName
	return metav1.ObjectMeta{Labels: labels, Annotations: annotations}
}

// thanosRulerArgs returns the arguments of the thanos-ruler container: "rule", then the
// flags in prometheus-operator's order, spec.additionalArgs, and (added by the caller)
// --http.config. files maps the flags reading a mounted Secret key to its path.
func thanosRulerArgs(t *monitoringv1.ThanosRuler, v versions.Version, files map[string]string) ([]string, error) {
	s := &t.Spec
	eval := string(s.EvaluationInterval)
	if eval == "" {
		eval = defaultThanosRulerEvalInterval
	}
	retention := string(s.Retention)
	if retention == "" {
		retention = defaultThanosRulerRetention
	}
	for field, d := range map[string]string{"spec.evaluationInterval": eval, "spec.retention": retention} {
		if _, err := model.ParseDuration(d); err != nil {
			return nil, fmt.Errorf("%s %q: %w", field, d, err)
		}
	}
	args := []workload.Arg{
		{Name: "data-dir", Value: layout.ThanosRulerStorageDir},
		{Name: "eval-interval", Value: eval},
		{Name: "tsdb.retention", Value: retention},
	}
	add := func(name, value string) { args = append(args, workload.Arg{Name: name, Value: value}) }
	duration := func(field, flag string, since versions.Feature, d *monitoringv1.Duration) error {
		if d == nil || *d == "" || !v.Supports(since) {
			return nil
		}
		if _, err := model.ParseDuration(string(*d)); err != nil {
			return fmt.Errorf("%s %q: %w", field, *d, err)
		}
		add(flag, string(*d))
		return nil
	}
	if err := duration("spec.ruleQueryOffset", "rule-query-offset", versions.ThanosRulerQueryOffset, s.RuleQueryOffset); err != nil {
		return nil, err
	}
	if c := ptr.Deref(s.RuleConcurrentEval, 0); c > 0 && v.Supports(versions.ThanosRulerConcurrent) {
		add("rule-concurrent-evaluation", strconv.Itoa(int(c)))
	}
	if err := duration("spec.ruleOutageTolerance", "for-outage-tolerance", versions.ThanosRulerOutageFlags, s.RuleOutageTolerance); err != nil {
		return nil, err
	}
	if err := duration("spec.ruleGracePeriod", "for-grace-period", versions.ThanosRulerOutageFlags, s.RuleGracePeriod); err != nil {
		return nil, err
	}
	if err := duration("spec.resendDelay", "resend-delay", versions.Feature{}, s.ResendDelay); err != nil {
		return nil, err
	}
	if len(s.EnableFeatures) > 0 && v.Supports(versions.ThanosRulerEnableFeature) {
		feats := make([]string, len(s.EnableFeatures))
		for i, f := range s.EnableFeatures {
			feats[i] = string(f)
		}
		add("enable-feature", strings.Join(feats, ","))
	}

	// External labels: the replica label, then spec.labels by name. Thanos reads each
	// value as a quoted string.
	add("label", ThanosRulerReplicaLabel+`="$(`+workload.PodNameEnv+`)"`)
	keys := make([]string, 0, len(s.Labels))
	for k := range s.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !model.UTF8Validation.IsValidLabelName(k) || strings.ContainsAny(k, "=\"") {
			return nil, fmt.Errorf("spec.labels: %q is not a label name", k)
		}
		add("label", k+"="+strconv.Quote(s.Labels[k]))
	}
	add("alert.label-drop", ThanosRulerReplicaLabel)
	for _, l := range s.AlertDropLabels {
		add("alert.label-drop", l)
	}
	if s.ListenLocal {
		add("http-address", "localhost:"+strconv.Itoa(layout.ThanosRulerHTTPPort))
	}
	if err := workload.LogArgs(s.LogLevel, s.LogFormat, func(n, val string) {
		if n == "level" && val == "info" {
			return // Thanos's default, as prometheus-operator leaves it out
		}
		add("log."+n, val)
	}); err != nil {
		return nil, err
	}
	add("rule-file", layout.ThanosRulerRulesDir+"/*/*.yaml")
	if len(s.RemoteWrite) > 0 {
		if !v.Supports(versions.ThanosRulerRemoteWrite) {
			return nil, fmt.Errorf("spec.remoteWrite needs Thanos v%s or later; this ThanosRuler runs v%s", versions.ThanosRulerRemoteWrite.Since, v)
		}
		add("remote-write.config-file", files["remote-write.config-file"])
	}
	if f, ok := files["query.config-file"]; ok {
		add("query.config-file", f)
	} else {
		for _, q := range s.QueryEndpoints {
			add("query", q)
		}
	}
	if f, ok := files["alertmanagers.config-file"]; ok {
		add("alertmanagers.config-file", f)
	} else {
		for _, u := range s.AlertManagersURL {
			add("alertmanagers.url", u)
		}
	}
	if f := ptr.Deref(s.ObjectStorageConfigFile, ""); s.ObjectStorageConfigFile != nil {
		add("objstore.config-file", f)
	} else if f, ok := files["objstore.config-file"]; ok {
		add("objstore.config-file", f)
	}
	if s.TracingConfigFile != "" {
		add("tracing.config-file", s.TracingConfigFile)
	} else if f, ok := files["tracing.config-file"]; ok {
		add("tracing.config-file", f)
	}
	if s.AlertRelabelConfigFile != nil {
		add("alert.relabel-config-file", *s.AlertRelabelConfigFile)
	} else if f, ok := files["alert.relabel-config-file"]; ok {
		add("alert.relabel-config-file", f)
	}
	if err := workload.ThanosGRPCTLSArgs(s.GRPCServerTLSConfig, v, "spec.grpcServerTlsConfig", "spec.volumeMounts", add); err != nil {
		return nil, err
	}
	workload.AddNonEmpty(add, [2]string{"web.external-prefix", s.ExternalPrefix}, [2]string{"web.route-prefix", s.RoutePrefix},
		[2]string{"alert.query-url", s.AlertQueryURL})
	if v.Supports(versions.ThanosRulerWebConfig) {
		// Appended by the caller after spec.additionalArgs, as prometheus-operator
		// orders it; reserved here so that additionalArgs cannot set it.
		args = append(args, workload.Arg{Name: "http.config", Value: ""})
	}
	out, err := workload.MergeArgs(args, s.AdditionalArgs, "spec.additionalArgs")
	if err != nil {
		return nil, err
	}
	if v.Supports(versions.ThanosRulerWebConfig) {
		out = slices.DeleteFunc(out, func(a string) bool { return a == "--http.config" })
	}
	return append([]string{"rule"}, out...), nil
}
