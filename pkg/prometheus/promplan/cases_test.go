package promplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/workload"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// buildCase is one spec whose generated StatefulSet is kept as a golden file and sent to
// the API server in the dry-run test.
type buildCase struct {
	name  string
	p     monitoringv1.PrometheusInterface
	opts  func(*workload.Options)
	in    func(*Input)
	shard int32
}

func (c buildCase) input() (Input, workload.Options) {
	opts := workload.DefaultOptions()
	if c.opts != nil {
		c.opts(&opts)
	}
	in := Input{Prometheus: promserver.Of(c.p), RuleConfigMaps: 1, TLSAssetSecrets: 1}
	if c.in != nil {
		c.in(&in)
	}
	return in, opts
}

func buildCases() []buildCase {
	return []buildCase{
		{name: "minimal", p: prom()},
		{name: "v2", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Version = "v2.47.2"
			p.Spec.EnableOTLPReceiver = ptr.To(true)
			p.Spec.WALCompression = ptr.To(false)
			p.Spec.EnableFeatures = []monitoringv1.EnableFeature{"exemplar-storage"}
		})},
		{name: "v3-flags", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Version = "v3.5.0"
			p.Spec.Retention = "15d"
			p.Spec.RetentionSize = "50GiB"
			p.Spec.WALCompression = ptr.To(true)
			p.Spec.DisableCompaction = true
			p.Spec.ExternalURL = "https://prometheus.example.com/prom"
			p.Spec.RoutePrefix = "/prom"
			p.Spec.EnableAdminAPI = true
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{PageTitle: ptr.To("Cluster metrics"), MaxConnections: ptr.To[int32](512)}
			p.Spec.Query = &monitoringv1.QuerySpec{
				LookbackDelta:  ptr.To("2m"),
				MaxConcurrency: ptr.To[int32](8),
				MaxSamples:     ptr.To[int32](1000000),
				Timeout:        ptr.To(monitoringv1.Duration("30s")),
			}
			p.Spec.LogLevel = "debug"
			p.Spec.LogFormat = "json"
			p.Spec.EnableRemoteWriteReceiver = true
			p.Spec.RemoteWriteReceiverMessageVersions = []monitoringv1.RemoteWriteMessageVersion{"V2.0", "V1.0"}
			p.Spec.OTLP = &monitoringv1.OTLPConfig{}
			p.Spec.EnableFeatures = []monitoringv1.EnableFeature{"promql-experimental-functions", "exemplar-storage", "exemplar-storage"}
			p.Spec.QueryLogFile = "query.log"
		})},
		{name: "storage-pvc", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
				EmbeddedObjectMetadata: monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"backup": "daily"}},
				Spec: corev1.PersistentVolumeClaimSpec{
					StorageClassName: ptr.To("fast"),
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("40Gi")}},
				},
			}}
			p.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType,
				WhenScaled:  appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
			}
		})},
		{name: "storage-emptydir", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Storage = &monitoringv1.StorageSpec{
				DisableMountSubPath: true,
				EmptyDir:            &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory, SizeLimit: ptr.To(resource.MustParse("2Gi"))},
			}
		})},
		{name: "storage-ephemeral", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Storage = &monitoringv1.StorageSpec{Ephemeral: &corev1.EphemeralVolumeSource{
				VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("5Gi")}},
				}},
			}}
		})},
		{name: "shards", shard: 2, p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To[int32](3)
			p.Spec.Replicas = ptr.To[int32](2)
		})},
		{name: "web-tls", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.RoutePrefix = "/metrics-ui"
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: webTLSFields()}
		})},
		{name: "listen-local", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ListenLocal = true
		})},
		{name: "listen-local-tls", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ListenLocal = true
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: webTLSFields()}
		})},
		{name: "additional-args", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.AdditionalArgs = []monitoringv1.Argument{
				{Name: "storage.tsdb.no-lockfile"},
				{Name: "scrape.discovery-reload-interval", Value: "30s"},
				{Name: "--web.cors.origin", Value: `https?://(a|b)\.example\.com`},
			}
		})},
		{name: "containers-override", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Containers = []corev1.Container{
				{
					Name: "prometheus",
					Env:  []corev1.EnvVar{{Name: "GOMAXPROCS", Value: "2"}},
					Resources: corev1.ResourceRequirements{
						Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Gi")},
					},
					VolumeMounts: []corev1.VolumeMount{{Name: "config-out", MountPath: "/etc/prometheus/config_out", ReadOnly: false}},
				},
				{
					Name:      "config-reloader",
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m")}},
				},
				{
					Name:  "oauth-proxy",
					Image: "quay.io/oauth2-proxy/oauth2-proxy:v7.6.0",
					Args:  []string{"--upstream=http://localhost:9090"},
					Ports: []corev1.ContainerPort{{Name: "proxy", ContainerPort: 4180}},
				},
			}
			p.Spec.InitContainers = []corev1.Container{
				{Name: "init-config-reloader", Env: []corev1.EnvVar{{Name: "EXTRA", Value: "1"}}},
				{Name: "init-chown", Image: "busybox:1.36", Command: []string{"chown", "-R", "1000:1000", "/prometheus"}},
			}
		})},
		{name: "reloader-probes", opts: func(o *workload.Options) { o.ReloaderProbes = true }, p: prom()},
		{name: "reloader-probes-listen-local", opts: func(o *workload.Options) { o.ReloaderProbes = true; o.LocalHost = "localhost" }, p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ListenLocal = true
		})},
		{name: "reloader-api", opts: func(o *workload.Options) { o.ReloaderWatchAPI = true }, p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.AutomountServiceAccountToken = ptr.To(false)
			p.Spec.ServiceAccountName = "prometheus-k8s"
		})},
		{name: "process-signal", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ReloadStrategy = ptr.To(monitoringv1.ProcessSignalReloadStrategyType)
		})},
		{name: "security-context", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.SecurityContext = &corev1.PodSecurityContext{
				RunAsUser:    ptr.To[int64](65534),
				RunAsGroup:   ptr.To[int64](65534),
				FSGroup:      ptr.To[int64](65534),
				RunAsNonRoot: ptr.To(true),
			}
		})},
		{name: "pod-metadata", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{
				Name:        "ignored",
				Labels:      map[string]string{"team": "observability", "prometheus": "hijack", "app.kubernetes.io/managed-by": "someone-else"},
				Annotations: map[string]string{"example.com/scrape": "false", "kubectl.kubernetes.io/default-container": "other"},
			}
		})},
		{name: "topology-spread", shard: 1, p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To[int32](2)
			p.Spec.TopologySpreadConstraints = []monitoringv1.TopologySpreadConstraint{
				{
					CoreV1TopologySpreadConstraint: monitoringv1.CoreV1TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.DoNotSchedule},
					AdditionalLabelSelectors:       ptr.To(monitoringv1.ShardAndResourceNameLabelSelector),
				},
				{
					CoreV1TopologySpreadConstraint: monitoringv1.CoreV1TopologySpreadConstraint{
						MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.ScheduleAnyway,
						LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "observability"}},
					},
					AdditionalLabelSelectors: ptr.To(monitoringv1.ResourceNameLabelSelector),
				},
				{
					CoreV1TopologySpreadConstraint: monitoringv1.CoreV1TopologySpreadConstraint{
						MaxSkew: 2, TopologyKey: "node.kubernetes.io/instance-type", WhenUnsatisfiable: corev1.ScheduleAnyway,
						LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "custom"}},
					},
				},
			}
		})},
		// Topology sharding: shard 3 of 4 over zones a and b runs in zone b, second of
		// its zone; its node selector keeps spec.nodeSelector's labels but its zone.
		{name: "topology-sharding", shard: 3, p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To[int32](4)
			p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux", "topology.kubernetes.io/zone": "c"}
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
				Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
				Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"a", "b"}},
			}
		})},
		{name: "topology-sharding-agent", shard: 2, p: agent(func(p *monitoringv1alpha1.PrometheusAgent) {
			p.Spec.Shards = ptr.To[int32](3)
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
				Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
				Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"a", "b"}},
			}
		})},
		{name: "scheduling", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Replicas = ptr.To[int32](0)
			p.Spec.Image = ptr.To("registry.example.com/prometheus:v3.16.0")
			p.Spec.ImagePullPolicy = corev1.PullAlways
			p.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "registry"}}
			p.Spec.ServiceAccountName = "prometheus"
			p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux", "pool": "monitoring"}
			p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "monitoring", Effect: corev1.TaintEffectNoSchedule}}
			p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: corev1.PodAffinityTerm{
					TopologyKey:   "kubernetes.io/hostname",
					LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "prometheus"}},
				}}},
			}}
			p.Spec.PriorityClassName = "system-cluster-critical"
			p.Spec.SchedulerName = "custom-scheduler"
			p.Spec.HostAliases = []monitoringv1.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"gateway.local"}}}
			p.Spec.HostNetwork = true
			p.Spec.DNSConfig = &monitoringv1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Options: []monitoringv1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("2")}, {Name: "edns0"}}}
			p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](120)
			p.Spec.MinReadySeconds = ptr.To[int32](30)
			p.Spec.PodManagementPolicy = ptr.To(monitoringv1.OrderedReadyPodManagement)
			p.Spec.UpdateStrategy = &monitoringv1.StatefulSetUpdateStrategy{
				Type:          monitoringv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &monitoringv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: ptr.To(intstr.FromInt32(1))},
			}
			p.Spec.ServiceName = ptr.To("prometheus-k8s-governing")
			p.Spec.EnableServiceLinks = ptr.To(false)
			p.Spec.Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("2Gi")},
			}
			p.Spec.MaximumStartupDurationSeconds = ptr.To[int32](1800)
		})},
		{name: "mounts", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Secrets = []string{"etcd-client", "kube-etcd-client-certs", "etcd-client"}
			p.Spec.ConfigMaps = []string{"serving-ca.bundle"}
			p.Spec.Volumes = []corev1.Volume{{Name: "extra", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			p.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "extra", MountPath: "/extra"}}
			p.Spec.ScrapeFailureLogFile = ptr.To("scrape-failures.log")
		})},
		{name: "deprecated-image", p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.BaseImage = "mirror.example.com/prometheus"
			p.Spec.Tag = "v3.4.0-custom"
			p.Spec.Version = "v3.4.0"
		})},
		{name: "v3-10-retention-rules", p: prom(func(p *monitoringv1.Prometheus) {
			// Before 3.11 retention is passed as flags; the alert rule flags.
			p.Spec.Version = "v3.10.0"
			p.Spec.RetentionSize = "50GiB"
			p.Spec.Rules = monitoringv1.Rules{Alert: monitoringv1.RulesAlert{ForOutageTolerance: "1h", ForGracePeriod: "10m", ResendDelay: "2m"}}
		})},
		{name: "v3-3-remote-write-v2", p: prom(func(p *monitoringv1.Prometheus) {
			// Remote write 2.0 needs metadata-wal-records before 3.4.
			p.Spec.Version = "v3.3.0"
			p.Spec.Retention = "7d"
			p.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "https://a.example.com/write", MessageVersion: ptr.To(monitoringv1.RemoteWriteMessageVersion2_0)}}
		})},
		{name: "retention-in-config-xor2", p: prom(func(p *monitoringv1.Prometheus) {
			// 3.11 and later read retention from the configuration file: no flag.
			p.Spec.Retention = "30d"
			p.Spec.RetentionSize = "100GiB"
			p.Spec.TSDB = &monitoringv1.TSDBSpec{ChunkEncoding: &monitoringv1.ChunkEncodingSpec{Floats: ptr.To(monitoringv1.ChunkEncodingFloatsXor2)}}
		})},
		{name: "many-rule-configmaps", in: func(in *Input) { in.RuleConfigMaps = 5; in.TLSAssetSecrets = 0 }, p: prom()},
		// A configuration spread over three Secrets: the reloader reads the parts from
		// a projected volume, or mirrors each part Secret in API-watch mode.
		{name: "config-parts", in: func(in *Input) { in.ConfigParts = 3 }, p: prom()},
		{name: "config-parts-api", in: func(in *Input) { in.ConfigParts = 3 }, opts: func(o *workload.Options) { o.ReloaderWatchAPI = true }, p: prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ServiceAccountName = "prometheus"
		})},
		{name: "thanos-minimal", p: prom(func(p *monitoringv1.Prometheus) {
			// No object storage: no TSDB mount, no compaction flags.
			p.Spec.Thanos = &monitoringv1.ThanosSpec{}
		})},
		{name: "thanos-object-storage-tracing", p: prom(func(p *monitoringv1.Prometheus) {
			// Prometheus 3.16 and Thanos 0.42: delayed compaction through the shipper
			// meta file; an out-of-order window adds no overlapping compaction.
			p.Spec.LogLevel = "debug"
			p.Spec.LogFormat = "json"
			p.Spec.TSDB = &monitoringv1.TSDBSpec{OutOfOrderTimeWindow: ptr.To(monitoringv1.Duration("30m"))}
			p.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
				Spec: corev1.PersistentVolumeClaimSpec{Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}}},
			}}
			p.Spec.Thanos = &monitoringv1.ThanosSpec{
				ObjectStorageConfig: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "thanos-objstore"}, Key: "objstore.yml"},
				TracingConfig:       &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "thanos-tracing"}, Key: "tracing.yml"},
				LogLevel:            "info",
				MinTime:             "-3d",
				ReadyTimeout:        "5m",
				GetConfigTimeout:    "30s",
				GetConfigInterval:   "1m",
				Resources:           corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
			}
		})},
		{name: "thanos-old-versions-block-size", p: prom(func(p *monitoringv1.Prometheus) {
			// Before Prometheus 3.9 (or Thanos 0.41) uploads disable local compaction,
			// with spec.thanos.blockSize as the block duration; Thanos before 0.29 gets no
			// get_config flags, before 0.24 no HTTP client file, before 0.37 no TLS
			// minimum version.
			p.Spec.Version = "v3.5.0"
			p.Spec.TSDB = &monitoringv1.TSDBSpec{OutOfOrderTimeWindow: ptr.To(monitoringv1.Duration("30m"))}
			p.Spec.Thanos = &monitoringv1.ThanosSpec{
				Version:                 ptr.To("v0.23.0"),
				BaseImage:               ptr.To("registry.example/thanos"),
				ObjectStorageConfigFile: ptr.To("/etc/thanos/objstore/objstore.yml"),
				TracingConfigFile:       "/etc/thanos/tracing/tracing.yml",
				BlockDuration:           "1h",
				GetConfigTimeout:        "30s",
				GRPCServerTLSConfig:     &monitoringv1.GRPCServerTLSConfig{TLSConfig: monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{MinVersion: ptr.To(monitoringv1.TLSVersion12)}}},
			}
		})},
		{name: "thanos-listen-local-grpc-tls", p: prom(func(p *monitoringv1.Prometheus) {
			// Prometheus serves HTTPS under /prom on loopback: the sidecar reaches it as the
			// config-reloader does.
			p.Spec.ListenLocal = true
			p.Spec.RoutePrefix = "/prom"
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: webTLSFields()}
			p.Spec.Volumes = []corev1.Volume{{Name: "thanos-grpc-tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "thanos-grpc-tls"}}}}
			p.Spec.Thanos = &monitoringv1.ThanosSpec{
				GRPCListenLocal: true,
				HTTPListenLocal: true,
				VolumeMounts:    []corev1.VolumeMount{{Name: "thanos-grpc-tls", MountPath: "/etc/thanos/grpc-tls", ReadOnly: true}},
				GRPCServerTLSConfig: &monitoringv1.GRPCServerTLSConfig{
					TLSConfig: monitoringv1.TLSConfig{
						SafeTLSConfig:  monitoringv1.SafeTLSConfig{MinVersion: ptr.To(monitoringv1.TLSVersion13)},
						TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/thanos/grpc-tls/ca.crt", CertFile: "/etc/thanos/grpc-tls/tls.crt", KeyFile: "/etc/thanos/grpc-tls/tls.key"},
					},
					CipherSuites: []string{"TLS_AES_128_GCM_SHA256"},
					Curves:       []string{"X25519"},
				},
			}
		})},
		{name: "thanos-additional-args-image-override", p: prom(func(p *monitoringv1.Prometheus) {
			// spec.thanos.image wins over version; a container of the same name in
			// spec.containers is merged into the sidecar; spec.disableCompaction uses
			// spec.thanos.blockSize.
			p.Spec.DisableCompaction = true
			p.Spec.ImagePullPolicy = corev1.PullIfNotPresent
			p.Spec.Thanos = &monitoringv1.ThanosSpec{
				Image:                   ptr.To("registry.example/thanos:v0.40.0-custom"),
				Version:                 ptr.To("v0.40.0"),
				BlockDuration:           "2h",
				ObjectStorageConfigFile: ptr.To("/etc/thanos/objstore.yml"),
				//nolint:staticcheck // the deprecated listenLocal is still honoured
				ListenLocal:    true,
				AdditionalArgs: []monitoringv1.Argument{{Name: "shipper.upload-compacted"}, {Name: "store.limits.request-samples", Value: "1000000"}},
			}
			p.Spec.Containers = []corev1.Container{{Name: "thanos-sidecar", Env: []corev1.EnvVar{{Name: "GOMEMLIMIT", Value: "1GiB"}}}}
		})},
		{name: "agent-minimal", p: agent()},
		{name: "agent-v2-wal-compression", p: agent(func(a *monitoringv1alpha1.PrometheusAgent) {
			a.Spec.Version = "v2.54.1"
			a.Spec.WALCompression = ptr.To(true)
		})},
		{name: "agent-sharded-storage-web", p: agent(func(a *monitoringv1alpha1.PrometheusAgent) {
			a.Spec.Shards = ptr.To[int32](3)
			a.Spec.Replicas = ptr.To[int32](2)
			a.Spec.WALCompression = ptr.To(false)
			a.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
				Spec: corev1.PersistentVolumeClaimSpec{Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}}},
			}}
			a.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: webTLSFields()}
			a.Spec.EnableRemoteWriteReceiver = true
			a.Spec.LogLevel = "debug"
			a.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "storage.agent.retention.max-time", Value: "2h"}}
		}), shard: 2},
		{name: "agent-reloader-watch-api", p: agent(func(a *monitoringv1alpha1.PrometheusAgent) {
			a.Spec.ServiceAccountName = "prom-agent"
			a.Spec.AutomountServiceAccountToken = ptr.To(false)
		}), opts: func(o *workload.Options) { o.ReloaderWatchAPI = true }},
	}
}

// agent returns a minimal PrometheusAgent "k8s" in namespace "monitoring" with muts
// applied.
func agent(muts ...func(*monitoringv1alpha1.PrometheusAgent)) *monitoringv1alpha1.PrometheusAgent {
	a := &monitoringv1alpha1.PrometheusAgent{
		ObjectMeta: metav1.ObjectMeta{Name: "k8s", Namespace: "monitoring", Generation: 2},
		Spec: monitoringv1alpha1.PrometheusAgentSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			RemoteWrite: []monitoringv1.RemoteWriteSpec{{URL: "http://receiver.monitoring.svc:9090/api/v1/write"}},
		}},
	}
	for _, m := range muts {
		m(a)
	}
	return a
}

func webTLSFields() monitoringv1.WebConfigFileFields {
	return monitoringv1.WebConfigFileFields{
		TLSConfig: &monitoringv1.WebTLSConfig{
			Cert:           monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "prometheus-tls"}, Key: "tls.crt"}},
			KeySecret:      corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "prometheus-tls"}, Key: "tls.key"},
			ClientCA:       monitoringv1.SecretOrConfigMap{ConfigMap: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "client-ca"}, Key: "ca.crt"}},
			ClientAuthType: ptr.To(monitoringv1.RequireAndVerifyClientCert),
			MinVersion:     ptr.To("TLS12"),
			CipherSuites:   []string{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"},
		},
		HTTPConfig: &monitoringv1.WebHTTPConfig{
			HTTP2: ptr.To(false),
			Headers: &monitoringv1.WebHTTPHeaders{
				XFrameOptions:           "Deny",
				XContentTypeOptions:     "NoSniff",
				StrictTransportSecurity: "max-age=31536000",
			},
		},
	}
}
