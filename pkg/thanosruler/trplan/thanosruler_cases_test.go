package trplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// ruler returns a minimal ThanosRuler "main" in namespace "monitoring" (one query
// endpoint) with muts applied.
func ruler(muts ...func(*monitoringv1.ThanosRuler)) *monitoringv1.ThanosRuler {
	t := &monitoringv1.ThanosRuler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "ThanosRuler"},
		ObjectMeta: metav1.ObjectMeta{Name: "main", Namespace: "monitoring", Generation: 2},
		Spec: monitoringv1.ThanosRulerSpec{
			QueryEndpoints:     []string{"dnssrv+_http._tcp.thanos-query.monitoring.svc"},
			EvaluationInterval: "15s",
			Retention:          "24h",
		},
	}
	for _, m := range muts {
		m(t)
	}
	return t
}

// rulerCase is one ThanosRuler spec whose StatefulSet is kept as a golden file and sent
// to the API server in the dry-run test.
type rulerCase struct {
	name      string
	t         *monitoringv1.ThanosRuler
	opts      func(*workload.Options)
	rules     int
	tlsAssets int
	labels    map[string]string
}

func (c rulerCase) input() (ThanosRulerInput, workload.Options) {
	opts := workload.DefaultOptions()
	opts.OperatorLabels = c.labels
	if c.opts != nil {
		c.opts(&opts)
	}
	return ThanosRulerInput{ThanosRuler: c.t, RuleConfigMaps: c.rules, TLSAssetSecrets: c.tlsAssets}, opts
}

func rulerCases() []rulerCase {
	return []rulerCase{
		{name: "minimal", t: ruler(), rules: 1},
		{name: "query-alertmanagers", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.QueryEndpoints = []string{"http://thanos-query-a:9090", "http://thanos-query-b:9090"}
			t.Spec.AlertManagersURL = []string{"dnssrv+http://_web._tcp.alertmanager-operated.monitoring.svc", "http://am-extra:9093"}
			t.Spec.AlertQueryURL = "https://query.example.com"
		})},
		{name: "query-alertmanagers-config", t: ruler(func(t *monitoringv1.ThanosRuler) {
			// The configurations win over the endpoint lists, as upstream has it.
			t.Spec.QueryConfig = secretRef("thanos-query", "query.yaml")
			t.Spec.AlertManagersConfig = secretRef("thanos-am", "alertmanagers.yaml")
			t.Spec.AlertManagersURL = []string{"http://ignored:9093"}
			t.Spec.AlertRelabelConfigs = secretRef("thanos-am", "relabel.yaml")
			t.Spec.TracingConfig = secretRef("tracing", "config.yaml")
		})},
		{name: "object-storage", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.ObjectStorageConfig = secretRef("thanos-objstore", "objstore.yml")
			t.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
				Spec: corev1.PersistentVolumeClaimSpec{
					StorageClassName: ptr.To("ssd"),
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}},
				},
			}}
		}), rules: 2},
		{name: "object-storage-file", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.ObjectStorageConfigFile = ptr.To("/etc/objstore/objstore.yml")
			t.Spec.ObjectStorageConfig = secretRef("thanos-objstore", "objstore.yml") // the file wins
			t.Spec.TracingConfigFile = "/etc/tracing/tracing.yml"
			t.Spec.AlertRelabelConfigFile = ptr.To("/etc/relabel/relabel.yml")
			t.Spec.Volumes = []corev1.Volume{{Name: "objstore", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "objstore"}}}}
			t.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "objstore", MountPath: "/etc/objstore"}}
		})},
		{name: "remote-write-stateless", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "https://receive.example.com/api/v1/receive"}}
		}), rules: 1, tlsAssets: 1},
		{name: "labels-alert-drop", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.Labels = map[string]string{"region": "eu-west", "cluster": `prod "a"`}
			t.Spec.AlertDropLabels = []string{"region", "tenant"}
			t.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"team": "sre"}, Annotations: map[string]string{"note": "x"}}
		}), labels: map[string]string{"env": "prod"}},
		{name: "resources-additional-args", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
			}
			t.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "query.http-method", Value: "GET"}, {Name: "shipper.upload-compacted"}}
			t.Spec.LogLevel = "debug"
			t.Spec.LogFormat = "json"
			t.Spec.Replicas = ptr.To[int32](2)
			t.Spec.EvaluationInterval = "30s"
			t.Spec.Retention = "48h"
			t.Spec.RuleQueryOffset = ptr.To(monitoringv1.Duration("1m"))
			t.Spec.RuleConcurrentEval = ptr.To[int32](4)
			t.Spec.RuleOutageTolerance = ptr.To(monitoringv1.Duration("1h"))
			t.Spec.RuleGracePeriod = ptr.To(monitoringv1.Duration("10m"))
			t.Spec.ResendDelay = ptr.To(monitoringv1.Duration("2m"))
			t.Spec.EnableFeatures = []monitoringv1.EnableFeature{"promql-experimental-functions"}
		})},
		{name: "many-rule-configmaps", t: ruler(), rules: 6},
		{name: "old-version-web-tls", t: ruler(func(t *monitoringv1.ThanosRuler) {
			// v0.29: none of the flags gated from v0.30 on; the web config (from
			// v0.21) is mounted and serves TLS, so the reloader reaches the ruler over
			// HTTPS.
			t.Spec.Version = ptr.To("v0.29.0")
			t.Spec.RuleOutageTolerance = ptr.To(monitoringv1.Duration("1h"))
			t.Spec.RuleConcurrentEval = ptr.To[int32](4)
			t.Spec.Web = &monitoringv1.ThanosRulerWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{
				TLSConfig: &monitoringv1.WebTLSConfig{
					Cert:      monitoringv1.SecretOrConfigMap{Secret: secretRef("ruler-tls", "tls.crt")},
					KeySecret: *secretRef("ruler-tls", "tls.key"),
				},
			}}
			t.Spec.RoutePrefix = "/ruler"
			t.Spec.ExternalPrefix = "/ruler"
			t.Spec.GRPCServerTLSConfig = &monitoringv1.GRPCServerTLSConfig{TLSConfig: monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CertFile: "/etc/grpc/tls.crt", KeyFile: "/etc/grpc/tls.key", CAFile: "/etc/grpc/ca.crt"}}}
		})},
		{name: "listen-local-image-containers", t: ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.Image = "registry.example/thanos:custom"
			t.Spec.ListenLocal = true
			t.Spec.PortName = "http"
			t.Spec.ServiceName = ptr.To("my-ruler")
			t.Spec.Containers = []corev1.Container{
				{Name: "thanos-ruler", Env: []corev1.EnvVar{{Name: "GOMAXPROCS", Value: "2"}}},
				{Name: "proxy", Image: "quay.io/oauth2-proxy/oauth2-proxy:v7.6.0"},
			}
			t.Spec.InitContainers = []corev1.Container{{Name: "init", Image: "busybox", Command: []string{"true"}}}
			t.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
			t.Spec.PodManagementPolicy = ptr.To(monitoringv1.OrderedReadyPodManagement)
		}), opts: func(o *workload.Options) { o.ThanosBaseImage = "mirror.example/thanos"; o.ReloaderProbes = true }},
	}
}

func secretRef(name, key string) *corev1.SecretKeySelector {
	return &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
}
