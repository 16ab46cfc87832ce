package promplan

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

func TestStatefulSetErrors(t *testing.T) {
	pvc := func(size string) *monitoringv1.StorageSpec {
		s := &monitoringv1.StorageSpec{}
		if size != "" {
			s.VolumeClaimTemplate.Spec.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}
		}
		return s
	}
	cases := []struct {
		name string
		mut  func(*monitoringv1.Prometheus)
		opts func(*workload.Options)
		want string
	}{
		{"conflicting additional arg", func(p *monitoringv1.Prometheus) {
			p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "config.file", Value: "/tmp/x.yaml"}}
		}, nil, "spec.additionalArgs[0]: --config.file is set by the operator"},
		{"negated conflicting additional arg", func(p *monitoringv1.Prometheus) {
			p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "scrape.timestamp-tolerance", Value: "5ms"}, {Name: "no-web.enable-lifecycle"}}
		}, nil, "spec.additionalArgs[1]: --no-web.enable-lifecycle is set by the operator"},
		{"conflict with a conditional flag", func(p *monitoringv1.Prometheus) {
			p.Spec.Version = "v3.10.0"
			p.Spec.Retention = "7d"
			p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "--storage.tsdb.retention.time", Value: "1d"}}
		}, nil, "--storage.tsdb.retention.time is set by the operator"},
		{"rules alert duration", func(p *monitoringv1.Prometheus) {
			p.Spec.Rules.Alert.ResendDelay = "soon"
		}, nil, `spec.rules.alert.resendDelay "soon"`},
		{"xor chunks with st-storage", func(p *monitoringv1.Prometheus) {
			p.Spec.EnableFeatures = []monitoringv1.EnableFeature{"st-storage"}
			p.Spec.TSDB = &monitoringv1.TSDBSpec{ChunkEncoding: &monitoringv1.ChunkEncodingSpec{Floats: ptr.To(monitoringv1.ChunkEncodingFloatsXor)}}
		}, nil, "spec.tsdb.chunkEncoding.floats Xor is incompatible with spec.enableFeatures st-storage"},
		{"unknown chunk encoding", func(p *monitoringv1.Prometheus) {
			p.Spec.TSDB = &monitoringv1.TSDBSpec{ChunkEncoding: &monitoringv1.ChunkEncodingSpec{Floats: ptr.To(monitoringv1.ChunkEncodingFloats("gorilla"))}}
		}, nil, `spec.tsdb.chunkEncoding.floats "gorilla": must be Xor or Xor2`},
		{"retention size on 3.11 and later", func(p *monitoringv1.Prometheus) {
			p.Spec.RetentionSize = "lots"
		}, nil, `spec.retentionSize "lots"`},
		{"additional arg without name", func(p *monitoringv1.Prometheus) {
			p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "--", Value: "x"}}
		}, nil, "spec.additionalArgs[0]: the argument has no name"},
		{"additional arg with value in name", func(p *monitoringv1.Prometheus) {
			p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "foo=bar"}}
		}, nil, "must not contain '='"},
		{"storage without size", func(p *monitoringv1.Prometheus) { p.Spec.Storage = pvc("") },
			nil, "spec.storage.volumeClaimTemplate.spec.resources.requests.storage is required"},
		{"storage of size zero", func(p *monitoringv1.Prometheus) { p.Spec.Storage = pvc("0") },
			nil, "requests.storage must be greater than zero, got 0"},
		{"negative storage", func(p *monitoringv1.Prometheus) { p.Spec.Storage = pvc("-1Gi") },
			nil, "must be greater than zero, got -1Gi"},
		{"ephemeral storage without size", func(p *monitoringv1.Prometheus) {
			p.Spec.Storage = &monitoringv1.StorageSpec{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{}}}
		}, nil, "spec.storage.ephemeral.volumeClaimTemplate.spec.resources.requests.storage is required"},
		{"negative emptyDir size", func(p *monitoringv1.Prometheus) {
			p.Spec.Storage = &monitoringv1.StorageSpec{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: ptr.To(resource.MustParse("-1"))}}
		}, nil, "spec.storage.emptyDir.sizeLimit -1 must not be negative"},
		{"container override without name", func(p *monitoringv1.Prometheus) {
			p.Spec.Containers = []corev1.Container{{Image: "x"}}
		}, nil, "spec.containers[0]: a container needs a name"},
		{"container override twice", func(p *monitoringv1.Prometheus) {
			p.Spec.Containers = []corev1.Container{{Name: "prometheus"}, {Name: "prometheus"}}
		}, nil, `spec.containers[1]: container "prometheus" is listed twice`},
		{"added container without image", func(p *monitoringv1.Prometheus) {
			p.Spec.Containers = []corev1.Container{{Name: "sidecar"}}
		}, nil, `container "sidecar" has no image`},
		{"container clashing with the init container", func(p *monitoringv1.Prometheus) {
			p.Spec.Containers = []corev1.Container{{Name: "init-config-reloader", Image: "x"}}
		}, nil, `container "init-config-reloader" is defined twice`},
		{"volume mount on the storage path", func(p *monitoringv1.Prometheus) {
			p.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			p.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/prometheus"}}
		}, nil, `container "prometheus" mounts two volumes at /prometheus`},
		{"invalid container name", func(p *monitoringv1.Prometheus) {
			p.Spec.InitContainers = []corev1.Container{{Name: "Init_Me", Image: "x"}}
		}, nil, `container name "Init_Me"`},
		{"negative replicas", func(p *monitoringv1.Prometheus) { p.Spec.Replicas = ptr.To[int32](-1) },
			nil, "spec.replicas must not be negative, got -1"},
		{"negative shards", func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptr.To[int32](-2) },
			nil, "spec.shards must not be negative, got -2"},
		{"unparsable version", func(p *monitoringv1.Prometheus) { p.Spec.Version = "latest" },
			nil, `spec.version "latest" is not a Prometheus version`},
		{"too old version", func(p *monitoringv1.Prometheus) { p.Spec.Version = "v2.44.0" },
			nil, "Lookout generates flags for Prometheus v2.45.0 and later"},
		{"bad retention", func(p *monitoringv1.Prometheus) { p.Spec.Retention = "15 days" },
			nil, `spec.retention "15 days"`},
		{"bad retention size", func(p *monitoringv1.Prometheus) { p.Spec.RetentionSize = "10gigs" },
			nil, `spec.retentionSize "10gigs" is not a size`},
		{"bad log level", func(p *monitoringv1.Prometheus) { p.Spec.LogLevel = "verbose" },
			nil, `spec.logLevel "verbose"`},
		{"bad log format", func(p *monitoringv1.Prometheus) { p.Spec.LogFormat = "xml" },
			nil, `spec.logFormat "xml"`},
		{"bad lookback delta", func(p *monitoringv1.Prometheus) {
			p.Spec.Query = &monitoringv1.QuerySpec{LookbackDelta: ptr.To("soon")}
		},
			nil, `spec.query.lookbackDelta "soon"`},
		{"zero max concurrency", func(p *monitoringv1.Prometheus) {
			p.Spec.Query = &monitoringv1.QuerySpec{MaxConcurrency: ptr.To[int32](0)}
		},
			nil, "spec.query.maxConcurrency must be at least 1"},
		{"bad external URL scheme", func(p *monitoringv1.Prometheus) { p.Spec.ExternalURL = "ftp://example.com" },
			nil, "scheme must be http or https"},
		{"volume reusing an operator name", func(p *monitoringv1.Prometheus) {
			p.Spec.Volumes = []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		}, nil, `volume "config" is defined twice`},
		{"mount of a missing volume", func(p *monitoringv1.Prometheus) {
			p.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "nope", MountPath: "/nope"}}
		}, nil, `container "prometheus" mounts volume "nope", which the pod does not have`},
		{"web TLS without key", func(p *monitoringv1.Prometheus) {
			f := webTLSFields()
			f.TLSConfig.KeySecret = corev1.SecretKeySelector{}
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: f}
		}, nil, "spec.web.tlsConfig: TLS private key must be defined"},
		{"web TLS with unknown version", func(p *monitoringv1.Prometheus) {
			f := webTLSFields()
			f.TLSConfig.MinVersion = ptr.To("TLS99")
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: f}
		}, nil, "Prometheus would reject the web config: unknown TLS version: TLS99"},
		{"web TLS with unknown cipher", func(p *monitoringv1.Prometheus) {
			f := webTLSFields()
			f.TLSConfig.CipherSuites = []string{"TLS_NOT_A_CIPHER"}
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: f}
		}, nil, "Prometheus would reject the web config"},
		{"negative max connections", func(p *monitoringv1.Prometheus) {
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{MaxConnections: ptr.To[int32](-1)}
		}, nil, "spec.web.maxConnections must not be negative"},
		{"short startup duration", func(p *monitoringv1.Prometheus) { p.Spec.MaximumStartupDurationSeconds = ptr.To[int32](30) },
			nil, "spec.maximumStartupDurationSeconds must be at least 60, got 30"},
		{"message versions on an old Prometheus", func(p *monitoringv1.Prometheus) {
			p.Spec.Version = "v2.50.0"
			p.Spec.RemoteWriteReceiverMessageVersions = []monitoringv1.RemoteWriteMessageVersion{"V2.0"}
		}, nil, "spec.remoteWriteReceiverMessageVersions requires Prometheus v2.54.0 or later"},
		{"unknown message version", func(p *monitoringv1.Prometheus) {
			p.Spec.RemoteWriteReceiverMessageVersions = []monitoringv1.RemoteWriteMessageVersion{"V3.0"}
		}, nil, `unknown version "V3.0"`},
		{"OTLP on an old Prometheus", func(p *monitoringv1.Prometheus) {
			p.Spec.Version = "2.46.0"
			p.Spec.EnableOTLPReceiver = ptr.To(true)
		}, nil, "the OTLP receiver requires Prometheus v2.47.0 or later"},
		{"name too long", func(p *monitoringv1.Prometheus) { p.Name = strings.Repeat("a", 42) },
			nil, "at most 52 fit"},
		{"invalid pod label", func(p *monitoringv1.Prometheus) {
			p.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"team": "a b"}}
		}, nil, `spec.podMetadata.labels[team] "a b"`},
		{"invalid pod annotation key", func(p *monitoringv1.Prometheus) {
			p.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Annotations: map[string]string{"not a key": "x"}}
		}, nil, `spec.podMetadata.annotations: key "not a key"`},
		{"unknown additional label selectors", func(p *monitoringv1.Prometheus) {
			p.Spec.TopologySpreadConstraints = []monitoringv1.TopologySpreadConstraint{{AdditionalLabelSelectors: ptr.To(monitoringv1.AdditionalLabelSelectors("OnPlanet"))}}
		}, nil, `additionalLabelSelectors "OnPlanet"`},
		{"rolling update settings with OnDelete", func(p *monitoringv1.Prometheus) {
			p.Spec.UpdateStrategy = &monitoringv1.StatefulSetUpdateStrategy{Type: monitoringv1.OnDeleteStatefulSetStrategyType, RollingUpdate: &monitoringv1.RollingUpdateStatefulSetStrategy{}}
		}, nil, "spec.updateStrategy.rollingUpdate is only allowed with type RollingUpdate"},
		{"unknown pod management policy", func(p *monitoringv1.Prometheus) {
			p.Spec.PodManagementPolicy = ptr.To(monitoringv1.PodManagementPolicyType("Sometimes"))
		}, nil, `spec.podManagementPolicy "Sometimes"`},
		{"negative grace period", func(p *monitoringv1.Prometheus) { p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](-5) },
			nil, "spec.terminationGracePeriodSeconds must not be negative, got -5"},
		{"negative min ready seconds", func(p *monitoringv1.Prometheus) { p.Spec.MinReadySeconds = ptr.To[int32](-5) },
			nil, "spec.minReadySeconds must not be negative"},
		{"no reloader image", nil, func(o *workload.Options) { o.ConfigReloaderImage = "" },
			"the operator has no config-reloader image"},
		{"no Prometheus image", nil, func(o *workload.Options) { o.PrometheusBaseImage = "" },
			"no Prometheus image"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := prom()
			if c.mut != nil {
				c.mut(p)
			}
			opts := workload.DefaultOptions()
			if c.opts != nil {
				c.opts(&opts)
			}
			sts, _, err := StatefulSets(Input{Prometheus: promserver.Of(p), RuleConfigMaps: 1}, opts)
			if err == nil {
				t.Fatalf("no error; built %d StatefulSets", len(sts))
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestStatefulSetErrorsNameTheObject(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) { p.Spec.Retention = "forever" })
	_, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, workload.DefaultOptions(), 0)
	if err == nil || !strings.HasPrefix(err.Error(), "prometheus monitoring/k8s shard 0: ") {
		t.Fatalf("error %v does not name the Prometheus and shard", err)
	}
}

func TestStatefulSetBadInputs(t *testing.T) {
	if _, _, err := StatefulSets(Input{}, workload.DefaultOptions()); err == nil {
		t.Error("nil Prometheus: no error")
	}
	if _, err := StatefulSet(Input{Prometheus: promserver.Of(prom())}, workload.DefaultOptions(), 1); err == nil || !strings.Contains(err.Error(), "shard 1 does not exist") {
		t.Errorf("shard out of range: %v", err)
	}
	if _, err := StatefulSet(Input{Prometheus: promserver.Of(prom()), RuleConfigMaps: -1}, workload.DefaultOptions(), 0); err == nil {
		t.Error("negative rule ConfigMaps: no error")
	}
}
