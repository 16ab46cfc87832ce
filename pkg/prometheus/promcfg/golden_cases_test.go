//lint:file-ignore SA1019 tests set deprecated API fields that Lookout still honours

package promcfg_test

import (
	corev1 "k8s.io/api/core/v1"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// goldenCase is one golden file: testdata/<name>.golden.
type goldenCase struct {
	name   string
	prom   *monitoringv1.Prometheus
	sms    []*monitoringv1.ServiceMonitor
	pms    []*monitoringv1.PodMonitor
	probes []*monitoringv1.Probe
	scs    []*monitoringv1alpha1.ScrapeConfig
	// podZoneLabels: the cluster labels pods with their zone (Generator.PodZoneLabels).
	podZoneLabels bool
}

type P = monitoringv1.Prometheus
type SM = monitoringv1.ServiceMonitor
type PM = monitoringv1.PodMonitor
type EP = monitoringv1.Endpoint
type PEP = monitoringv1.PodMetricsEndpoint

func v(s string) func(*P) { return func(p *P) { p.Spec.Version = s } }

// topology shards p by zone: shards shards over zones, the zone external label named
// label (nil: the default).
func topology(shards int32, label *string, zones ...string) func(*P) {
	return func(p *P) {
		p.Spec.Shards = ptr(shards)
		p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
			Mode:     ptr(monitoringv1.TopologyShardingStrategyMode),
			Topology: &monitoringv1.TopologyShardingStrategy{ExternalLabelName: label, Values: zones},
		}
	}
}

func am(mut ...func(*monitoringv1.AlertmanagerEndpoints)) func(*P) {
	return func(p *P) {
		a := monitoringv1.AlertmanagerEndpoints{Name: "alertmanager-main", Port: intstr.FromString("web")}
		for _, m := range mut {
			m(&a)
		}
		if p.Spec.Alerting == nil {
			p.Spec.Alerting = &monitoringv1.AlertingSpec{}
		}
		p.Spec.Alerting.Alertmanagers = append(p.Spec.Alerting.Alertmanagers, a)
	}
}

func rw(mut ...func(*monitoringv1.RemoteWriteSpec)) func(*P) {
	return func(p *P) {
		r := monitoringv1.RemoteWriteSpec{URL: "https://remote.example.com/api/v1/write"}
		for _, m := range mut {
			m(&r)
		}
		p.Spec.RemoteWrite = append(p.Spec.RemoteWrite, r)
	}
}

func rr(mut ...func(*monitoringv1.RemoteReadSpec)) func(*P) {
	return func(p *P) {
		r := monitoringv1.RemoteReadSpec{URL: "https://remote.example.com/api/v1/read"}
		for _, m := range mut {
			m(&r)
		}
		p.Spec.RemoteRead = append(p.Spec.RemoteRead, r)
	}
}

func scrapeClasses(p *P) {
	p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{
		{
			Name:              "istio",
			Default:           ptr(true),
			TLSConfig:         &monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/istio-certs/root-cert.pem", CertFile: "/etc/istio-certs/cert-chain.pem", KeyFile: "/etc/istio-certs/key.pem"}},
			Relabelings:       []monitoringv1.RelabelConfig{rl("replace", nil, "", "mesh", "istio")},
			MetricRelabelings: []monitoringv1.RelabelConfig{rl("drop", []string{"__name__"}, "istio_debug_.*", "", "")},
			AttachMetadata:    &monitoringv1.AttachMetadata{Node: ptr(true)},
		},
		{
			Name:          "authorized",
			Authorization: &monitoringv1.Authorization{CredentialsFile: "/var/run/secrets/token"},
		},
		{
			Name:                   "legacy-text",
			FallbackScrapeProtocol: ptr(monitoringv1.PrometheusText0_0_4),
		},
	}
}

func goldenCases() []goldenCase {
	return []goldenCase{
		// --- Prometheus-level sections ---
		{name: "global_minimal", prom: prom()},
		{name: "global_scrape_interval_timeout", prom: prom(func(p *P) { p.Spec.ScrapeInterval = "15s"; p.Spec.ScrapeTimeout = "10s" })},
		{name: "global_evaluation_interval", prom: prom(func(p *P) { p.Spec.EvaluationInterval = "1m" })},
		{name: "global_external_labels", prom: prom(func(p *P) { p.Spec.ExternalLabels = map[string]string{"cluster": "prod-eu", "region": "eu-west-1"} })},
		{name: "global_custom_external_label_names", prom: prom(func(p *P) {
			p.Spec.PrometheusExternalLabelName = ptr("cluster_prometheus")
			p.Spec.ReplicaExternalLabelName = ptr("replica")
		})},
		{name: "global_replica_label_disabled", prom: prom(func(p *P) {
			p.Spec.ReplicaExternalLabelName = ptr("")
			p.Spec.PrometheusExternalLabelName = ptr("")
		})},
		{name: "global_query_log_relative", prom: prom(func(p *P) { p.Spec.QueryLogFile = "query.log" })},
		{name: "global_query_log_absolute", prom: prom(func(p *P) { p.Spec.QueryLogFile = "/dev/stdout" })},
		{name: "global_scrape_protocols_v3", prom: prom(func(p *P) {
			p.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.PrometheusProto, monitoringv1.PrometheusText1_0_0}
		})},
		{name: "global_scrape_protocols_v2_45_left_out", prom: prom(v("v2.45.0"), func(p *P) {
			p.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.PrometheusProto}
		})},
		{name: "global_scrape_protocols_v2_49", prom: prom(v("v2.49.1"), func(p *P) {
			p.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.OpenMetricsText1_0_0, monitoringv1.PrometheusText0_0_4}
		})},
		{name: "global_rule_query_offset", prom: prom(func(p *P) { p.Spec.RuleQueryOffset = ptr(monitoringv1.Duration("30s")) })},
		{name: "global_rule_query_offset_v2_45_left_out", prom: prom(v("2.45.0"), func(p *P) { p.Spec.RuleQueryOffset = ptr(monitoringv1.Duration("30s")) })},
		{name: "global_limits", prom: prom(func(p *P) {
			p.Spec.SampleLimit = ptr(int64(10000))
			p.Spec.TargetLimit = ptr(int64(100))
			p.Spec.LabelLimit = ptr(int64(50))
			p.Spec.LabelNameLengthLimit = ptr(int64(200))
			p.Spec.LabelValueLengthLimit = ptr(int64(1000))
			p.Spec.KeepDroppedTargets = ptr(int64(10))
			p.Spec.BodySizeLimit = ptr(monitoringv1.ByteSize("10MB"))
		})},
		{name: "global_keep_dropped_targets_v2_45_left_out", prom: prom(v("v2.45.0"), func(p *P) { p.Spec.KeepDroppedTargets = ptr(int64(10)) })},
		{name: "global_name_validation_legacy", prom: prom(func(p *P) { p.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme) })},
		{name: "global_name_escaping", prom: prom(func(p *P) { p.Spec.NameEscapingScheme = ptr(monitoringv1.UnderscoresNameEscapingScheme) })},
		{name: "global_runtime_gogc", prom: prom(func(p *P) { p.Spec.Runtime = &monitoringv1.RuntimeConfig{GoGC: ptr(int32(75))} })},
		{name: "global_storage_ooo_exemplars", prom: prom(func(p *P) {
			p.Spec.TSDB = &monitoringv1.TSDBSpec{OutOfOrderTimeWindow: ptr(monitoringv1.Duration("10m"))}
			p.Spec.Exemplars = &monitoringv1.Exemplars{MaxSize: ptr(int64(100000))}
		})},
		{name: "storage_tsdb_v3_16", prom: prom(func(p *P) {
			p.Spec.TSDB = &monitoringv1.TSDBSpec{
				OutOfOrderTimeWindow:           ptr(monitoringv1.Duration("30m")),
				StaleSeriesCompactionThreshold: qty("0.25"),
				ChunkEncoding:                  &monitoringv1.ChunkEncodingSpec{Floats: ptr(monitoringv1.ChunkEncodingFloatsXor2)},
			}
		})},
		{name: "storage_tsdb_v3_9_left_out", prom: prom(v("v3.9.0"), func(p *P) {
			p.Spec.TSDB = &monitoringv1.TSDBSpec{
				StaleSeriesCompactionThreshold: qty("0.25"),
				ChunkEncoding:                  &monitoringv1.ChunkEncodingSpec{Floats: ptr(monitoringv1.ChunkEncodingFloatsXor)},
			}
		})},
		{name: "storage_retention_v3_16", prom: prom(func(p *P) {
			p.Spec.Retention = "15d"
			p.Spec.RetentionSize = "200GiB"
			p.Spec.RetentionPercentage = qty("80")
		})},
		{name: "storage_retention_size_only_v3_11", prom: prom(v("v3.11.0"), func(p *P) { p.Spec.RetentionSize = "50GB" })},
		{name: "storage_retention_v3_10_flags", prom: prom(v("v3.10.0"), func(p *P) {
			p.Spec.Retention = "15d"
			p.Spec.RetentionPercentage = qty("80")
		})},
		{name: "tracing", prom: prom(func(p *P) {
			p.Spec.TracingConfig = &monitoringv1.TracingConfig{
				Endpoint:         "otel-collector.monitoring.svc:4317",
				ClientType:       ptr("GRPC"),
				SamplingFraction: qty("0.1"),
				Insecure:         ptr(false),
				Headers:          map[string]string{"x-tenant": "platform", "x-scope": "prometheus"},
				Compression:      ptr("Gzip"),
				Timeout:          ptr(monitoringv1.Duration("5s")),
				TLSConfig:        &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt"), ServerName: ptr("otel")}},
			}
		})},
		{name: "otlp_v3_16", prom: prom(func(p *P) {
			p.Spec.OTLP = &monitoringv1.OTLPConfig{
				PromoteAllResourceAttributes:         ptr(true),
				IgnoreResourceAttributes:             []string{"process.pid"},
				TranslationStrategy:                  ptr(monitoringv1.UnderscoreEscapingWithoutSuffixes),
				KeepIdentifyingResourceAttributes:    ptr(true),
				ConvertHistogramsToNHCB:              ptr(true),
				PromoteScopeMetadata:                 ptr(true),
				LabelNameUnderscoreSanitization:      ptr(true),
				LabelNamePreserveMultipleUnderscores: ptr(false),
			}
		})},
		{name: "otlp_v3_0_left_out", prom: prom(v("v3.0.0"), func(p *P) {
			p.Spec.OTLP = &monitoringv1.OTLPConfig{
				PromoteResourceAttributes:         []string{"service.instance.id", "k8s.namespace.name"},
				TranslationStrategy:               ptr(monitoringv1.NoUTF8EscapingWithSuffixes),
				KeepIdentifyingResourceAttributes: ptr(true),
				ConvertHistogramsToNHCB:           ptr(true),
			}
		})},
		{name: "otlp_v2_55", prom: prom(v("v2.55.0"), func(p *P) {
			p.Spec.OTLP = &monitoringv1.OTLPConfig{PromoteResourceAttributes: []string{"service.instance.id"}, TranslationStrategy: ptr(monitoringv1.UnderscoreEscapingWithSuffixes)}
		})},
		{name: "apiserver_config", prom: prom(am(), func(p *P) {
			p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{
				Host:          "https://kubernetes.example.com:6443",
				Authorization: &monitoringv1.Authorization{SafeAuthorization: monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))}},
				TLSConfig:     &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt"), ServerName: ptr("kubernetes")}},
				ProxyConfig:   monitoringv1.ProxyConfig{ProxyURL: ptr("http://proxy.example.com:3128")},
			}
		}), sms: []*SM{sm("app")}, pms: []*PM{pm("app")}, probes: []*monitoringv1.Probe{probe("ingress", func(p *monitoringv1.Probe) {
			p.Spec.Targets = monitoringv1.ProbeTargets{Ingress: &monitoringv1.ProbeTargetIngress{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
		})}},
		{name: "apiserver_config_basic_auth", prom: prom(func(p *P) {
			p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{
				Host:      "https://10.0.0.1:6443",
				BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")},
			}
		}), sms: []*SM{sm("app")}},
		{name: "apiserver_config_bearer_token_deprecated", prom: prom(func(p *P) {
			p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{Host: "https://10.0.0.1:6443", BearerTokenFile: "/var/run/secrets/remote-cluster/token"}
		}), pms: []*PM{pm("app")}},
		{name: "global_scrape_failure_log", prom: prom(func(p *P) { p.Spec.ScrapeFailureLogFile = ptr("failures.log") })},
		{name: "global_histograms_v3_16", prom: prom(func(p *P) {
			p.Spec.ScrapeNativeHistograms = ptr(true)
			p.Spec.ScrapeClassicHistograms = ptr(true)
			p.Spec.ConvertClassicHistogramsToNHCB = ptr(false)
			p.Spec.ExtraScrapeMetrics = ptr(true)
		})},
		{name: "global_histograms_v2_45_left_out", prom: prom(v("v2.45.0"), func(p *P) {
			p.Spec.ScrapeNativeHistograms = ptr(true)
			p.Spec.ConvertClassicHistogramsToNHCB = ptr(true)
		})},

		// --- Alerting ---
		{name: "alerting_basic", prom: prom(am())},
		{name: "alerting_int_port_other_namespace", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.Port = intstr.FromInt32(9093)
			a.Namespace = ptr("alerting")
		}))},
		{name: "alerting_tls_from_secrets", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.Scheme = ptr(monitoringv1.SchemeHTTPS)
			a.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{
				CA: *secretRef("tls", "ca.crt"), Cert: *secretRef("tls", "tls.crt"), KeySecret: ptr(secretKey("tls", "tls.key")),
				ServerName: ptr("alertmanager.alerting.svc"),
			}}
		}))},
		{name: "alerting_basic_auth", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
		}))},
		{name: "alerting_authorization", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.Authorization = &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))}
		}))},
		{name: "alerting_bearer_token_file", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.BearerTokenFile = "/var/run/secrets/kubernetes.io/serviceaccount/token"
		}))},
		{name: "alerting_prefix_scheme_timeout_http2", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.PathPrefix = ptr("/alertmanager")
			a.Scheme = ptr(monitoringv1.SchemeHTTPS)
			a.Timeout = ptr(monitoringv1.Duration("30s"))
			a.EnableHttp2 = ptr(false)
		}))},
		{name: "alerting_api_v1_v2_45", prom: prom(v("v2.45.0"), am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.APIVersion = ptr(monitoringv1.AlertmanagerAPIVersion1)
		}))},
		{name: "alerting_additional_api_v1_v2_54", prom: prom(v("v2.54.0"), func(p *P) {
			p.Spec.AdditionalAlertManagerConfigs = ptr(secretKey("additional", "alertmanagers-v1.yaml"))
		})},
		{name: "alerting_api_v1_v3_warned", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.APIVersion = ptr(monitoringv1.AlertmanagerAPIVersion1)
		}))},
		{name: "alerting_relabelings", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.RelabelConfigs = []monitoringv1.RelabelConfig{rl("keep", []string{"__meta_kubernetes_pod_label_zone"}, "eu-.*", "", "")}
			a.AlertRelabelConfigs = []monitoringv1.RelabelConfig{rl("labeldrop", nil, "internal_.*", "", "")}
		}))},
		{name: "alerting_sigv4", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.Sigv4 = &monitoringv1.Sigv4{Region: "eu-west-1", AccessKey: ptr(secretKey("auth", "access")), SecretKey: ptr(secretKey("auth", "secret"))}
		}))},
		{name: "alerting_proxy", prom: prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.ProxyURL = ptr("http://proxy.example.com:3128")
			a.NoProxy = ptr("10.0.0.0/8")
		}))},
		{name: "alerting_two_alertmanagers", prom: prom(am(), am(func(a *monitoringv1.AlertmanagerEndpoints) { a.Name = "alertmanager-backup" }))},
		{name: "alerting_endpointslice", prom: prom(am(), func(p *P) { p.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) })},
		{name: "alerting_additional_relabel_and_alertmanagers", prom: prom(am(), func(p *P) {
			p.Spec.AdditionalAlertRelabelConfigs = ptr(secretKey("additional", "alert-relabel.yaml"))
			p.Spec.AdditionalAlertManagerConfigs = ptr(secretKey("additional", "alertmanagers.yaml"))
		})},

		// --- Remote write and read ---
		{name: "remote_write_minimal", prom: prom(rw())},
		// PrometheusAgent: the same jobs, without rule_files, evaluation_interval or retention.
		{name: "agent_servicemonitor_podmonitor", prom: agentProm(rw(), func(p *P) { p.Spec.ExternalLabels = map[string]string{"cluster": "edge-1"} }),
			sms: []*SM{sm("app")}, pms: []*PM{pm("app")}},
		{name: "agent_tsdb_sharded", prom: agentProm(rw(), func(p *P) {
			p.Spec.Shards = ptr[int32](2)
			p.Spec.TSDB = &monitoringv1.TSDBSpec{OutOfOrderTimeWindow: ptr(monitoringv1.Duration("10m"))}
			p.Spec.ScrapeInterval = "15s"
		}), sms: []*SM{sm("app")}},
		// DaemonSet mode: every pod discovery limited to the agent's node, no sharding; a
		// PodMonitor with role selectors gets the field selector in the same entry.
		{name: "agent_daemonset_podmonitors", prom: agentProm(rw(), daemonSetMode, func(p *P) {
			p.Spec.ServiceMonitorSelector, p.Spec.ServiceMonitorNamespaceSelector = nil, nil
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml"))
		}), pms: []*PM{pm("app"), pm("roles", func(m *PM) { m.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole) })}},
		{name: "remote_write_name_timeout_headers", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.Name = ptr("thanos")
			r.RemoteTimeout = ptr(monitoringv1.Duration("45s"))
			r.Headers = map[string]string{"X-Scope-OrgID": "tenant-a", "X-Custom": "1"}
		}))},
		{name: "remote_write_relabel", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.WriteRelabelConfigs = []monitoringv1.RelabelConfig{rl("keep", []string{"__name__"}, "up|node_.*", "", "")}
		}))},
		{name: "remote_write_basic_auth", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
		}))},
		{name: "remote_write_oauth2", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.OAuth2 = &monitoringv1.OAuth2{
				ClientID: *secretRef("auth", "client-id"), ClientSecret: secretKey("auth", "client-secret"),
				TokenURL: "https://auth.example.com/token", Scopes: []string{"write"}, EndpointParams: map[string]string{"audience": "metrics"},
			}
		}))},
		{name: "remote_write_authorization_credentials_file", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.Authorization = &monitoringv1.Authorization{SafeAuthorization: monitoringv1.SafeAuthorization{Type: "Bearer"}, CredentialsFile: "/etc/prometheus/secrets/rw/token"}
		}))},
		{name: "remote_write_bearer_token_inline", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) { r.BearerToken = "inline-token" }))},
		{name: "remote_write_tls", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt"), InsecureSkipVerify: ptr(false), MinVersion: ptr(monitoringv1.TLSVersion12)}}
		}))},
		{name: "remote_write_queue_metadata", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.QueueConfig = &monitoringv1.QueueConfig{Capacity: 10000, MinShards: 1, MaxShards: 50, MaxSamplesPerSend: 2000,
				BatchSendDeadline: ptr(monitoringv1.Duration("5s")), MinBackoff: ptr(monitoringv1.Duration("30ms")), MaxBackoff: ptr(monitoringv1.Duration("5s")),
				RetryOnRateLimit: true, SampleAgeLimit: ptr(monitoringv1.Duration("10m"))}
			r.MetadataConfig = &monitoringv1.MetadataConfig{Send: true, SendInterval: "1m", MaxSamplesPerSend: ptr(int32(500))}
		}))},
		{name: "remote_write_message_v2", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.MessageVersion = ptr(monitoringv1.RemoteWriteMessageVersion2_0)
		}))},
		{name: "remote_write_message_v2_v2_54", prom: prom(v("v2.54.0"), rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.MessageVersion = ptr(monitoringv1.RemoteWriteMessageVersion2_0)
		}))},
		{name: "remote_write_message_v2_on_v2_45_left_out", prom: prom(v("v2.45.0"), rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.MessageVersion = ptr(monitoringv1.RemoteWriteMessageVersion2_0)
		}))},
		{name: "remote_write_sigv4", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.Sigv4 = &monitoringv1.Sigv4{Region: "us-east-1", Profile: "metrics", RoleArn: "arn:aws:iam::123456789012:role/prom"}
		}))},
		{name: "remote_write_azuread", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.AzureAD = &monitoringv1.AzureAD{Cloud: ptr("AzurePublic"), ManagedIdentity: &monitoringv1.ManagedIdentity{ClientID: ptr("00000000-0000-0000-0000-000000000000")}}
		}))},
		{name: "remote_write_round_robin_exemplars_histograms", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.RoundRobinDNS = ptr(true)
			r.SendExemplars = ptr(true)
			r.SendNativeHistograms = ptr(true)
			r.FollowRedirects = ptr(true)
			r.EnableHttp2 = ptr(false)
		}))},
		{name: "remote_write_two", prom: prom(rw(func(r *monitoringv1.RemoteWriteSpec) { r.Name = ptr("a") }), rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.Name = ptr("b")
			r.URL = "https://b.example.com/write"
		}))},
		{name: "remote_read_minimal", prom: prom(rr())},
		{name: "remote_read_full", prom: prom(rr(func(r *monitoringv1.RemoteReadSpec) {
			r.Name = "longterm"
			r.RequiredMatchers = map[string]string{"job": "node"}
			r.ReadRecent = true
			r.FilterExternalLabels = ptr(false)
			r.RemoteTimeout = ptr(monitoringv1.Duration("1m"))
			r.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
			r.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")}}
		}))},

		// --- ServiceMonitor ---
		{name: "sm_minimal", prom: prom(), sms: []*SM{sm("app")}},
		{name: "sm_target_port_int", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.Port = ""; e.TargetPort = intOrStr("8080") }))}},
		{name: "sm_target_port_string", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.Port = ""; e.TargetPort = intOrStr("http-metrics") }))}},
		{name: "sm_no_port", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.Port = "" }))}},
		{name: "sm_path_scheme_params", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.Path = "/federate"
			e.Scheme = ptr(monitoringv1.SchemeHTTPS)
			e.Params = map[string][]string{"match[]": {`{job="node"}`, `{__name__=~"up"}`}, "format": {"prometheus"}}
		}))}},
		{name: "sm_interval_timeout", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.Interval = "15s"; e.ScrapeTimeout = "5s" }))}},
		{name: "sm_honor_labels", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.HonorLabels = true }))}},
		{name: "sm_honor_labels_overridden", prom: prom(func(p *P) { p.Spec.OverrideHonorLabels = true }), sms: []*SM{sm("app", ep(func(e *EP) { e.HonorLabels = true }))}},
		{name: "sm_honor_timestamps_false", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.HonorTimestamps = ptr(false) }))}},
		{name: "sm_honor_timestamps_overridden", prom: prom(func(p *P) { p.Spec.OverrideHonorTimestamps = true }), sms: []*SM{sm("app", ep(func(e *EP) { e.HonorTimestamps = ptr(true) }))}},
		{name: "sm_track_timestamps_staleness", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.TrackTimestampsStaleness = ptr(true) }))}},
		{name: "sm_track_timestamps_staleness_v2_45_left_out", prom: prom(v("v2.45.0")), sms: []*SM{sm("app", ep(func(e *EP) { e.TrackTimestampsStaleness = ptr(true) }))}},
		{name: "sm_relabelings", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{
				rl("replace", []string{"__meta_kubernetes_pod_node_name"}, "", "node", ""),
				rl("Keep", []string{"__meta_kubernetes_pod_label_tier"}, "backend|api", "", ""),
				rl("labelmap", nil, "__meta_kubernetes_pod_label_(.+)", "", "k8s_$1"),
				{SourceLabels: []monitoringv1.LabelName{"__address__"}, Separator: ptr("/"), TargetLabel: "__tmp_hash", Modulus: 4, Action: "hashmod"},
				rl("lowercase", []string{"namespace"}, "", "namespace_lower", ""),
			}
		}))}},
		{name: "sm_metric_relabelings", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.MetricRelabelConfigs = []monitoringv1.RelabelConfig{
				rl("drop", []string{"__name__"}, "go_gc_.*", "", ""),
				rl("labeldrop", nil, "pod_template_hash", "", ""),
			}
		}))}},
		{name: "sm_target_labels", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.TargetLabels = []string{"team", "app.kubernetes.io/part-of"} })}},
		// Under UTF-8 names (v3's default) a copied label may start with a digit.
		{name: "sm_target_labels_utf8_digit", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.TargetLabels = []string{"1abc"} })}},
		{name: "sm_pod_target_labels", prom: prom(func(p *P) { p.Spec.PodTargetLabels = []string{"zone", "version"} }),
			sms: []*SM{sm("app", func(s *SM) { s.Spec.PodTargetLabels = []string{"version", "app.kubernetes.io/version"} })}},
		{name: "sm_job_label", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.JobLabel = "app.kubernetes.io/name" })}},
		{name: "sm_namespace_any", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.NamespaceSelector.Any = true })}},
		{name: "sm_namespace_match_names", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.NamespaceSelector.MatchNames = []string{"prod", "staging", "prod"} })}},
		{name: "sm_ignore_namespace_selectors", prom: prom(func(p *P) { p.Spec.IgnoreNamespaceSelectors = true }),
			sms: []*SM{sm("app", func(s *SM) { s.Spec.NamespaceSelector.Any = true })}},
		{name: "sm_match_expressions", prom: prom(), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.Selector = metav1.LabelSelector{
				MatchLabels: map[string]string{"app.kubernetes.io/name": "api"},
				MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"backend", "api.v2"}},
					{Key: "env", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"dev"}},
					{Key: "monitored", Operator: metav1.LabelSelectorOpExists},
					{Key: "legacy", Operator: metav1.LabelSelectorOpDoesNotExist},
				},
			}
		})}},
		{name: "sm_empty_selector", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.Selector = metav1.LabelSelector{} })}},
		{name: "sm_role_selector", prom: prom(), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole)
			s.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}}}
		})}},
		{name: "sm_endpointslice_prometheus_level", prom: prom(func(p *P) { p.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) }), sms: []*SM{sm("app")}},
		{name: "sm_endpointslice_monitor_level", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) })}},
		{name: "sm_endpointslice_role_selector", prom: prom(func(p *P) { p.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) }),
			sms: []*SM{sm("app", func(s *SM) { s.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole) })}},
		{name: "sm_attach_metadata_node", prom: prom(), sms: []*SM{sm("app", func(s *SM) { s.Spec.AttachMetadata = &monitoringv1.AttachMetadata{Node: ptr(true)} })}},
		{name: "sm_basic_auth", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
		}))}},
		{name: "sm_bearer_token_secret", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.BearerTokenSecret = ptr(secretKey("auth", "token")) }))}},
		{name: "sm_authorization", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.Authorization = &monitoringv1.SafeAuthorization{Type: "Token", Credentials: ptr(secretKey("auth", "token"))}
		}))}},
		{name: "sm_oauth2_client_id_configmap", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.OAuth2 = &monitoringv1.OAuth2{
				ClientID:     monitoringv1.SecretOrConfigMap{ConfigMap: ptr(cmKey("ca", "client-id"))},
				ClientSecret: secretKey("auth", "client-secret"), TokenURL: "https://auth.example.com/oauth/token",
				TLSConfig: &monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{ConfigMap: ptr(cmKey("ca", "ca.crt"))}},
			}
		}))}},
		{name: "sm_tls_secrets", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.Scheme = ptr(monitoringv1.SchemeHTTPS)
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{
				CA: *secretRef("tls", "ca.crt"), Cert: *secretRef("tls", "tls.crt"), KeySecret: ptr(secretKey("tls", "tls.key")),
			}}
		}))}},
		{name: "sm_tls_configmap_ca_options", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.Scheme = ptr(monitoringv1.SchemeHTTPS)
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{
				CA: monitoringv1.SecretOrConfigMap{ConfigMap: ptr(cmKey("ca", "ca.crt"))}, ServerName: ptr("app.default.svc"),
				InsecureSkipVerify: ptr(true), MinVersion: ptr(monitoringv1.TLSVersion12), MaxVersion: ptr(monitoringv1.TLSVersion13),
			}}
		}))}},
		{name: "sm_tls_files", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.TLSConfig = &monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/prometheus/secrets/app-tls/ca.crt", CertFile: "/etc/prometheus/secrets/app-tls/tls.crt", KeyFile: "/etc/prometheus/secrets/app-tls/tls.key"}}
		}))}},
		{name: "sm_bearer_token_file", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.BearerTokenFile = "/var/run/secrets/kubernetes.io/serviceaccount/token" }))}},
		{name: "sm_proxy", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) {
			e.ProxyURL = ptr("http://proxy.example.com:8080")
			e.NoProxy = ptr("localhost,10.0.0.0/8")
			e.ProxyConnectHeader = map[string][]corev1.SecretKeySelector{"Proxy-Authorization": {secretKey("auth", "header")}}
		}))}},
		{name: "sm_proxy_from_environment", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.ProxyFromEnvironment = ptr(true) }))}},
		{name: "sm_follow_redirects_http2", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.FollowRedirects = ptr(false); e.EnableHTTP2 = ptr(false) }))}},
		{name: "sm_limits", prom: prom(), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.SampleLimit = ptr(int64(5000))
			s.Spec.TargetLimit = ptr(int64(10))
			s.Spec.LabelLimit = ptr(int64(30))
			s.Spec.LabelNameLengthLimit = ptr(int64(100))
			s.Spec.LabelValueLengthLimit = ptr(int64(500))
			s.Spec.KeepDroppedTargets = ptr(int64(5))
			s.Spec.BodySizeLimit = ptr(monitoringv1.ByteSize("5MB"))
		})}},
		{name: "sm_enforced_limits_monitor_lower", prom: prom(func(p *P) {
			p.Spec.EnforcedSampleLimit = ptr(int64(10000))
			p.Spec.EnforcedTargetLimit = ptr(int64(100))
			p.Spec.EnforcedBodySizeLimit = "50MB"
		}), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.SampleLimit = ptr(int64(500))
			s.Spec.TargetLimit = ptr(int64(5))
			s.Spec.BodySizeLimit = ptr(monitoringv1.ByteSize("1MB"))
		})}},
		{name: "sm_enforced_limits_monitor_higher", prom: prom(func(p *P) {
			p.Spec.EnforcedSampleLimit = ptr(int64(1000))
			p.Spec.EnforcedLabelLimit = ptr(int64(20))
			p.Spec.EnforcedLabelNameLengthLimit = ptr(int64(50))
			p.Spec.EnforcedLabelValueLengthLimit = ptr(int64(200))
			p.Spec.EnforcedKeepDroppedTargets = ptr(int64(3))
			p.Spec.EnforcedBodySizeLimit = "1MB"
		}), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.SampleLimit = ptr(int64(50000))
			s.Spec.LabelLimit = ptr(int64(100))
			s.Spec.LabelNameLengthLimit = ptr(int64(500))
			s.Spec.LabelValueLengthLimit = ptr(int64(5000))
			s.Spec.KeepDroppedTargets = ptr(int64(100))
			s.Spec.BodySizeLimit = ptr(monitoringv1.ByteSize("100MB"))
		})}},
		{name: "sm_enforced_limits_monitor_unset", prom: prom(func(p *P) {
			p.Spec.EnforcedSampleLimit = ptr(int64(1000))
			p.Spec.EnforcedTargetLimit = ptr(int64(50))
		}), sms: []*SM{sm("app")}},
		{name: "sm_keep_dropped_targets_v2_45_left_out", prom: prom(v("v2.45.0")), sms: []*SM{sm("app", func(s *SM) { s.Spec.KeepDroppedTargets = ptr(int64(5)) })}},
		{name: "sm_scrape_protocols_fallback", prom: prom(), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.OpenMetricsText1_0_0, monitoringv1.PrometheusText1_0_0}
			s.Spec.FallbackScrapeProtocol = ptr(monitoringv1.PrometheusText0_0_4)
		})}},
		{name: "sm_fallback_protocol_v2_55_left_out", prom: prom(v("v2.55.1")), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.FallbackScrapeProtocol = ptr(monitoringv1.PrometheusText0_0_4)
		})}},
		{name: "sm_native_histograms_v3_16", prom: prom(), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.NativeHistogramConfig = monitoringv1.NativeHistogramConfig{
				ScrapeNativeHistograms: ptr(true), ScrapeClassicHistograms: ptr(true), NativeHistogramBucketLimit: ptr(int64(160)),
				NativeHistogramMinBucketFactor: qty("1.1"), ConvertClassicHistogramsToNHCB: ptr(true),
			}
			s.Spec.ExtraScrapeMetrics = ptr(true)
		})}},
		{name: "sm_native_histograms_v2_45", prom: prom(v("v2.45.0")), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.NativeHistogramConfig = monitoringv1.NativeHistogramConfig{
				ScrapeClassicHistograms: ptr(true), NativeHistogramBucketLimit: ptr(int64(160)),
				NativeHistogramMinBucketFactor: qty("1.1"), ConvertClassicHistogramsToNHCB: ptr(true),
			}
		})}},
		{name: "sm_scrape_class_default", prom: prom(scrapeClasses), sms: []*SM{sm("app", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "team", "payments")}
		}))}},
		{name: "sm_scrape_class_endpoint_tls_wins", prom: prom(scrapeClasses), sms: []*SM{sm("app", ep(func(e *EP) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")}}
		}))}},
		{name: "sm_scrape_class_explicit_authorization", prom: prom(scrapeClasses), sms: []*SM{sm("app", func(s *SM) { s.Spec.ScrapeClassName = ptr("authorized") })}},
		{name: "sm_scrape_class_fallback_protocol", prom: prom(scrapeClasses), sms: []*SM{sm("app", func(s *SM) { s.Spec.ScrapeClassName = ptr("legacy-text") })}},
		{name: "sm_scrape_class_attach_metadata_overridden", prom: prom(scrapeClasses), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.AttachMetadata = &monitoringv1.AttachMetadata{Node: ptr(false)}
		})}},
		{name: "sm_enforced_namespace_label", prom: prom(func(p *P) { p.Spec.EnforcedNamespaceLabel = "tenant" }), sms: []*SM{sm("app", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "tenant", "someone-else")}
			e.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("drop", []string{"__name__"}, "debug_.*", "", "")}
		}))}},
		{name: "sm_enforced_namespace_label_excluded", prom: prom(func(p *P) {
			p.Spec.EnforcedNamespaceLabel = "tenant"
			p.Spec.ExcludedFromEnforcement = []monitoringv1.ObjectReference{{Resource: "servicemonitors", Namespace: "default", Name: "app"}}
		}), sms: []*SM{sm("app"), sm("other")}},
		{name: "sm_shards_3", prom: prom(func(p *P) { p.Spec.Shards = ptr(int32(3)) }), sms: []*SM{sm("app")}},
		{name: "sm_shards_1_no_sharding_rules", prom: prom(func(p *P) { p.Spec.Shards = ptr(int32(1)) }), sms: []*SM{sm("app")}},
		{name: "sm_filter_running_false", prom: prom(), sms: []*SM{sm("app", ep(func(e *EP) { e.FilterRunning = ptr(false) }))}},
		{name: "sm_multiple_endpoints", prom: prom(), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.Endpoints = []EP{{Port: "web"}, {Port: "metrics", Interval: "10s", Path: "/internal/metrics"}, {TargetPort: intOrStr("9102")}}
		})}},
		{name: "sm_several_sorted_across_namespaces", prom: prom(), sms: []*SM{
			sm("b", func(s *SM) { s.Namespace = "alpha" }), sm("a", func(s *SM) { s.Namespace = "beta" }), sm("a", func(s *SM) { s.Namespace = "alpha" }),
		}},
		{name: "sm_special_characters_quoted", prom: prom(func(p *P) { p.Spec.ExternalLabels = map[string]string{"note": "yes", "num": "123", "colon": "a: b"} }),
			sms: []*SM{sm("app", func(s *SM) {
				s.Spec.Selector.MatchLabels = map[string]string{"app": "on", "version": "1.0"}
				s.Spec.Endpoints[0].Port = "true"
			})}},

		// --- PodMonitor ---
		{name: "pm_minimal", prom: prom(), pms: []*PM{pm("app")}},
		{name: "pm_port_number", prom: prom(), pms: []*PM{pm("app", pep(func(e *PEP) { e.Port = nil; e.PortNumber = ptr(int32(9100)) }))}},
		{name: "pm_target_port_int", prom: prom(), pms: []*PM{pm("app", pep(func(e *PEP) { e.Port = nil; e.TargetPort = intOrStr("9100") }))}},
		{name: "pm_job_label_pod_target_labels", prom: prom(), pms: []*PM{pm("app", func(p *PM) {
			p.Spec.JobLabel = "app.kubernetes.io/name"
			p.Spec.PodTargetLabels = []string{"team"}
		})}},
		{name: "pm_namespace_any", prom: prom(), pms: []*PM{pm("app", func(p *PM) { p.Spec.NamespaceSelector.Any = true })}},
		{name: "pm_basic_auth_tls", prom: prom(), pms: []*PM{pm("app", pep(func(e *PEP) {
			e.Scheme = ptr(monitoringv1.SchemeHTTPS)
			e.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
			e.TLSConfig = &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt"), ServerName: ptr("app")}
		}))}},
		{name: "pm_enforced_namespace_label", prom: prom(func(p *P) { p.Spec.EnforcedNamespaceLabel = "namespace" }), pms: []*PM{pm("app")}},
		{name: "pm_role_selector", prom: prom(), pms: []*PM{pm("app", func(p *PM) { p.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole) })}},
		{name: "pm_shards_2", prom: prom(func(p *P) { p.Spec.Shards = ptr(int32(2)) }), pms: []*PM{pm("app")}},
		{name: "pm_scrape_class", prom: prom(scrapeClasses), pms: []*PM{pm("app")}},
		{name: "pm_relabel_interval_limits", prom: prom(), pms: []*PM{pm("app", func(p *PM) {
			p.Spec.SampleLimit = ptr(int64(100))
			p.Spec.PodMetricsEndpoints[0].Interval = "5s"
			p.Spec.PodMetricsEndpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"__meta_kubernetes_pod_node_name"}, "", "node", "")}
			p.Spec.PodMetricsEndpoints[0].MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("keep", []string{"__name__"}, "app_.*", "", "")}
		})}},
		{name: "pm_filter_running_false_attach_node", prom: prom(), pms: []*PM{pm("app", func(p *PM) {
			p.Spec.PodMetricsEndpoints[0].FilterRunning = ptr(false)
			p.Spec.AttachMetadata = &monitoringv1.AttachMetadata{Node: ptr(true)}
		})}},

		// --- Probe ---
		{name: "probe_static", prom: prom(), probes: []*monitoringv1.Probe{probe("web", func(p *monitoringv1.Probe) {
			p.Spec.Interval = "60s"
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"env": "prod"}
		})}},
		// UTF-8 static label names: Prometheus 3, and 2.55 with the utf8-names feature.
		{name: "probe_static_utf8_label", prom: prom(), probes: []*monitoringv1.Probe{probe("web", func(p *monitoringv1.Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"team.name": "web"}
		})}},
		{name: "probe_static_utf8_label_v2_55_utf8_names", prom: prom(v("v2.55.0"), func(p *P) {
			p.Spec.EnableFeatures = []monitoringv1.EnableFeature{"utf8-names"}
		}), probes: []*monitoringv1.Probe{probe("web", func(p *monitoringv1.Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"team.name": "web"}
			p.Spec.Targets.StaticConfig.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "owner.team", "web")}
		})}},
		{name: "probe_static_relabel_jobname_params", prom: prom(), probes: []*monitoringv1.Probe{probe("web", func(p *monitoringv1.Probe) {
			p.Spec.JobName = "blackbox"
			p.Spec.Params = []monitoringv1.ProbeParam{{Name: "debug", Values: []string{"true"}}}
			p.Spec.ProberSpec.Path = "/probe/http"
			p.Spec.ProberSpec.Scheme = ptr(monitoringv1.SchemeHTTPS)
			p.Spec.Targets.StaticConfig.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"__param_target"}, "https?://([^/]+).*", "host", "$1")}
			p.Spec.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("drop", []string{"__name__"}, "probe_dns_.*", "", "")}
		})}},
		{name: "probe_ingress", prom: prom(), probes: []*monitoringv1.Probe{probe("ing", func(p *monitoringv1.Probe) {
			p.Spec.Targets.StaticConfig = nil
			p.Spec.Targets.Ingress = &monitoringv1.ProbeTargetIngress{
				Selector:          metav1.LabelSelector{MatchLabels: map[string]string{"probe": "yes"}},
				NamespaceSelector: monitoringv1.NamespaceSelector{Any: true},
			}
		})}},
		{name: "probe_auth_tls_sharded_enforced", prom: prom(func(p *P) {
			p.Spec.Shards = ptr(int32(2))
			p.Spec.EnforcedNamespaceLabel = "namespace"
		}), probes: []*monitoringv1.Probe{probe("web", func(p *monitoringv1.Probe) {
			p.Spec.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
			p.Spec.TLSConfig = &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")}
		})}},

		// --- ScrapeConfig ---
		{name: "scrapeconfig_static", prom: prom(), scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("nodes", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"10.0.0.1:9100", "10.0.0.2:9100"}, Labels: map[string]string{"rack": "a"}}}
			s.Spec.ScrapeInterval = ptr(monitoringv1.Duration("15s"))
			s.Spec.MetricsPath = ptr("/metrics")
			s.Spec.HonorLabels = ptr(true)
			s.Spec.JobName = ptr("node")
		})}},
		{name: "scrapeconfig_name_schemes", prom: prom(func(p *P) { p.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme) }),
			scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("otel", func(s *monitoringv1alpha1.ScrapeConfig) {
				// The job's own UTF-8 scheme allows the dotted label the Prometheus's would not.
				s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"otel-collector:8889"}}}
				s.Spec.NameValidationScheme = ptr(monitoringv1.UTF8NameValidationScheme)
				s.Spec.NameEscapingScheme = ptr(monitoringv1.DotsNameEscapingScheme)
				s.Spec.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "service.name", "collector")}
			})}},
		{name: "scrapeconfig_name_schemes_v3_3_left_out", prom: prom(v("v3.3.0")),
			scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("otel", func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"otel-collector:8889"}}}
				s.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme)
				s.Spec.NameEscapingScheme = ptr(monitoringv1.UnderscoresNameEscapingScheme)
			})}},
		// --- ScrapeConfig service discoveries outside Kubernetes, each with its Secrets ---
		{name: "scrapeconfig_sd_consul", prom: prom(), scs: sdCase("consul", func(s *SCS) {
			s.ConsulSDConfigs = []monitoringv1alpha1.ConsulSDConfig{{
				Server: "consul.service.consul:8500", PathPrefix: ptr("/consul"), TokenRef: ptr(secretKey("auth", "token")),
				Datacenter: ptr("dc1"), Namespace: ptr("apps"), Partition: ptr("default"), Scheme: ptr(monitoringv1.SchemeHTTPS),
				Services: []string{"web", "api"}, Tags: []string{"prod"}, TagSeparator: ptr(";"), NodeMeta: map[string]string{"rack": "r1", "os": "linux"},
				Filter: ptr(`Service.Tags contains "metrics"`), HealthFilter: ptr(`Checks.Status == "passing"`), AllowStale: ptr(false),
				RefreshInterval: ptr(monitoringv1.Duration("1m")),
				BasicAuth:       &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")},
				TLSConfig:       &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")},
				FollowRedirects: ptr(true), EnableHttp2: ptr(false),
			}}
		})},
		{name: "scrapeconfig_sd_ec2", prom: prom(), scs: sdCase("ec2", func(s *SCS) {
			s.EC2SDConfigs = []monitoringv1alpha1.EC2SDConfig{{
				Region: ptr("eu-west-1"), AccessKey: ptr(secretKey("auth", "access")), SecretKey: ptr(secretKey("auth", "secret")),
				RoleARN: ptr("arn:aws:iam::123456789012:role/prometheus"), Port: ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("5m")),
				Filters:   monitoringv1alpha1.Filters{{Name: "tag:team", Values: []string{"infra"}}, {Name: "instance-state-name", Values: []string{"running"}}},
				TLSConfig: &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")}, FollowRedirects: ptr(false),
				ProxyConfig: monitoringv1.ProxyConfig{ProxyURL: ptr("http://proxy.example.com:3128")},
			}}
		})},
		{name: "scrapeconfig_sd_azure", prom: prom(), scs: sdCase("azure", func(s *SCS) {
			s.AzureSDConfigs = []monitoringv1alpha1.AzureSDConfig{
				{
					Environment: ptr("AzurePublicCloud"), AuthenticationMethod: ptr(monitoringv1alpha1.AuthMethodTypeOAuth),
					SubscriptionID: "11111111-2222-3333-4444-555555555555", TenantID: ptr("tenant"), ClientID: ptr("client"),
					ClientSecret: ptr(secretKey("auth", "client-secret")), ResourceGroup: ptr("monitoring"), Port: ptr(int32(9100)),
					RefreshInterval: ptr(monitoringv1.Duration("5m")), TLSConfig: &monitoringv1.SafeTLSConfig{InsecureSkipVerify: ptr(false)},
				},
				{AuthenticationMethod: ptr(monitoringv1alpha1.AuthMethodTypeWorkloadIdentity), SubscriptionID: "11111111-2222-3333-4444-555555555555"},
			}
		})},
		{name: "scrapeconfig_sd_gce", prom: prom(), scs: sdCase("gce", func(s *SCS) {
			s.GCESDConfigs = []monitoringv1alpha1.GCESDConfig{{Project: "my-project", Zone: "europe-west1-b", Filter: ptr(`labels.monitored = "true"`),
				Port: ptr(int32(9100)), TagSeparator: ptr(","), RefreshInterval: ptr(monitoringv1.Duration("2m"))}}
		})},
		{name: "scrapeconfig_sd_openstack", prom: prom(), scs: sdCase("openstack", func(s *SCS) {
			s.OpenStackSDConfigs = []monitoringv1alpha1.OpenStackSDConfig{
				{
					Role: monitoringv1alpha1.OpenStackRoleInstance, Region: "RegionOne", IdentityEndpoint: ptr(monitoringv1alpha1.URL("https://keystone.example.com:5000/v3")),
					Username: ptr("prometheus"), Password: ptr(secretKey("auth", "password")), DomainName: ptr("Default"), ProjectName: ptr("monitoring"),
					AllTenants: ptr(true), Availability: ptr(monitoringv1alpha1.OpenStackAvailabilityInternal), Port: ptr(int32(9100)),
					RefreshInterval: ptr(monitoringv1.Duration("1m")), TLSConfig: &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")},
				},
				{
					Role: monitoringv1alpha1.OpenStackRoleLoadBalancer, Region: "RegionOne", IdentityEndpoint: ptr(monitoringv1alpha1.URL("https://keystone.example.com:5000/v3")),
					ApplicationCredentialID: ptr("app-cred"), ApplicationCredentialSecret: ptr(secretKey("auth", "secret")),
				},
			}
		})},
		{name: "scrapeconfig_sd_digitalocean", prom: prom(), scs: sdCase("digitalocean", func(s *SCS) {
			s.DigitalOceanSDConfigs = []monitoringv1alpha1.DigitalOceanSDConfig{{
				Authorization: &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))},
				Port:          ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("1m")), EnableHTTP2: ptr(true),
			}}
		})},
		{name: "scrapeconfig_sd_kuma", prom: prom(), scs: sdCase("kuma", func(s *SCS) {
			s.KumaSDConfigs = []monitoringv1alpha1.KumaSDConfig{{
				Server: "http://kuma-control-plane.kuma-system.svc:5676", ClientID: ptr("prometheus"), FetchTimeout: ptr(monitoringv1.Duration("2m")),
				RefreshInterval: ptr(monitoringv1.Duration("30s")),
				OAuth2:          &monitoringv1.OAuth2{ClientID: *secretRef("auth", "client-id"), ClientSecret: secretKey("auth", "client-secret"), TokenURL: "https://sso.example.com/token"},
			}}
		})},
		{name: "scrapeconfig_sd_eureka", prom: prom(), scs: sdCase("eureka", func(s *SCS) {
			s.EurekaSDConfigs = []monitoringv1alpha1.EurekaSDConfig{{
				Server: "http://eureka.example.com:8761/eureka", RefreshInterval: ptr(monitoringv1.Duration("30s")),
				BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")},
			}}
		})},
		{name: "scrapeconfig_sd_docker", prom: prom(), scs: sdCase("docker", func(s *SCS) {
			s.DockerSDConfigs = []monitoringv1alpha1.DockerSDConfig{{
				Host: "tcp://docker.example.com:2376", Port: ptr(int32(9100)), HostNetworkingHost: ptr("docker.example.com"), MatchFirstNetwork: ptr(true),
				Filters:   monitoringv1alpha1.Filters{{Name: "label", Values: []string{"monitoring=true"}}},
				TLSConfig: &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt"), Cert: *secretRef("tls", "tls.crt"), KeySecret: ptr(secretKey("tls", "tls.key"))},
				BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")},
			}}
		})},
		{name: "scrapeconfig_sd_dockerswarm", prom: prom(), scs: sdCase("swarm", func(s *SCS) {
			s.DockerSwarmSDConfigs = []monitoringv1alpha1.DockerSwarmSDConfig{{
				Host: "https://swarm.example.com:2376", Role: monitoringv1alpha1.DockerSwarmRoleTasks, Port: ptr(int32(9100)),
				Filters:       monitoringv1alpha1.Filters{{Name: "desired-state", Values: []string{"running"}}},
				Authorization: &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))}, RefreshInterval: ptr(monitoringv1.Duration("30s")),
			}}
		})},
		{name: "scrapeconfig_sd_linode", prom: prom(), scs: sdCase("linode", func(s *SCS) {
			s.LinodeSDConfigs = []monitoringv1alpha1.LinodeSDConfig{{
				Authorization: &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))},
				Region:        ptr("eu-central"), TagSeparator: ptr(","), Port: ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("1m")),
			}}
		})},
		{name: "scrapeconfig_sd_hetzner", prom: prom(), scs: sdCase("hetzner", func(s *SCS) {
			s.HetznerSDConfigs = []monitoringv1alpha1.HetznerSDConfig{
				{Role: monitoringv1alpha1.HetznerRoleHcloud, Authorization: &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))},
					LabelSelector: ptr("env=prod"), Port: ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("1m"))},
				{Role: monitoringv1alpha1.HetznerRoleRobot, BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}},
			}
		})},
		{name: "scrapeconfig_sd_nomad", prom: prom(), scs: sdCase("nomad", func(s *SCS) {
			s.NomadSDConfigs = []monitoringv1alpha1.NomadSDConfig{{
				Server: "https://nomad.example.com:4646", AllowStale: ptr(true), Namespace: ptr("default"), Region: ptr("global"), TagSeparator: ptr(","),
				RefreshInterval: ptr(monitoringv1.Duration("30s")), Authorization: &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))},
				TLSConfig: &monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")},
			}}
		})},
		{name: "scrapeconfig_sd_puppetdb", prom: prom(), scs: sdCase("puppetdb", func(s *SCS) {
			s.PuppetDBSDConfigs = []monitoringv1alpha1.PuppetDBSDConfig{{
				URL: "https://puppetdb.example.com", Query: `resources { type = "Class" and title = "Prometheus::Node_exporter" }`,
				IncludeParameters: ptr(true), Port: ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("1m")),
				BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")},
			}}
		})},
		{name: "scrapeconfig_sd_lightsail", prom: prom(), scs: sdCase("lightsail", func(s *SCS) {
			s.LightSailSDConfigs = []monitoringv1alpha1.LightSailSDConfig{{
				Region: ptr("eu-west-1"), Endpoint: ptr("https://lightsail.eu-west-1.amazonaws.com"),
				AccessKey: ptr(secretKey("auth", "access")), SecretKey: ptr(secretKey("auth", "secret")),
				RoleARN: ptr("arn:aws:iam::123456789012:role/prometheus"), Port: ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("5m")),
			}}
		})},
		{name: "scrapeconfig_sd_ovhcloud", prom: prom(), scs: sdCase("ovh", func(s *SCS) {
			s.OVHCloudSDConfigs = []monitoringv1alpha1.OVHCloudSDConfig{{
				ApplicationKey: "app-key", ApplicationSecret: secretKey("auth", "secret"), ConsumerKey: secretKey("auth", "token"),
				Service: monitoringv1alpha1.OVHServiceDedicatedServer, Endpoint: ptr("ovh-eu"), RefreshInterval: ptr(monitoringv1.Duration("1m")),
			}}
		})},
		{name: "scrapeconfig_sd_scaleway", prom: prom(), scs: sdCase("scaleway", func(s *SCS) {
			s.ScalewaySDConfigs = []monitoringv1alpha1.ScalewaySDConfig{{
				AccessKey: "SCWXXXXXXXXXXXXXXXXX", SecretKey: secretKey("auth", "scaleway-secret"), ProjectID: "11111111-2222-3333-4444-555555555555",
				Role: monitoringv1alpha1.ScalewayRoleInstance, Zone: ptr("fr-par-1"), NameFilter: ptr("web"), TagsFilter: []string{"prod"},
				ApiURL: ptr(monitoringv1alpha1.URL("https://api.scaleway.com")), Port: ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("1m")),
			}}
		})},
		{name: "scrapeconfig_sd_ionos", prom: prom(), scs: sdCase("ionos", func(s *SCS) {
			s.IonosSDConfigs = []monitoringv1alpha1.IonosSDConfig{{
				DataCenterID:  "11111111-2222-3333-4444-555555555555",
				Authorization: monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))},
				Port:          ptr(int32(9100)), RefreshInterval: ptr(monitoringv1.Duration("1m")),
			}}
		})},
		{name: "scrapeconfig_file_http_dns", prom: prom(), scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("mixed", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.FileSDConfigs = []monitoringv1alpha1.FileSDConfig{{Files: []monitoringv1alpha1.SDFile{"/etc/prometheus/configmaps/targets/*.json"}, RefreshInterval: ptr(monitoringv1.Duration("5m"))}}
			s.Spec.HTTPSDConfigs = []monitoringv1alpha1.HTTPSDConfig{{URL: "https://sd.example.com/targets", BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}}}
			s.Spec.DNSSDConfigs = []monitoringv1alpha1.DNSSDConfig{{Names: []string{"_metrics._tcp.example.com"}, Type: ptr(monitoringv1alpha1.DNSRecordType("SRV"))}}
		})}},
		{name: "scrapeconfig_kubernetes", prom: prom(), scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("kube", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{{
				Role:       monitoringv1alpha1.KubernetesRoleNode,
				Selectors:  []monitoringv1alpha1.K8SSelectorConfig{{Role: monitoringv1alpha1.KubernetesRoleNode, Label: ptr("node-role.kubernetes.io/worker")}},
				Namespaces: &monitoringv1alpha1.NamespaceDiscovery{Names: []string{"kube-system"}},
			}}
			s.Spec.RelabelConfigs = []monitoringv1.RelabelConfig{rl("labelmap", nil, "__meta_kubernetes_node_label_(.+)", "", "")}
			s.Spec.Scheme = ptr(monitoringv1.SchemeHTTPS)
			s.Spec.TLSConfig = &monitoringv1.SafeTLSConfig{InsecureSkipVerify: ptr(true)}
		})}},

		// Kubernetes SD namespaces of a ScrapeConfig: all of them when it names none (as
		// prometheus-operator renders it) or for an empty namespaces, and its own only
		// under ignoreNamespaceSelectors.
		{name: "scrapeconfig_kubernetes_default_namespace", prom: prom(), scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("kube", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{{Role: monitoringv1alpha1.KubernetesRolePod}}
		})}},
		{name: "scrapeconfig_kubernetes_all_namespaces", prom: prom(), scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("kube", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{{Role: monitoringv1alpha1.KubernetesRolePod, Namespaces: &monitoringv1alpha1.NamespaceDiscovery{}}}
		})}},
		{name: "scrapeconfig_kubernetes_ignore_namespace_selectors", prom: prom(func(p *P) { p.Spec.IgnoreNamespaceSelectors = true }),
			scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("kube", func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{
					{Role: monitoringv1alpha1.KubernetesRolePod, Namespaces: &monitoringv1alpha1.NamespaceDiscovery{Names: []string{"kube-system", "prod"}, IncludeOwnNamespace: ptr(true)}},
					{Role: monitoringv1alpha1.KubernetesRoleService, Namespaces: &monitoringv1alpha1.NamespaceDiscovery{}},
					{Role: monitoringv1alpha1.KubernetesRoleEndpointSlice},
				}
			})}},

		// --- Additional configs and mixes ---
		{name: "additional_scrape_configs", prom: prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml")) }), sms: []*SM{sm("app")}},
		{name: "additional_scrape_configs_own_hashmod_sharded", prom: prom(func(p *P) {
			// A job with its own hashmod rule gets no sharding rules of the operator's.
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "self-sharded.yaml"))
			p.Spec.Shards = ptr(int32(2))
		})},
		{name: "sharding_retain_shards", prom: prom(func(p *P) {
			p.Spec.Shards = ptr(int32(2))
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr(monitoringv1.RetainWhenScaledRetentionType)}
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "self-sharded.yaml"))
		}), sms: []*SM{sm("app")}, probes: []*monitoringv1.Probe{probe("web")}, scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("nodes", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"10.0.0.1:9100"}}}
		})}},
		{name: "sharding_retain_one_shard", prom: prom(func(p *P) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr(monitoringv1.RetainWhenScaledRetentionType)}
		}), pms: []*PM{pm("app")}},
		{name: "scrapeconfig_own_hashmod_sharded", prom: prom(func(p *P) { p.Spec.Shards = ptr(int32(3)) }),
			scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("self", func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"10.0.0.1:9100"}}}
				s.Spec.RelabelConfigs = []monitoringv1.RelabelConfig{
					{SourceLabels: []monitoringv1.LabelName{"__address__"}, Modulus: 6, TargetLabel: "__tmp_hash", Action: "HashMod"},
					rl("keep", []string{"__tmp_hash"}, "$(SHARD)|3", "", ""),
				}
			})}},
		// --- Topology sharding (spec.shardingStrategy.mode Topology) ---
		{name: "topology_4shards_2zones", prom: prom(topology(4, nil, "a", "b"), func(p *P) {
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml"))
		}), sms: []*SM{sm("app")}, pms: []*PM{pm("worker")}, probes: []*monitoringv1.Probe{probe("web")},
			scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("nodes", func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"10.0.0.1:9100"}}}
			})}},
		{name: "topology_pod_zone_labels_4shards_2zones", podZoneLabels: true, prom: prom(topology(4, nil, "a", "b")),
			sms: []*SM{sm("app"), sm("nodes", func(s *SM) { s.Spec.AttachMetadata = &monitoringv1.AttachMetadata{Node: ptr(true)} })}, pms: []*PM{pm("worker")}},
		{name: "topology_6shards_3zones_endpointslice", prom: prom(topology(6, ptr("az"), "eu-1a", "eu-1b", "eu-1c"), func(p *P) {
			p.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole)
			p.Spec.ExternalLabels = map[string]string{"az": "ignored", "cluster": "prod"}
		}), sms: []*SM{sm("app")}},
		{name: "topology_no_external_label_3shards_2zones", prom: prom(topology(3, ptr(""), "a", "b")), pms: []*PM{pm("worker")}},
		{name: "topology_one_zone_one_shard", prom: prom(topology(1, nil, "a"), func(p *P) {
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml"))
		}), sms: []*SM{sm("app")}},
		{name: "topology_retain_shards", prom: prom(topology(2, nil, "a", "b"), func(p *P) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr(monitoringv1.RetainWhenScaledRetentionType)}
		}), pms: []*PM{pm("worker")}},
		{name: "additional_scrape_configs_sharded", prom: prom(func(p *P) {
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml"))
			p.Spec.Shards = ptr(int32(2))
		})},
		{name: "additional_scrape_configs_optional_missing", prom: prom(func(p *P) {
			s := secretKey("absent", "scrape.yaml")
			s.Optional = ptr(true)
			p.Spec.AdditionalScrapeConfigs = &s
		})},
		{name: "mixed_service_and_pod_monitors", prom: prom(func(p *P) { p.Spec.ScrapeInterval = "1m" }), sms: []*SM{sm("api"), sm("web")}, pms: []*PM{pm("worker")}},
		{name: "full_v2_45", prom: prom(v("v2.45.0"), am(), rw(), func(p *P) {
			p.Spec.ExternalLabels = map[string]string{"cluster": "legacy"}
			p.Spec.EnforcedSampleLimit = ptr(int64(1000))
		}), sms: []*SM{sm("app", func(s *SM) {
			s.Spec.SampleLimit = ptr(int64(100))
			s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.PrometheusProto}
			s.Spec.Endpoints[0].TrackTimestampsStaleness = ptr(true)
		})}, pms: []*PM{pm("worker")}},
		{name: "full_v3_everything", prom: prom(am(), rw(), rr(), scrapeClasses, func(p *P) {
			p.Spec.Shards = ptr(int32(2))
			p.Spec.EnforcedNamespaceLabel = "namespace"
			p.Spec.ExternalLabels = map[string]string{"cluster": "prod"}
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml"))
		}), sms: []*SM{sm("api"), sm("web", func(s *SM) { s.Spec.ScrapeClassName = ptr("authorized") })}, pms: []*PM{pm("worker")}},
	}
}

// SCS is a ScrapeConfig's spec.
type SCS = monitoringv1alpha1.ScrapeConfigSpec

// sdCase is a ScrapeConfig named name whose spec f fills.
func sdCase(name string, f func(*SCS)) []*monitoringv1alpha1.ScrapeConfig {
	return []*monitoringv1alpha1.ScrapeConfig{scrapeConfig(name, func(s *monitoringv1alpha1.ScrapeConfig) { f(&s.Spec) })}
}

// agentDaemonSetMode marks, in the tests' Prometheus objects only, one that stands for a
// PrometheusAgent with spec.mode DaemonSet (serverOf makes the agent).
const agentDaemonSetMode = "test.lookout.dev/agent-daemonset-mode"

// daemonSetMode marks an agentProm as a DaemonSet-mode agent.
func daemonSetMode(p *monitoringv1.Prometheus) {
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[agentDaemonSetMode] = "true"
}

// agentProm is a Prometheus standing for a PrometheusAgent in the cases (serverOf turns
// it into one), so that the cases' mutators serve both kinds.
func agentProm(mut ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	p := prom(mut...)
	p.TypeMeta = metav1.TypeMeta{APIVersion: monitoringv1alpha1.SchemeGroupVersion.String(), Kind: monitoringv1alpha1.PrometheusAgentsKind}
	return p
}

// serverOf is the Server of a case's Prometheus: a PrometheusAgent with the same metadata
// and common fields when agentProm made it.
func serverOf(p *monitoringv1.Prometheus) *promserver.Server {
	if p.Kind != monitoringv1alpha1.PrometheusAgentsKind {
		return promserver.Of(p)
	}
	a := &monitoringv1alpha1.PrometheusAgent{ObjectMeta: *p.ObjectMeta.DeepCopy(), Spec: monitoringv1alpha1.PrometheusAgentSpec{CommonPrometheusFields: p.Spec.CommonPrometheusFields}}
	if a.Annotations[agentDaemonSetMode] == "true" {
		delete(a.Annotations, agentDaemonSetMode)
		a.Spec.Mode = ptr(monitoringv1alpha1.DaemonSetPrometheusAgentMode)
	}
	return promserver.Of(a)
}
