package promplan

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// ThanosSidecarContainerName is the name of the Thanos sidecar container, as
// prometheus-operator names it.
const ThanosSidecarContainerName = "thanos-sidecar"

// ThanosHTTPClientFile is the key of the sidecar's Prometheus HTTP client configuration
// in the Secret ThanosHTTPClientSecretName.
const ThanosHTTPClientFile = "prometheus.http-client-file.yaml"

const (
	thanosGRPCPort     = 10901
	thanosHTTPPort     = 10902
	thanosHTTPPortName = "http"
	thanosConfigDir    = "/etc/thanos/config"
	// thanosHTTPClientVolume is the volume of the HTTP client Secret, named after the
	// Secret's suffix as upstream names it.
	thanosHTTPClientVolume = "thanos-prometheus-http-client-file"
	// thanosShipperMetaFile is the file the sidecar's shipper writes in the TSDB
	// directory; Prometheus reads it to delay compaction until blocks are uploaded.
	thanosShipperMetaFile = "thanos.shipper.json"
)

// ThanosHTTPClientSecretName is the Secret holding the HTTP client configuration the
// Thanos sidecar uses to reach Prometheus (prometheus-<name>-thanos-prometheus-http-client-file).
func ThanosHTTPClientSecretName(p *promserver.Server) string {
	return "prometheus-" + p.Name + "-" + thanosHTTPClientVolume
}

// ThanosHTTPClientConfig is the content of that Secret: prometheus-operator's fixed
// configuration, which skips verification of Prometheus's certificate (the sidecar
// reaches it on the loopback address, not by a name the certificate holds).
func ThanosHTTPClientConfig() []byte {
	return []byte("tls_config:\n  insecure_skip_verify: true\n")
}

// NeedsThanosHTTPClientSecret reports whether p's pods mount the Secret
// ThanosHTTPClientSecretName: with spec.thanos on Thanos v0.24.0 and later. An invalid
// spec.thanos.version reports false; the StatefulSet builder refuses it.
func NeedsThanosHTTPClientSecret(p *promserver.Server) bool {
	if p.PrometheusOnly().Thanos == nil {
		return false
	}
	v, err := thanosVersion(p.PrometheusOnly().Thanos)
	return err == nil && v.Supports(versions.ThanosHTTPClientFlag)
}

// thanosVersion is spec.thanos.version, or versions.DefaultThanos.
func thanosVersion(t *monitoringv1.ThanosSpec) (versions.Version, error) {
	s := ptr.Deref(t.Version, "")
	if s == "" {
		s = versions.DefaultThanos
	}
	v, err := versions.ParseGeneric(s)
	if err != nil {
		return versions.Version{}, fmt.Errorf("spec.thanos.version %q is not a Thanos version: %w", s, err)
	}
	return v, nil
}

// thanosUploads reports whether the sidecar uploads blocks to object storage.
func thanosUploads(p *promserver.Server) bool {
	t := p.PrometheusOnly().Thanos
	return t != nil && (t.ObjectStorageConfig != nil || t.ObjectStorageConfigFile != nil)
}

// compactionMode is how Prometheus's local compaction is configured.
type compactionMode int

const (
	// compactionDefault: Prometheus compacts as usual (no upload to object storage).
	compactionDefault compactionMode = iota
	// compactionDisabled: min and max block durations are equal (spec.disableCompaction,
	// or uploads on versions without delayed compaction).
	compactionDisabled
	// compactionDelayed: Prometheus compacts only blocks the sidecar has uploaded, read
	// from the shipper's meta file (Prometheus v3.9.0 and Thanos v0.41.0 and later).
	compactionDelayed
)

// compactionFor decides the compaction mode as prometheus-operator does.
func compactionFor(p *promserver.Server, v versions.Version) (compactionMode, error) {
	if p.PrometheusOnly().DisableCompaction {
		return compactionDisabled, nil
	}
	if !thanosUploads(p) {
		return compactionDefault, nil
	}
	tv, err := thanosVersion(p.PrometheusOnly().Thanos)
	if err != nil {
		return compactionDefault, err
	}
	if v.Supports(versions.PromDelayedCompaction) && tv.Supports(versions.ThanosDelayedCompaction) {
		return compactionDelayed, nil
	}
	return compactionDisabled, nil
}

// compactionArgs adds the Prometheus flags of the compaction mode: equal block durations
// (spec.thanos.blockSize, 2h by default) when disabled, the shipper meta file when
// delayed, and --no-storage.tsdb.allow-overlapping-compaction when blocks are uploaded
// with an out-of-order window on Prometheus v2.55.0 and later.
func compactionArgs(p *promserver.Server, v versions.Version, add func(name, value string)) error {
	mode, err := compactionFor(p, v)
	if err != nil {
		return err
	}
	switch mode {
	case compactionDisabled:
		block := "2h"
		if t := p.PrometheusOnly().Thanos; t != nil && t.BlockDuration != "" {
			if _, err := model.ParseDuration(string(t.BlockDuration)); err != nil {
				return fmt.Errorf("spec.thanos.blockSize %q: %w", t.BlockDuration, err)
			}
			block = string(t.BlockDuration)
		}
		add("storage.tsdb.min-block-duration", block)
		add("storage.tsdb.max-block-duration", block)
	case compactionDelayed:
		add("storage.tsdb.delay-compact-file.path", path.Join(layout.StorageDir, thanosShipperMetaFile))
	}
	if t := p.Spec.TSDB; t != nil && t.OutOfOrderTimeWindow != nil && mode != compactionDefault && v.Supports(versions.PromNoOverlappingCompaction) {
		add("no-storage.tsdb.allow-overlapping-compaction", "")
	}
	return nil
}

// thanosImage resolves the sidecar image as prometheus-operator does: a base image that
// already has a tag or digest (kube-prometheus-stack passes
// --thanos-default-base-image=quay.io/thanos/thanos:<version>) is used as it is.
func thanosImage(t *monitoringv1.ThanosSpec, opts workload.Options) (string, error) {
	base := ptr.Deref(t.BaseImage, "")
	if base == "" {
		base = opts.ThanosBaseImage
	}
	img := strings.TrimSpace(ptr.Deref(t.Image, ""))
	if img == "" && base == "" {
		return "", fmt.Errorf("no Thanos image: spec.thanos.image is empty and the operator has no default Thanos base image (--thanos-default-base-image)")
	}
	return workload.ImageFor("Thanos", workload.ImageSpec{Image: t.Image, BaseImage: base, SHA: ptr.Deref(t.SHA, ""), Tag: ptr.Deref(t.Tag, ""), Version: ptr.Deref(t.Version, "")}, base, versions.DefaultThanos)
}

// thanosSidecar builds the thanos-sidecar container and the volumes it needs beyond the
// Prometheus ones (nil, nil when spec.thanos is not set). v is the Prometheus version,
// storageMount the TSDB mount of the Prometheus container.
func thanosSidecar(p *promserver.Server, opts workload.Options, v versions.Version, storageMount corev1.VolumeMount) (*corev1.Container, []corev1.Volume, error) {
	t := p.PrometheusOnly().Thanos
	if t == nil {
		return nil, nil, nil
	}
	image, err := thanosImage(t, opts)
	if err != nil {
		return nil, nil, err
	}
	tv, err := thanosVersion(t)
	if err != nil {
		return nil, nil, err
	}
	if t.ObjectStorageConfig != nil && t.ObjectStorageConfigFile != nil {
		return nil, nil, fmt.Errorf("spec.thanos.objectStorageConfig and spec.thanos.objectStorageConfigFile are mutually exclusive; set one")
	}
	if t.TracingConfig != nil && t.TracingConfigFile != "" {
		return nil, nil, fmt.Errorf("spec.thanos.tracingConfig and spec.thanos.tracingConfigFile are mutually exclusive; set one")
	}
	for field, sel := range map[string]*corev1.SecretKeySelector{"objectStorageConfig": t.ObjectStorageConfig, "tracingConfig": t.TracingConfig} {
		if sel != nil && (sel.Name == "" || sel.Key == "") {
			return nil, nil, fmt.Errorf("spec.thanos.%s needs both name and key of a Secret", field)
		}
	}

	// The deprecated listenLocal binds both servers to the loopback address.
	//nolint:staticcheck // spec.thanos.listenLocal is deprecated, still honoured
	listenLocal := t.ListenLocal
	grpcHost, httpHost := "", ""
	if listenLocal || t.GRPCListenLocal {
		grpcHost = "127.0.0.1"
	}
	if listenLocal || t.HTTPListenLocal {
		httpHost = "127.0.0.1"
	}
	var args []workload.Arg
	add := func(name, value string) { args = append(args, workload.Arg{Name: name, Value: value}) }
	// The sidecar reaches Prometheus as the config-reloader does.
	add("prometheus.url", prometheusLocalURL(p, opts, ""))
	add("grpc-address", grpcHost+":"+strconv.Itoa(thanosGRPCPort))
	add("http-address", httpHost+":"+strconv.Itoa(thanosHTTPPort))

	if err := workload.ThanosGRPCTLSArgs(t.GRPCServerTLSConfig, tv, "spec.thanos.grpcServerTlsConfig", "spec.thanos.volumeMounts", add); err != nil {
		return nil, nil, err
	}

	c := &corev1.Container{
		Name:                     ThanosSidecarContainerName,
		Image:                    image,
		ImagePullPolicy:          p.Spec.ImagePullPolicy,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          workload.ContainerSecurityContext(),
		Ports: []corev1.ContainerPort{
			{Name: thanosHTTPPortName, ContainerPort: thanosHTTPPort, Protocol: corev1.ProtocolTCP},
			{Name: workload.ThanosGRPCPortName, ContainerPort: thanosGRPCPort, Protocol: corev1.ProtocolTCP},
		},
		Resources: *t.Resources.DeepCopy(),
	}
	for _, m := range t.VolumeMounts {
		c.VolumeMounts = append(c.VolumeMounts, *m.DeepCopy())
	}

	if thanosUploads(p) {
		if f := t.ObjectStorageConfigFile; f != nil {
			add("objstore.config-file", *f)
		} else {
			add("objstore.config", "$(OBJSTORE_CONFIG)")
			c.Env = append(c.Env, corev1.EnvVar{Name: "OBJSTORE_CONFIG", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: t.ObjectStorageConfig.DeepCopy()}})
		}
		add("tsdb.path", layout.StorageDir)
		c.VolumeMounts = append(c.VolumeMounts, storageMount)
		mode, err := compactionFor(p, v)
		if err != nil {
			return nil, nil, err
		}
		if mode == compactionDelayed {
			add("shipper.meta-file-name", thanosShipperMetaFile)
			add("shipper.ignore-unequal-block-size", "")
		}
	}

	switch {
	case t.TracingConfigFile != "":
		add("tracing.config-file", t.TracingConfigFile)
	case t.TracingConfig != nil:
		add("tracing.config", "$(TRACING_CONFIG)")
		c.Env = append(c.Env, corev1.EnvVar{Name: "TRACING_CONFIG", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: t.TracingConfig.DeepCopy()}})
	}

	level, format := t.LogLevel, t.LogFormat
	if level == "" {
		level = p.Spec.LogLevel
	} else if !slices.Contains([]string{"debug", "info", "warn", "error"}, level) {
		return nil, nil, fmt.Errorf("spec.thanos.logLevel %q: must be one of debug, info, warn, error", level)
	}
	if format == "" {
		format = p.Spec.LogFormat
	} else if format != "logfmt" && format != "json" {
		return nil, nil, fmt.Errorf("spec.thanos.logFormat %q: must be logfmt or json", format)
	}
	if level != "" {
		add("log.level", level)
	}
	if format != "" {
		add("log.format", format)
	}

	if t.MinTime != "" {
		add("min-time", t.MinTime)
	}
	for _, d := range []struct {
		field string
		value monitoringv1.Duration
	}{{"readyTimeout", t.ReadyTimeout}, {"getConfigTimeout", t.GetConfigTimeout}, {"getConfigInterval", t.GetConfigInterval}} {
		if d.value == "" {
			continue
		}
		if _, err := model.ParseDuration(string(d.value)); err != nil {
			return nil, nil, fmt.Errorf("spec.thanos.%s %q: %w", d.field, d.value, err)
		}
	}
	if t.ReadyTimeout != "" {
		add("prometheus.ready_timeout", string(t.ReadyTimeout))
	}
	if tv.Supports(versions.ThanosGetConfig) {
		if t.GetConfigTimeout != "" {
			add("prometheus.get_config_timeout", string(t.GetConfigTimeout))
		}
		if t.GetConfigInterval != "" {
			add("prometheus.get_config_interval", string(t.GetConfigInterval))
		}
	}

	var volumes []corev1.Volume
	if tv.Supports(versions.ThanosHTTPClientFlag) {
		add("prometheus.http-client-file", path.Join(thanosConfigDir, ThanosHTTPClientFile))
		c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: thanosHTTPClientVolume, MountPath: thanosConfigDir})
		volumes = append(volumes, corev1.Volume{
			Name:         thanosHTTPClientVolume,
			VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: ThanosHTTPClientSecretName(p)}},
		})
	}

	rendered, err := workload.MergeArgs(args, t.AdditionalArgs, "spec.thanos.additionalArgs")
	if err != nil {
		return nil, nil, err
	}
	c.Args = append([]string{"sidecar"}, rendered...)
	return c, volumes, nil
}
