package amplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// am returns a minimal Alertmanager "main" in namespace "monitoring" with muts applied.
func am(muts ...func(*monitoringv1.Alertmanager)) *monitoringv1.Alertmanager {
	a := &monitoringv1.Alertmanager{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "Alertmanager"},
		ObjectMeta: metav1.ObjectMeta{Name: "main", Namespace: "monitoring", Generation: 2},
	}
	for _, m := range muts {
		m(a)
	}
	return a
}

// amCase is one Alertmanager spec whose StatefulSet is kept as a golden file and sent
// to the API server in the dry-run test.
type amCase struct {
	name string
	a    *monitoringv1.Alertmanager
	opts func(*workload.Options)
	tls  int
}

func (c amCase) input() (AlertmanagerInput, workload.Options) {
	opts := workload.DefaultOptions()
	if c.opts != nil {
		c.opts(&opts)
	}
	return AlertmanagerInput{Alertmanager: c.a, TLSAssetSecrets: c.tls}, opts
}

func secretRef(name, key string) *corev1.SecretKeySelector {
	return &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
}

func amCases() []amCase {
	return []amCase{
		{name: "minimal", a: am()},
		{name: "replicas-3", a: am(func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To[int32](3) })},
		{name: "replicas-0", a: am(func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To[int32](0) })},
		{name: "force-cluster-mode", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.ForceEnableClusterMode = true
			a.Spec.AdditionalPeers = []string{"am-other.example:9094"}
		})},
		{name: "cluster-domain", a: am(func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To[int32](2) }),
			opts: func(o *workload.Options) { o.ClusterDomain = "cluster.local" }},
		{name: "cluster-flags", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Replicas = ptr.To[int32](2)
			a.Spec.ClusterAdvertiseAddress = "10.0.0.1:9094"
			a.Spec.ClusterGossipInterval = "200ms"
			a.Spec.ClusterPushpullInterval = "1m"
			a.Spec.ClusterPeerTimeout = "15s"
			a.Spec.ClusterLabel = ptr.To("team-a")
			a.Spec.ClusterPeerName = ptr.To("peer-$(POD_NAME)")
			a.Spec.ServiceName = ptr.To("am-custom")
		})},
		{name: "web-route-features", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.ExternalURL = "https://alerts.example.com/am"
			a.Spec.RoutePrefix = "/am"
			a.Spec.Retention = "240h"
			a.Spec.LogLevel = "debug"
			a.Spec.LogFormat = "json"
			a.Spec.EnableFeatures = []string{"receiver-name-in-metrics", "utf8-strict-mode"}
			a.Spec.Web = &monitoringv1.AlertmanagerWebSpec{GetConcurrency: ptr.To[uint32](4), Timeout: ptr.To[uint32](30)}
			a.Spec.Limits = &monitoringv1.AlertmanagerLimitsSpec{MaxSilences: ptr.To[int32](1000), MaxPerSilenceBytes: ptr.To(monitoringv1.ByteSize("1MiB"))}
			a.Spec.MinReadySeconds = ptr.To[int32](30)
			a.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "alerts.gc-interval", Value: "10m"}}
		})},
		{name: "web-tls", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Web = &monitoringv1.AlertmanagerWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{
				TLSConfig: &monitoringv1.WebTLSConfig{
					Cert:      monitoringv1.SecretOrConfigMap{Secret: secretRef("am-tls", "tls.crt")},
					KeySecret: *secretRef("am-tls", "tls.key"),
				},
			}}
		})},
		{name: "cluster-tls", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Replicas = ptr.To[int32](2)
			a.Spec.ClusterTLS = &monitoringv1.ClusterTLSConfig{
				ServerTLS: monitoringv1.WebTLSConfig{
					Cert:      monitoringv1.SecretOrConfigMap{Secret: secretRef("gossip", "tls.crt")},
					KeySecret: *secretRef("gossip", "tls.key"),
					ClientCA:  monitoringv1.SecretOrConfigMap{Secret: secretRef("gossip", "ca.crt")},
				},
				ClientTLS: monitoringv1.SafeTLSConfig{
					CA:         monitoringv1.SecretOrConfigMap{Secret: secretRef("gossip", "ca.crt")},
					Cert:       monitoringv1.SecretOrConfigMap{Secret: secretRef("gossip", "tls.crt")},
					KeySecret:  secretRef("gossip", "tls.key"),
					ServerName: ptr.To("alertmanager"),
				},
			}
		})},
		{name: "storage-pvc", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
				Spec: corev1.PersistentVolumeClaimSpec{
					StorageClassName: ptr.To("ssd"),
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
				},
			}}
			a.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
			}
		})},
		{name: "storage-emptydir", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Storage = &monitoringv1.StorageSpec{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}
		})},
		{name: "templates-secrets-configmaps", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Secrets = []string{"smtp-creds", "smtp-creds"}
			a.Spec.ConfigMaps = []string{"am-extra"}
			a.Spec.AlertmanagerConfiguration = &monitoringv1.AlertmanagerConfiguration{
				Name: "global",
				Templates: []monitoringv1.SecretOrConfigMap{
					{ConfigMap: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "tmpl"}, Key: "slack.tmpl"}},
					{Secret: secretRef("tmpl-secret", "mail.tmpl")},
					{Secret: secretRef("tmpl-other", "slack.tmpl")},
				},
			}
			a.Spec.Volumes = []corev1.Volume{{Name: "extra", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			a.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "extra", MountPath: "/extra"}}
		})},
		{name: "scheduling", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
			a.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "monitoring", Effect: corev1.TaintEffectNoSchedule}}
			a.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
				Weight: 100, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"alertmanager": "main"}}},
			}}}}
			a.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.ScheduleAnyway,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"alertmanager": "main"}}}}
			a.Spec.PriorityClassName = "system-cluster-critical"
			a.Spec.HostAliases = []monitoringv1.HostAlias{{IP: "10.1.2.3", Hostnames: []string{"smtp.internal"}}}
			a.Spec.SchedulerName = "custom-scheduler"
		})},
		{name: "security-pod-metadata", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.SecurityContext = &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](65534), RunAsNonRoot: ptr.To(true), FSGroup: ptr.To[int64](2000)}
			a.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"team": "sre", "alertmanager": "ignored"}, Annotations: map[string]string{"example.com/scrape": "true"}}
			a.Spec.ServiceAccountName = "alertmanager-main"
			a.Spec.AutomountServiceAccountToken = ptr.To(false)
			a.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "registry"}}
			a.Spec.Resources = corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4m"), corev1.ResourceMemory: resource.MustParse("100Mi")}}
			a.Spec.TerminationGracePeriodSeconds = ptr.To[int64](30)
		})},
		{name: "containers-override", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Containers = []corev1.Container{
				{Name: "alertmanager", Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")}}},
				{Name: "oauth-proxy", Image: "quay.io/oauth2-proxy/oauth2-proxy:v7.6.0", Args: []string{"--upstream=http://127.0.0.1:9093"}},
			}
			a.Spec.InitContainers = []corev1.Container{{Name: "init-config-reloader", Env: []corev1.EnvVar{{Name: "EXTRA", Value: "1"}}}}
		})},
		{name: "image-old-version", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Version = "v0.21.0"
			a.Spec.BaseImage = "registry.example/alertmanager"
			a.Spec.SHA = "abc123"
			a.Spec.LogFormat = "json"
			a.Spec.EnableFeatures = []string{"ignored-before-0.27"}
			a.Spec.Web = &monitoringv1.AlertmanagerWebSpec{GetConcurrency: ptr.To[uint32](4)}
		})},
		{name: "image-listen-local-paused", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.Image = ptr.To("registry.example/am:custom")
			a.Spec.ListenLocal = true
			a.Spec.Paused = true
			a.Spec.PortName = "http"
			a.Spec.ImagePullPolicy = corev1.PullAlways
		}), opts: func(o *workload.Options) { o.ReloaderProbes = true; o.AlertmanagerBaseImage = "mirror.example/am" }},
		{name: "strategy-dns-hostnet", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.PodManagementPolicy = ptr.To(monitoringv1.OrderedReadyPodManagement)
			a.Spec.UpdateStrategy = &monitoringv1.StatefulSetUpdateStrategy{Type: monitoringv1.OnDeleteStatefulSetStrategyType}
			a.Spec.HostNetwork = true
			a.Spec.DNSConfig = &monitoringv1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}}
			a.Spec.EnableServiceLinks = ptr.To(false)
		}), tls: 5},
		{name: "reloader-watch-api", a: am(func(a *monitoringv1.Alertmanager) { a.Spec.ServiceAccountName = "alertmanager-main" }),
			opts: func(o *workload.Options) { o.ReloaderWatchAPI = true }},
		{name: "reloader-watch-api-no-token-automount", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.ServiceAccountName = "alertmanager-main"
			a.Spec.AutomountServiceAccountToken = ptr.To(false)
		}), opts: func(o *workload.Options) { o.ReloaderWatchAPI = true }},
		{name: "reloader-report-config", a: am(func(a *monitoringv1.Alertmanager) {
			a.Spec.ServiceAccountName = "alertmanager-main"
			a.Spec.AutomountServiceAccountToken = ptr.To(false)
		}), opts: func(o *workload.Options) { o.ReloaderReportConfig = true }},
	}
}
