//lint:file-ignore SA1019 tests set deprecated API fields that Lookout still honours

package promcfg_test

import (
	"bytes"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// TestRejectedMonitors checks that a bad monitor is rejected with a message that names
// the problem, while a good monitor next to it still makes it into a valid config.
func TestRejectedMonitors(t *testing.T) {
	cases := []struct {
		name string
		prom *monitoringv1.Prometheus
		sm   *SM
		pm   *PM
		want string
	}{
		{name: "invalid relabel regex", sm: sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"a"}, "(unclosed", "b", "")}
		})), want: `endpoints[0]: relabelings[0]: invalid regex "(unclosed"`},
		{name: "unknown relabel action", sm: sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("explode", []string{"a"}, "", "b", "")}
		})), want: `relabelings[0]: unknown relabel action "explode"`},
		{name: "replace without target", sm: sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"a"}, "", "", "")}
		})), want: `relabel configuration for replace action requires 'target_label' value`},
		{name: "invalid metric relabel", sm: sm("bad", ep(func(e *EP) {
			e.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("hashmod", []string{"a"}, "", "b", "")}
		})), want: `metricRelabelings[0]: relabel configuration for hashmod requires non-zero modulus`},
		{name: "missing secret", sm: sm("bad", ep(func(e *EP) {
			e.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("nope", "user"), Password: secretKey("nope", "password")}
		})), want: `basicAuth: username: secret default/nope: not found`},
		{name: "missing secret key", sm: sm("bad", ep(func(e *EP) { e.BearerTokenSecret = ptr(secretKey("auth", "absent")) })),
			want: `bearerTokenSecret: secret default/auth has no key "absent"`},
		{name: "missing configmap for CA", sm: sm("bad", ep(func(e *EP) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{ConfigMap: ptr(cmKey("missing", "ca.crt"))}}}
		})), want: `tlsConfig: ca: configmap default/missing: not found`},
		{name: "timeout above interval", sm: sm("bad", ep(func(e *EP) { e.Interval = "10s"; e.ScrapeTimeout = "20s" })),
			want: `scrapeTimeout 20s is greater than the scrape interval 10s`},
		{name: "timeout above global interval", prom: prom(func(p *P) { p.Spec.ScrapeInterval = "15s" }), sm: sm("bad", ep(func(e *EP) { e.ScrapeTimeout = "20s" })),
			want: `scrapeTimeout 20s is greater than the scrape interval 15s`},
		{name: "invalid interval", sm: sm("bad", ep(func(e *EP) { e.Interval = "often" })), want: `invalid interval "often"`},
		{name: "invalid timeout", sm: sm("bad", ep(func(e *EP) { e.ScrapeTimeout = "-1s" })), want: `invalid scrapeTimeout "-1s"`},
		{name: "fs access bearer token file denied", prom: prom(func(p *P) { p.Spec.ArbitraryFSAccessThroughSMs.Deny = true }),
			sm: sm("bad", ep(func(e *EP) { e.BearerTokenFile = "/etc/shadow" })), want: `bearerTokenFile would read files from the Prometheus filesystem`},
		{name: "fs access tls files denied", prom: prom(func(p *P) { p.Spec.ArbitraryFSAccessThroughSMs.Deny = true }),
			sm: sm("bad", ep(func(e *EP) {
				e.TLSConfig = &monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/prometheus/certs/other"}}
			})), want: `tlsConfig.caFile would read files`},
		{name: "unknown scrape class", sm: sm("bad", func(s *SM) { s.Spec.ScrapeClassName = ptr("gold") }),
			want: `scrape class "gold" is not defined in Prometheus monitoring/k8s`},
		{name: "authorization type basic", sm: sm("bad", ep(func(e *EP) {
			e.Authorization = &monitoringv1.SafeAuthorization{Type: "Basic", Credentials: ptr(secretKey("auth", "token"))}
		})), want: `authorization: type cannot be "Basic", use basicAuth instead`},
		{name: "authorization without credentials", sm: sm("bad", ep(func(e *EP) { e.Authorization = &monitoringv1.SafeAuthorization{} })),
			want: `authorization: credentials are required`},
		{name: "two auth methods", sm: sm("bad", ep(func(e *EP) {
			e.BearerTokenSecret = ptr(secretKey("auth", "token"))
			e.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
		})), want: `at most one of authorization, basicAuth, oauth2 and bearer token can be set`},
		{name: "no endpoints", sm: sm("bad", func(s *SM) { s.Spec.Endpoints = nil }), want: `endpoints: at least one endpoint is required`},
		{name: "invalid selector operator", sm: sm("bad", func(s *SM) {
			s.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near", Values: []string{"b"}}}
		}), want: `invalid selector`},
		{name: "path without slash", sm: sm("bad", ep(func(e *EP) { e.Path = "metrics" })), want: `path "metrics" must start with /`},
		{name: "protocol needs v3", prom: prom(v("v2.50.0")), sm: sm("bad", func(s *SM) {
			s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.PrometheusText1_0_0}
		}), want: `scrape protocol PrometheusText1.0.0 needs Prometheus v3.0.0 or newer`},
		{name: "unknown protocol", sm: sm("bad", func(s *SM) { s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{"Carrier pigeon"} }),
			want: `unknown scrape protocol "Carrier pigeon"`},
		{name: "negative limit", sm: sm("bad", func(s *SM) { s.Spec.SampleLimit = ptr(int64(-1)) }), want: `sampleLimit must not be negative`},
		{name: "invalid body size", sm: sm("bad", func(s *SM) { s.Spec.BodySizeLimit = ptr(monitoringv1.ByteSize("lots")) }), want: `invalid bodySizeLimit "lots"`},
		{name: "oauth2 without token url", sm: sm("bad", ep(func(e *EP) {
			e.OAuth2 = &monitoringv1.OAuth2{ClientID: *secretRef("auth", "client-id"), ClientSecret: secretKey("auth", "client-secret")}
		})), want: `oauth2: OAuth2 tokenURL must be specified`},
		{name: "tls cert without key", sm: sm("bad", ep(func(e *EP) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{Cert: *secretRef("tls", "tls.crt")}}
		})), want: `tlsConfig: cannot specify client cert without client key`},
		{name: "proxy url without scheme", sm: sm("bad", ep(func(e *EP) { e.ProxyURL = ptr("proxy:3128") })), want: `proxyUrl "proxy:3128" must be an absolute URL`},
		{name: "no proxy without proxy url", sm: sm("bad", ep(func(e *EP) { e.NoProxy = ptr("10.0.0.0/8") })), want: `if noProxy is configured, proxyUrl must also be configured`},
		{name: "port name is an invalid regex", sm: sm("bad", ep(func(e *EP) { e.Port = "web(" })), want: `endpoints[0]: port "web(" is matched as a regular expression, and it does not compile`},
		{name: "target port name is an invalid regex", sm: sm("bad", ep(func(e *EP) { e.Port = ""; e.TargetPort = intOrStr("web[") })), want: `endpoints[0]: targetPort "web[" is matched as a regular expression`},
		{name: "invalid target label name", sm: sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"a"}, "", "0bad", "")}
		})), prom: prom(v("v2.55.0")), want: `"0bad" is invalid 'target_label' for replace action`},
		{name: "invalid scheme", sm: sm("bad", ep(func(e *EP) { e.Scheme = ptr(monitoringv1.Scheme("gopher")) })), want: `scheme "gopher" must be HTTP or HTTPS`},
		{name: "invalid service discovery role", sm: sm("bad", func(s *SM) { s.Spec.ServiceDiscoveryRole = ptr(monitoringv1.ServiceDiscoveryRole("Ingress")) }),
			want: `serviceDiscoveryRole "Ingress" is not Endpoints or EndpointSlice`},
		{name: "podmonitor port name is an invalid regex", pm: pm("bad", pep(func(e *PEP) { e.Port = ptr("metrics(") })),
			want: `podMetricsEndpoints[0]: port "metrics(" is matched as a regular expression`},
		{name: "podmonitor port number out of range", pm: pm("bad", pep(func(e *PEP) { e.Port = nil; e.PortNumber = ptr(int32(70000)) })),
			want: `podMetricsEndpoints[0]: portNumber 70000 is not a valid port`},
		{name: "podmonitor missing secret", pm: pm("bad", pep(func(e *PEP) { e.BearerTokenSecret = ptr(secretKey("ghost", "t")) })),
			want: `podMetricsEndpoints[0]: bearerTokenSecret: secret default/ghost: not found`},
		{name: "podmonitor no endpoints", pm: pm("bad", func(p *PM) { p.Spec.PodMetricsEndpoints = nil }), want: `at least one endpoint is required`},
		// Labels the operator copies onto targets are judged with the name validation
		// scheme the Prometheus runs: Prometheus refuses the whole file otherwise.
		{name: "empty target label", sm: sm("bad", func(s *SM) { s.Spec.TargetLabels = []string{"team", ""} }),
			want: `targetLabels[1]: "" is not a valid label name under the utf8 name validation scheme`},
		{name: "empty pod target label on a service monitor", sm: sm("bad", func(s *SM) { s.Spec.PodTargetLabels = []string{""} }),
			want: `podTargetLabels[0]: "" is not a valid label name`},
		{name: "empty pod target label", pm: pm("bad", func(p *PM) { p.Spec.PodTargetLabels = []string{""} }),
			want: `podTargetLabels[0]: "" is not a valid label name under the utf8 name validation scheme`},
		{name: "target label starting with a digit under legacy names", prom: prom(func(p *P) {
			p.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme)
		}), sm: sm("bad", func(s *SM) { s.Spec.TargetLabels = []string{"1abc"} }),
			want: `targetLabels[0]: "1abc" is not a valid label name under the legacy name validation scheme`},
		{name: "sanitized target label starting with a digit on v2", prom: prom(v("v2.55.0")), pm: pm("bad", func(p *PM) {
			p.Spec.PodTargetLabels = []string{"9.team"}
		}), want: `podTargetLabels[0]: "9.team" becomes the label name "9_team", which is not valid under the legacy name validation scheme`},
		{name: "job name clashes with additional scrape config", prom: prom(func(p *P) {
			p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "clash.yaml"))
		}), sm: sm("bad"), want: `job name "serviceMonitor/default/bad/0" is also used by additionalScrapeConfigs`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := c.prom
			if p == nil {
				p = prom()
			}
			good := sm("good")
			sms := []*SM{good}
			var pms []*PM
			if c.sm != nil {
				sms = append(sms, c.sm)
			}
			if c.pm != nil {
				pms = append(pms, c.pm)
			}
			res, err := generateWith(p, sms, pms, clashAssets())
			if err != nil {
				t.Fatalf("Generate failed for the whole Prometheus: %v", err)
			}
			var bad, ok *selection.Verdict
			for i := range res.Verdicts {
				switch res.Verdicts[i].Name {
				case "bad":
					bad = &res.Verdicts[i]
				case "good":
					ok = &res.Verdicts[i]
				}
			}
			if bad == nil || bad.Reason != selection.InvalidConfiguration {
				t.Fatalf("bad monitor not rejected: %s", verdictsString(res))
			}
			if !strings.Contains(bad.Message, c.want) {
				t.Errorf("rejection message\n  got:  %s\n  want: …%s…", bad.Message, c.want)
			}
			if ok == nil || !ok.Used() {
				t.Fatalf("good monitor not accepted next to a bad one: %s", verdictsString(res))
			}
			if !strings.Contains(string(res.Config), "job_name: serviceMonitor/default/good/0") {
				t.Errorf("good monitor's job missing from the config")
			}
			if strings.Contains(string(res.Config), "/default/bad/0\n  honor_labels") {
				t.Errorf("rejected monitor's job present in the config")
			}
			if err := promcfgValidate(res.Config); err != nil {
				t.Errorf("config with a rejected monitor does not load: %v", err)
			}
		})
	}
}

// TestPrometheusLevelErrors checks that problems of the Prometheus object itself fail the
// whole generation with a clear error (the controller keeps the last good config).
func TestPrometheusLevelErrors(t *testing.T) {
	cases := []struct {
		name string
		prom *monitoringv1.Prometheus
		want string
	}{
		{"invalid version", prom(v("three")), `spec.version: invalid Prometheus version "three"`},
		{"too old version", prom(v("v2.30.0")), `spec.version v2.30.0 is older than v2.45.0`},
		{"invalid scrape interval", prom(func(p *P) { p.Spec.ScrapeInterval = "1 minute" }), `spec.scrapeInterval: invalid duration "1 minute"`},
		{"global timeout above interval", prom(func(p *P) { p.Spec.ScrapeInterval = "10s"; p.Spec.ScrapeTimeout = "30s" }), `spec.scrapeTimeout 30s is greater than spec.scrapeInterval 10s`},
		{"missing additional scrape configs secret", prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("absent", "x.yaml")) }),
			`spec.additionalScrapeConfigs: secret monitoring/absent: not found`},
		{"broken additional scrape configs yaml", prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "broken.yaml")) }),
			`spec.additionalScrapeConfigs: invalid YAML`},
		{"additional scrape configs not a list", prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "not-a-list.yaml")) }),
			`spec.additionalScrapeConfigs: want a YAML list, got a mapping`},
		{"additional scrape config rejected by prometheus", prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "invalid-job.yaml")) }),
			`rejected by Prometheus's config loader`},
		{"two default scrape classes", prom(func(p *P) {
			p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{{Name: "a", Default: ptr(true)}, {Name: "b", Default: ptr(true)}}
		}), `both "a" and "b" are marked default`},
		{"topology sharding with fewer shards than zones", prom(topology(2, nil, "a", "b", "c")),
			`spec.shards (2) must be greater than or equal to the number of spec.shardingStrategy.topology.values (3)`},
		{"topology sharding without shards", prom(topology(1, nil, "a", "b"), func(p *P) { p.Spec.Shards = nil }),
			`spec.shards (1) must be greater than or equal to the number of spec.shardingStrategy.topology.values (2)`},
		{"topology sharding with an empty zone", prom(topology(2, nil, "a", "")), `spec.shardingStrategy.topology.values[1] is empty`},
		{"topology sharding with a zone no node label can hold", prom(topology(2, nil, "a", "eu west")),
			`spec.shardingStrategy.topology.values[1] "eu west" is not a valid node label value`},
		{"topology without mode Topology", prom(func(p *P) {
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"a"}}}
		}), `topology can only be defined when mode is set to 'Topology'`},
		{"unknown sharding mode", prom(func(p *P) {
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{Mode: ptr(monitoringv1.ShardingStrategyMode("Zone"))}
		}), `spec.shardingStrategy.mode "Zone": must be Address or Topology`},
		{"invalid external label name", prom(func(p *P) { p.Spec.ExternalLabels = map[string]string{"": "x"} }), `spec.externalLabels: "" is not a valid label name`},
		{"negative shards", prom(func(p *P) { p.Spec.Shards = ptr(int32(-2)) }), `spec.shards must not be negative`},
		{"external label with a dot on v2", prom(v("v2.54.0"), func(p *P) { p.Spec.ExternalLabels = map[string]string{"cluster.name": "a"} }),
			`spec.externalLabels (with the prometheus and replica labels): "cluster.name" is not a valid label name for Prometheus v2.54.0`},
		{"replica label with a dash on v2", prom(v("v2.54.0"), func(p *P) { p.Spec.ReplicaExternalLabelName = ptr("prometheus-replica") }),
			`"prometheus-replica" is not a valid label name for Prometheus v2.54.0`},
		{"additional scrape config with a UTF-8 static label on v2", prom(v("v2.54.0"), func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "utf8-labels.yaml")) }),
			`label names ["team.name"] are not valid for a Prometheus that allows only legacy names`},
		{"additional scrape config with a UTF-8 relabel target on v2", prom(v("v2.54.0"), func(p *P) {
			p.Spec.AdditionalAlertRelabelConfigs = ptr(secretKey("additional", "utf8-relabel.yaml"))
		}), `"team.name" is invalid 'target_label' for replace action`},
		{"empty pod target label", prom(func(p *P) { p.Spec.PodTargetLabels = []string{"app", ""} }),
			`spec.podTargetLabels[1]: "" is not a valid label name`},
		{"invalid remote write url", prom(rw(func(r *monitoringv1.RemoteWriteSpec) { r.URL = "not a url" })), `spec.remoteWrite[0]: url "not a url" must be absolute`},
		{"alertmanager without port", prom(am(func(a *monitoringv1.AlertmanagerEndpoints) { a.Port.StrVal = "" })), `spec.alerting.alertmanagers[0]: port is required`},
		{"alertmanager missing secret", prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("nope", "u"), Password: secretKey("nope", "p")}
		})), `spec.alerting.alertmanagers[0]: basicAuth: username: secret monitoring/nope: not found`},
		{"invalid scrape class relabeling", prom(func(p *P) {
			p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{{Name: "x", Relabelings: []monitoringv1.RelabelConfig{rl("keep", []string{"a"}, "(", "", "")}}}
		}), `spec.scrapeClasses[x].relabelings[0]: invalid regex`},
		{"remote write azuread two methods", prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
			r.AzureAD = &monitoringv1.AzureAD{ManagedIdentity: &monitoringv1.ManagedIdentity{}, SDK: &monitoringv1.AzureSDK{}}
		})), `exactly one of managedIdentity, oauth, sdk and workloadIdentity must be set`},
		{"otlp before 2.55", prom(v("v2.54.0"), func(p *P) { p.Spec.OTLP = &monitoringv1.OTLPConfig{} }), `spec.otlp needs Prometheus v2.55.0 or newer`},
		{"otlp NoTranslation before 3.4", prom(v("v3.3.0"), func(p *P) {
			p.Spec.OTLP = &monitoringv1.OTLPConfig{TranslationStrategy: ptr(monitoringv1.NoTranslation)}
		}), `spec.otlp.translationStrategy NoTranslation needs Prometheus v3.4.0 or newer`},
		{"otlp UTF-8 names under the legacy scheme", prom(func(p *P) {
			p.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme)
			p.Spec.OTLP = &monitoringv1.OTLPConfig{TranslationStrategy: ptr(monitoringv1.NoUTF8EscapingWithSuffixes)}
		}), `spec.otlp.translationStrategy NoUTF8EscapingWithSuffixes keeps UTF-8 names`},
		{"otlp promote all and some", prom(func(p *P) {
			p.Spec.OTLP = &monitoringv1.OTLPConfig{PromoteAllResourceAttributes: ptr(true), PromoteResourceAttributes: []string{"a"}}
		}), `spec.otlp: 'promoteAllResourceAttributes' cannot be set to 'true' simultaneously`},
		{"tracing sampling fraction", prom(func(p *P) {
			p.Spec.TracingConfig = &monitoringv1.TracingConfig{Endpoint: "otel:4317", SamplingFraction: qty("2")}
		}), "spec.tracingConfig: `samplingFraction` must be between 0 and 1"},
		{"tracing client type", prom(func(p *P) {
			p.Spec.TracingConfig = &monitoringv1.TracingConfig{Endpoint: "otel:4317", ClientType: ptr("thrift")}
		}), `spec.tracingConfig.clientType "thrift": must be grpc or http`},
		{"tracing ca secret missing", prom(func(p *P) {
			p.Spec.TracingConfig = &monitoringv1.TracingConfig{Endpoint: "otel:4317", TLSConfig: &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("absent", "ca.crt")}}}
		}), `spec.tracingConfig.tlsConfig: ca: secret monitoring/absent: not found`},
		{"tracing authorization header", prom(func(p *P) {
			p.Spec.TracingConfig = &monitoringv1.TracingConfig{Endpoint: "otel:4317", Headers: map[string]string{"Authorization": "Bearer x"}}
		}), `spec.tracingConfig.headers: Prometheus does not accept an Authorization header`},
		{"additional alertmanager with API v1 on Prometheus 3", prom(func(p *P) {
			p.Spec.AdditionalAlertManagerConfigs = ptr(secretKey("additional", "alertmanagers-v1.yaml"))
		}), `expected Alertmanager api version to be one of [v2] but got v1`},
		{"alertmanager api version", prom(am(func(a *monitoringv1.AlertmanagerEndpoints) {
			a.APIVersion = ptr(monitoringv1.AlertmanagerAPIVersion("v3"))
		})),
			`spec.alerting.alertmanagers[0]: apiVersion "v3": must be V1 or V2`},
		{"apiserver host without scheme", prom(func(p *P) { p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{Host: "kubernetes:6443"} }),
			`spec.apiserverConfig.host "kubernetes:6443" must be a URL with a scheme and a host`},
		{"apiserver two ways to authenticate", prom(func(p *P) {
			p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{Host: "https://k:6443", BearerToken: "x", BearerTokenFile: "/t"}
		}), `spec.apiserverConfig: at most one of basicAuth, authorization, bearerToken and bearerTokenFile`},
		{"apiserver secret missing", prom(func(p *P) {
			p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{Host: "https://k:6443",
				Authorization: &monitoringv1.Authorization{SafeAuthorization: monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("absent", "token"))}}}
		}), `spec.apiserverConfig: authorization: credentials: secret monitoring/absent: not found`},
		{"stale series threshold above 1", prom(func(p *P) { p.Spec.TSDB = &monitoringv1.TSDBSpec{StaleSeriesCompactionThreshold: qty("1.5")} }),
			"spec.tsdb: `staleSeriesCompactionThreshold` must be between 0 and 1"},
		{"xor chunks with st-storage", prom(func(p *P) {
			p.Spec.EnableFeatures = []monitoringv1.EnableFeature{"st-storage"}
			p.Spec.TSDB = &monitoringv1.TSDBSpec{ChunkEncoding: &monitoringv1.ChunkEncodingSpec{Floats: ptr(monitoringv1.ChunkEncodingFloatsXor)}}
		}), `spec.tsdb.chunkEncoding.floats Xor is incompatible with spec.enableFeatures st-storage`},
		{"retention percentage above 100", prom(func(p *P) { p.Spec.RetentionPercentage = qty("150") }), `spec.retentionPercentage 150 must be between 0 and 100`},
		{"retention size", prom(func(p *P) { p.Spec.RetentionSize = "a lot" }), `spec.retentionSize "a lot" is not a size`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := generate(c.prom, []*SM{sm("app")}, nil)
			if err == nil {
				t.Fatalf("expected an error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error\n  got:  %v\n  want: …%s…", err, c.want)
			}
		})
	}
}

// TestRejectedProbesAndScrapeConfigs: the same guarantee for the other two kinds.
func TestRejectedProbesAndScrapeConfigs(t *testing.T) {
	cases := []struct {
		name  string
		prom  *monitoringv1.Prometheus
		probe *monitoringv1.Probe
		scfg  *monitoringv1alpha1.ScrapeConfig
		want  string
	}{
		{name: "probe without targets", probe: probe("bad", func(p *monitoringv1.Probe) { p.Spec.Targets.StaticConfig = nil }), want: "at least one of .spec.targets.staticConfig and .spec.targets.ingress is required"},
		{name: "probe without prober", probe: probe("bad", func(p *monitoringv1.Probe) { p.Spec.ProberSpec.URL = "" }), want: "prober.url is required"},
		{name: "probe prober with path", probe: probe("bad", func(p *monitoringv1.Probe) { p.Spec.ProberSpec.URL = "host:9115/probe" }), want: "must be a host:port address"},
		{name: "probe missing secret", probe: probe("bad", func(p *monitoringv1.Probe) {
			p.Spec.BearerTokenSecret = ptr(secretKey("ghost", "t"))
		}), want: "bearerTokenSecret: secret default/ghost: not found"},
		// Discovery settings a Prometheus version does not know, as prometheus-operator's
		// validation refuses them.
		{name: "consul filter on v2", prom: prom(v("v2.55.0")), scfg: sdObj(func(s *SCS) {
			s.ConsulSDConfigs = []monitoringv1alpha1.ConsulSDConfig{{Server: "consul:8500", Filter: ptr("x")}}
		}), want: "consulSDConfigs[0]: filter needs Prometheus v3.0.0 or newer (have v2.55.0)"},
		{name: "consul health filter before 3.11.2", prom: prom(v("v3.11.1")), scfg: sdObj(func(s *SCS) {
			s.ConsulSDConfigs = []monitoringv1alpha1.ConsulSDConfig{{Server: "consul:8500", HealthFilter: ptr("x")}}
		}), want: "consulSDConfigs[0]: healthFilter needs Prometheus v3.11.2 or newer"},
		{name: "consul token secret missing", scfg: sdObj(func(s *SCS) {
			s.ConsulSDConfigs = []monitoringv1alpha1.ConsulSDConfig{{Server: "consul:8500", TokenRef: ptr(secretKey("ghost", "token"))}}
		}), want: "consulSDConfigs[0]: tokenRef: secret default/ghost: not found"},
		{name: "ec2 access key without secret key", scfg: sdObj(func(s *SCS) {
			s.EC2SDConfigs = []monitoringv1alpha1.EC2SDConfig{{Region: ptr("eu-west-1"), AccessKey: ptr(secretKey("auth", "access"))}}
		}), want: "ec2SDConfigs[0]: accessKey and secretKey must be set together"},
		{name: "azure SDK before 2.52", prom: prom(v("v2.51.0")), scfg: sdObj(func(s *SCS) {
			s.AzureSDConfigs = []monitoringv1alpha1.AzureSDConfig{{SubscriptionID: "s", AuthenticationMethod: ptr(monitoringv1alpha1.AuthMethodTypeSDK)}}
		}), want: "azureSDConfigs[0]: authenticationMethod SDK needs Prometheus v2.52.0 or newer"},
		{name: "azure workload identity before 3.11", prom: prom(v("v3.10.0")), scfg: sdObj(func(s *SCS) {
			s.AzureSDConfigs = []monitoringv1alpha1.AzureSDConfig{{SubscriptionID: "s", AuthenticationMethod: ptr(monitoringv1alpha1.AuthMethodTypeWorkloadIdentity)}}
		}), want: "authenticationMethod WorkloadIdentity needs Prometheus v3.11.0 or newer"},
		{name: "azure OAuth without tenant", scfg: sdObj(func(s *SCS) {
			s.AzureSDConfigs = []monitoringv1alpha1.AzureSDConfig{{SubscriptionID: "s", ClientID: ptr("c"), ClientSecret: ptr(secretKey("auth", "client-secret"))}}
		}), want: "azureSDConfigs[0]: authenticationMethod OAuth requires a tenantID"},
		{name: "openstack load balancers before 3.2", prom: prom(v("v3.1.0")), scfg: sdObj(func(s *SCS) {
			s.OpenStackSDConfigs = []monitoringv1alpha1.OpenStackSDConfig{{Role: monitoringv1alpha1.OpenStackRoleLoadBalancer, Region: "r"}}
		}), want: "openstackSDConfigs[0]: role LoadBalancer needs Prometheus v3.2.0 or newer"},
		{name: "docker match first network before 2.54.1", prom: prom(v("v2.54.0")), scfg: sdObj(func(s *SCS) {
			s.DockerSDConfigs = []monitoringv1alpha1.DockerSDConfig{{Host: "tcp://d:2375", MatchFirstNetwork: ptr(true)}}
		}), want: "dockerSDConfigs[0]: matchFirstNetwork needs Prometheus v2.54.1 or newer"},
		{name: "kuma client id before 2.50", prom: prom(v("v2.49.0")), scfg: sdObj(func(s *SCS) {
			s.KumaSDConfigs = []monitoringv1alpha1.KumaSDConfig{{Server: "http://kuma:5676", ClientID: ptr("p")}}
		}), want: "kumaSDConfigs[0]: clientID needs Prometheus v2.50.0 or newer"},
		{name: "hetzner label selector before 3.5", prom: prom(v("v3.4.0")), scfg: sdObj(func(s *SCS) {
			s.HetznerSDConfigs = []monitoringv1alpha1.HetznerSDConfig{{Role: monitoringv1alpha1.HetznerRoleHcloud, LabelSelector: ptr("a=b"),
				Authorization: &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))}}}
		}), want: "hetznerSDConfigs[0]: labelSelector needs Prometheus v3.5.0 or newer"},
		{name: "dns NS records before 2.49", prom: prom(v("v2.48.0")), scfg: sdObj(func(s *SCS) {
			s.DNSSDConfigs = []monitoringv1alpha1.DNSSDConfig{{Names: []string{"example.com"}, Type: ptr(monitoringv1alpha1.DNSRecordTypeNS), Port: ptr(int32(9100))}}
		}), want: "dnsSDConfigs[0]: type NS needs Prometheus v2.49.0 or newer"},
		{name: "ovhcloud secret missing", scfg: sdObj(func(s *SCS) {
			s.OVHCloudSDConfigs = []monitoringv1alpha1.OVHCloudSDConfig{{ApplicationKey: "k", ApplicationSecret: secretKey("ghost", "s"), ConsumerKey: secretKey("auth", "token"),
				Service: monitoringv1alpha1.OVHServiceVPS}}
		}), want: "ovhcloudSDConfigs[0]: applicationSecret: secret default/ghost: not found"},
		// Prometheus's loader judges every discovery, down to its client library's checks;
		// a Secret's value it quotes is masked.
		{name: "scaleway secret key not a UUID", scfg: sdObj(func(s *SCS) {
			s.ScalewaySDConfigs = []monitoringv1alpha1.ScalewaySDConfig{{AccessKey: "SCWXXXXXXXXXXXXXXXXX", SecretKey: secretKey("auth", "secret"),
				ProjectID: "11111111-2222-3333-4444-555555555555", Role: monitoringv1alpha1.ScalewayRoleInstance}}
		}), want: "invalid secret key format '<secret>', expected a UUID"},
		{name: "azure without subscription", scfg: sdObj(func(s *SCS) {
			s.AzureSDConfigs = []monitoringv1alpha1.AzureSDConfig{{AuthenticationMethod: ptr(monitoringv1alpha1.AuthMethodTypeManagedIdentity)}}
		}), want: "rejected by Prometheus's config loader: azure SD configuration requires a subscription_id"},
		{name: "docker socket with file access denied", prom: prom(func(p *P) { p.Spec.ArbitraryFSAccessThroughSMs.Deny = true }), scfg: sdObj(func(s *SCS) {
			s.DockerSDConfigs = []monitoringv1alpha1.DockerSDConfig{{Host: "unix:///var/run/docker.sock"}}
		}), want: `dockerSDConfigs[0]: host "unix:///var/run/docker.sock" would make Prometheus open a socket on its own filesystem`},
		{name: "probe static label without a name", probe: probe("bad", func(p *monitoringv1.Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"": "a"}
		}), want: `targets.staticConfig.labels: "" is not a valid label name`},
		{name: "scrapeconfig static label without a name", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}, Labels: map[string]string{"": "a"}}}
		}), want: `staticConfigs[0].labels: "" is not a valid label name`},
		{name: "scrapeconfig empty static", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{}}
		}), want: "staticConfigs[0]: at least one target is required"},
		{name: "scrapeconfig legacy names with a UTF-8 relabel target", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}}}
			s.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme)
			s.Spec.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "team.name", "a")}
		}), want: `relabelings[0]: "team.name" is invalid 'target_label'`},
		{name: "scrapeconfig legacy names escaped as UTF-8", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}}}
			s.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme)
			s.Spec.NameEscapingScheme = ptr(monitoringv1.AllowUTF8NameEscapingScheme)
		}), want: `rejected by Prometheus's config loader`},
		// ScrapeConfigs follow the tenant rules of monitors.
		{name: "scrapeconfig file discovery with file access denied", prom: prom(func(p *P) { p.Spec.ArbitraryFSAccessThroughSMs.Deny = true }),
			scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.FileSDConfigs = []monitoringv1alpha1.FileSDConfig{{Files: []monitoringv1alpha1.SDFile{"/etc/prometheus/secrets/other/targets.json"}}}
			}), want: `fileSDConfigs would read files from the Prometheus filesystem, which spec.arbitraryFSAccessThroughSMs.deny forbids`},
		{name: "scrapeconfig node discovery with namespace selectors ignored", prom: prom(func(p *P) { p.Spec.IgnoreNamespaceSelectors = true }),
			scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{{Role: monitoringv1alpha1.KubernetesRoleNode}}
			}), want: `kubernetesSDConfigs[0]: role Node discovers cluster-wide objects, and spec.ignoreNamespaceSelectors confines ScrapeConfigs to their own namespace`},
		// A 2.x Prometheus allows only legacy label names, also in static configurations,
		// which the Prometheus 3 loader Lookout links judges as UTF-8.
		{name: "probe static label with a dot on v2", prom: prom(v("v2.50.0")), probe: probe("bad", func(p *monitoringv1.Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"team.name": "a"}
		}), want: `targets.staticConfig.labels: "team.name" is not a valid label name for Prometheus v2.50.0, which allows only legacy names`},
		{name: "scrapeconfig static label with a dot on v2", prom: prom(v("v2.50.0")), scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}, Labels: map[string]string{"team.name": "a"}}}
		}), want: `staticConfigs[0].labels: "team.name" is not a valid label name for Prometheus v2.50.0`},
		{name: "scrapeconfig relabel target with a dot on v2", prom: prom(v("v2.50.0")), scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}}}
			s.Spec.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "team.name", "a")}
		}), want: `relabelings[0]: "team.name" is invalid 'target_label'`},
		{name: "scrapeconfig kubernetes auth without api server", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{{Role: monitoringv1alpha1.KubernetesRolePod,
				BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}}}
		}), want: "rejected by Prometheus's config loader"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			gc := goldenCase{prom: c.prom, sms: []*SM{sm("good")}}
			if gc.prom == nil {
				gc.prom = prom()
			}
			if c.probe != nil {
				gc.probes = append(gc.probes, c.probe)
			}
			if c.scfg != nil {
				gc.scs = append(gc.scs, c.scfg)
			}
			res, err := generateAll(gc)
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, v := range res.Verdicts {
				switch v.Name {
				case "bad":
					found = true
					if v.Reason != selection.InvalidConfiguration || !strings.Contains(v.Message, c.want) {
						t.Errorf("verdict %+v, want message containing %q", v, c.want)
					}
				case "good":
					if !v.Used() {
						t.Errorf("good monitor rejected: %s", v.Message)
					}
				}
			}
			if !found {
				t.Fatal("no verdict for the bad object")
			}
			if err := promcfgValidate(res.Config); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestDuplicateJobNames: job names are unique across the file; a monitor whose jobs
// reuse another's names is left out with a reason, and the file still loads.
func TestDuplicateJobNames(t *testing.T) {
	t.Parallel()
	twice := sm("twice")
	res, err := generate(prom(), []*SM{twice, sm("other"), twice}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Verdicts) != 3 || !res.Verdicts[0].Used() || !res.Verdicts[1].Used() {
		t.Fatalf("verdicts:\n%s", verdictsString(res))
	}
	if v := res.Verdicts[2]; v.Used() || !strings.Contains(v.Message, `job name "serviceMonitor/default/twice/0" is also used by ServiceMonitor default/twice`) {
		t.Errorf("second copy: %s %s", v.Reason, v.Message)
	}
	if err := promcfgValidate(res.Config); err != nil {
		t.Error(err)
	}
}

// sdObj is a ScrapeConfig named bad whose spec f fills.
func sdObj(f func(*SCS)) *monitoringv1alpha1.ScrapeConfig {
	return sdCase("bad", f)[0]
}

// TestJobNamesAfterChanges: a warm generator claims only the changed monitors' job names
// anew, and still leaves out a monitor whose change makes it want a taken name, as a fresh
// generator does; once the clash is gone, every monitor is used again.
func TestJobNamesAfterChanges(t *testing.T) {
	t.Parallel()
	p := prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "clash1.yaml")) })
	clash := layered{testAssets(), staticSecret("monitoring", "additional", "3", map[string][]byte{
		"clash1.yaml": []byte("- job_name: serviceMonitor/default/bad/1\n  static_configs:\n  - targets: [a:1]\n"),
	})}
	g := promcfg.NewGenerator()
	bad := func(gen int64, endpoints int) *SM {
		return sm("bad", func(s *SM) {
			s.Generation = gen
			for len(s.Spec.Endpoints) < endpoints {
				s.Spec.Endpoints = append(s.Spec.Endpoints, monitoringv1.Endpoint{Port: "web"})
			}
		})
	}
	a := sm("a")
	steps := []struct {
		name string
		bad  *SM
		a    *SM
		used bool // whether bad is used
	}{
		{"one endpoint", bad(1, 1), a, true},
		{"a second endpoint, whose job name additionalScrapeConfigs has", bad(2, 2), a, false},
		{"another monitor changes", bad(2, 2), sm("a", func(s *SM) { s.Generation = 2 }), false},
		{"one endpoint again", bad(3, 1), a, true},
		{"another monitor changes again", bad(3, 1), sm("a", func(s *SM) { s.Generation = 3 }), true},
	}
	for _, s := range steps {
		in := promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: []*SM{s.a, s.bad}}, Assets: clash}
		got, fresh := generateBeside(t, g, in)
		if verdictsString(got) != verdictsString(fresh) || !bytes.Equal(got.Bytes(), fresh.Bytes()) {
			t.Fatalf("%s: the warm generator differs from a fresh one:\n%s\nfresh:\n%s", s.name, verdictsString(got), verdictsString(fresh))
		}
		if v := got.Verdicts[1]; v.Used() != s.used || !got.Verdicts[0].Used() {
			t.Fatalf("%s: verdicts:\n%s", s.name, verdictsString(got))
		}
	}
}
