package promcfg_test

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
		{"topology sharding", prom(func(p *P) {
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{Mode: ptr(monitoringv1.TopologyShardingStrategyMode)}
		}), `Topology is not supported`},
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
		{name: "scrapeconfig unsupported discovery", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.ConsulSDConfigs = []monitoringv1alpha1.ConsulSDConfig{{Server: "consul:8500"}}
		}), want: "consulSDConfigs not supported by Lookout yet"},
		{name: "probe static label without a name", probe: probe("bad", func(p *monitoringv1.Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"": "a"}
		}), want: `targets.staticConfig.labels: "" is not a valid label name`},
		{name: "scrapeconfig static label without a name", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}, Labels: map[string]string{"": "a"}}}
		}), want: `staticConfigs[0].labels: "" is not a valid label name`},
		{name: "scrapeconfig empty static", scfg: scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{}}
		}), want: "staticConfigs[0]: at least one target is required"},
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
