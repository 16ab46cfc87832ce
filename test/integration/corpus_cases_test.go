//lint:file-ignore SA1019 the corpus uses the deprecated fields of the API Lookout serves, as tenants do

package integration

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	promconfig "github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/model/relabel"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// corpusCases is the whole corpus, in the order Documentation/bad-input.md lists it.
func corpusCases() []corpusCase {
	var cs []corpusCase
	cs = append(cs, relabelCases()...)
	cs = append(cs, serviceMonitorCases()...)
	cs = append(cs, podMonitorCases()...)
	cs = append(cs, probeCases()...)
	cs = append(cs, scrapeConfigCases()...)
	cs = append(cs, ruleCases()...)
	cs = append(cs, prometheusCases()...)
	return cs
}

// jobField checks one loaded field of every job of the case's object.
func jobField(what string, ok func(j *promconfig.ScrapeConfig) bool) func(g *generated, r *run) error {
	return jobCheck(func(j *promconfig.ScrapeConfig, _ *run) error {
		if !ok(j) {
			return fmt.Errorf("%s not as written", what)
		}
		return nil
	})
}

// credentials checks the Authorization credentials of the case's jobs.
func credentials(want string) func(g *generated, r *run) error {
	return jobField("authorization credentials", func(j *promconfig.ScrapeConfig) bool {
		a := j.HTTPClientConfig.Authorization
		return a != nil && string(a.Credentials) == want
	})
}

func basicPassword(want string) func(g *generated, r *run) error {
	return jobField("basic_auth password", func(j *promconfig.ScrapeConfig) bool {
		b := j.HTTPClientConfig.BasicAuth
		return b != nil && string(b.Password) == want
	})
}

// staticLabel checks a label of the static targets of the case's jobs.
func staticLabel(name, value string) func(g *generated, r *run) error {
	return jobCheck(func(j *promconfig.ScrapeConfig, _ *run) error { return staticLabelOf(j, name, value) })
}

const (
	missing = "absent"
)

func serviceMonitorCases() []corpusCase {
	m := tlsMaterial()
	ep := func(f func(e *monitoringv1.Endpoint)) func(*SM) { return func(s *SM) { f(&s.Spec.Endpoints[0]) } }
	tlsFrom := func(name string, ca, cert, key string) *monitoringv1.TLSConfig {
		t := &monitoringv1.TLSConfig{}
		if ca != "" {
			t.CA.Secret = skp(name, ca)
		}
		if cert != "" {
			t.Cert.Secret = skp(name, cert)
		}
		if key != "" {
			t.KeySecret = skp(name, key)
		}
		return t
	}
	long := longName("sm-long-name-", 253)
	longBad := longName("sm-long-name-invalid-", 253)
	c := func(profile, name, input string, o objs, w expect) corpusCase {
		return corpusCase{kind: kSM, profile: profile, name: name, input: input, objs: o, want: w}
	}
	cases := []corpusCase{
		// Labels copied from the service and pod.
		c(profStd, "sm-target-labels-empty", `targetLabels [""]`, sm(func(s *SM) { s.Spec.TargetLabels = []string{""} }),
			reject("targetLabels[0]", `"" is not a valid label name`)),
		c(profLegacy, "sm-target-labels-digit", `targetLabels ["1abc"] under nameValidationScheme Legacy`, sm(func(s *SM) { s.Spec.TargetLabels = []string{"1abc"} }),
			reject("targetLabels[0]", "legacy name validation scheme")),
		c(profLegacy, "sm-target-labels-dotted-digit", `targetLabels ["9.team"] under Legacy (sanitized to 9_team)`, sm(func(s *SM) { s.Spec.TargetLabels = []string{"9.team"} }),
			reject("targetLabels[0]", `becomes the label name "9_team"`)),
		c(profStd, "sm-target-labels-space", `targetLabels ["team name"]`, sm(func(s *SM) { s.Spec.TargetLabels = []string{"team name"} }),
			harmless("the label name sanitized to `team_name`", hasRelabel(false, "the sanitized label team_name", target("team_name")))),
		c(profLegacy, "sm-target-labels-unicode", `targetLabels ["チーム"] under Legacy (sanitized to ___)`, sm(func(s *SM) { s.Spec.TargetLabels = []string{"チーム"} }),
			harmless("the label name sanitized to `___`", hasRelabel(false, "the sanitized label ___", target("___")))),
		c(profStd, "sm-target-labels-injection", `targetLabels ["x\n- job_name: injected"]`, sm(func(s *SM) { s.Spec.TargetLabels = []string{"x\n- job_name: injected"} }),
			harmless("the label name sanitized to `x___job_name__injected`", all(hasRelabel(false, "the sanitized label x___job_name__injected", target("x___job_name__injected")), textLacks("\n- job_name: injected")))),
		c(profStd, "sm-pod-target-labels-empty", `podTargetLabels [""]`, sm(func(s *SM) { s.Spec.PodTargetLabels = []string{""} }),
			reject("podTargetLabels[0]", `"" is not a valid label name`)),
		c(profStd, "sm-job-label-injection", "jobLabel with a space, a newline and `---`", sm(func(s *SM) { s.Spec.JobLabel = "app name\n---" }),
			harmless("the label name sanitized in the source label", hasRelabel(false, "the sanitized source label", source("__meta_kubernetes_service_label_app_name____")))),
		// Durations and timing.
		c(profStd, "sm-interval-unit", `interval "5x"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Interval = "5x" })), schemaErr("spec.endpoints[0].interval")),
		c(profStd, "sm-timeout-unit", `scrapeTimeout "5x"`, sm(ep(func(e *monitoringv1.Endpoint) { e.ScrapeTimeout = "5x" })), schemaErr("spec.endpoints[0].scrapeTimeout")),
		c(profStd, "sm-interval-zero", `interval "0s"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Interval = "0s" })),
			reject("endpoints[0]", `invalid interval "0s"`)),
		c(profStd, "sm-timeout-above-interval", "scrapeTimeout 20s above interval 10s", sm(ep(func(e *monitoringv1.Endpoint) { e.Interval = "10s"; e.ScrapeTimeout = "20s" })),
			reject("endpoints[0]", "scrapeTimeout 20s is greater than the scrape interval 10s")),
		c(profStd, "sm-timeout-above-global", "scrapeTimeout 2m above the global interval 30s", sm(ep(func(e *monitoringv1.Endpoint) { e.ScrapeTimeout = "2m" })),
			reject("endpoints[0]", "scrapeTimeout 2m is greater than the scrape interval 30s")),
		// Paths, ports, params, scheme.
		c(profStd, "sm-path-relative", `path "metrics"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Path = "metrics" })),
			reject("endpoints[0]", `path "metrics" must start with /`)),
		c(profStd, "sm-path-env", `path "/metrics/$(HTTPS_PROXY)"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Path = "/metrics/$(HTTPS_PROXY)" })),
			reject("metrics_path", "refers to $(HTTPS_PROXY)")),
		c(profStd, "sm-path-injection", "path with a newline, `---` and a key", sm(ep(func(e *monitoringv1.Endpoint) { e.Path = "/m\n---\nscrape_configs: []" })),
			harmless("the path as one string", jobField("metrics_path", func(j *promconfig.ScrapeConfig) bool { return j.MetricsPath == "/m\n---\nscrape_configs: []" }))),
		c(profStd, "sm-port-regex", `port "web(" (an invalid regex in the keep rule)`, sm(ep(func(e *monitoringv1.Endpoint) { e.Port = "web(" })),
			reject("endpoints[0]: port", "does not compile")),
		c(profStd, "sm-port-env", `port "$(HTTPS_PROXY)"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Port = "$(HTTPS_PROXY)" })),
			reject("relabel_configs", "refers to $(HTTPS_PROXY)")),
		c(profStd, "sm-target-port-zero", "targetPort 0", sm(ep(func(e *monitoringv1.Endpoint) { e.Port = ""; e.TargetPort = ptr.To(intstr.FromInt32(0)) })),
			reject("endpoints[0]", "targetPort must be a port number or name")),
		c(profStd, "sm-params-injection", "params key and values with newlines, `---`, `{{` and `#`", sm(ep(func(e *monitoringv1.Endpoint) {
			e.Params = map[string][]string{"q\n---": {"a: b", "{{ x }}", "# c"}}
		})), harmless("the parameter as written", jobField("params", func(j *promconfig.ScrapeConfig) bool {
			v := j.Params["q\n---"]
			return len(v) == 3 && v[0] == "a: b" && v[1] == "{{ x }}" && v[2] == "# c"
		}))),
		c(profStd, "sm-params-pod-name", `params value "$(POD_NAME)"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Params = map[string][]string{"pod": {"$(POD_NAME)"}} })),
			harmless("the pod's name, expanded by the reloader", jobField("params, expanded by the reloader", func(j *promconfig.ScrapeConfig) bool { return j.Params.Get("pod") == "prometheus-corpus-0" }))),
		c(profStd, "sm-scheme", `scheme "gopher"`, sm(ep(func(e *monitoringv1.Endpoint) { e.Scheme = ptr.To(monitoringv1.Scheme("gopher")) })), schemaErr("spec.endpoints[0].scheme")),
		// Secrets.
		c(profStd, "sm-bearer-missing-secret", "bearerTokenSecret naming a missing Secret", sm(ep(func(e *monitoringv1.Endpoint) {
			e.BearerTokenSecret = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "token"}
		})), reject("bearerTokenSecret", "not found")),
		c(profStd, "sm-bearer-missing-key", "bearerTokenSecret naming a missing key", sm(func(s *SM) {
			s.Spec.Endpoints[0].BearerTokenSecret = skp(s.Name, "nope")
		}).withSecret(map[string]string{"token": "t"}), reject("bearerTokenSecret", `has no key "nope"`)),
		c(profStd, "sm-bearer-env", `bearer token Secret holding "$(HTTPS_PROXY)"`, sm(func(s *SM) {
			s.Spec.Endpoints[0].BearerTokenSecret = skp(s.Name, "token")
		}).withSecret(map[string]string{"token": "$(HTTPS_PROXY)"}), reject("read from a Secret", "refers to an environment variable")),
		c(profStd, "sm-bearer-injection", "bearer token Secret holding a newline, `---` and a key", sm(func(s *SM) {
			s.Spec.Endpoints[0].BearerTokenSecret = skp(s.Name, "token")
		}).withSecret(map[string]string{"token": "tok\n---\nscrape_configs: []"}), harmless("the token as one string", all(credentials("tok\n---\nscrape_configs: []"), textLacks("\nscrape_configs: []")))),
		c(profStd, "sm-basic-missing-secret", "basicAuth naming a missing Secret", sm(ep(func(e *monitoringv1.Endpoint) {
			ref := corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "u"}
			e.BasicAuth = &monitoringv1.BasicAuth{Username: ref, Password: ref}
		})), reject("basicAuth: username", "not found")),
		c(profStd, "sm-authorization-basic", `authorization type "Basic"`, sm(func(s *SM) {
			s.Spec.Endpoints[0].Authorization = &monitoringv1.SafeAuthorization{Type: "Basic", Credentials: skp(s.Name, "t")}
		}).withSecret(map[string]string{"t": "x"}), reject("authorization", `type cannot be "Basic"`)),
		c(profStd, "sm-authorization-missing-key", "authorization credentials naming a missing key", sm(func(s *SM) {
			s.Spec.Endpoints[0].Authorization = &monitoringv1.SafeAuthorization{Credentials: skp(s.Name, "nope")}
		}).withSecret(map[string]string{"t": "x"}), reject("authorization: credentials", `has no key "nope"`)),
		c(profStd, "sm-two-auth", "bearerTokenSecret and basicAuth together", sm(func(s *SM) {
			s.Spec.Endpoints[0].BearerTokenSecret = skp(s.Name, "t")
			s.Spec.Endpoints[0].BasicAuth = &monitoringv1.BasicAuth{Username: sk(s.Name, "t"), Password: sk(s.Name, "t")}
		}).withSecret(map[string]string{"t": "x"}), reject("endpoints[0]", "at most one of authorization, basicAuth, oauth2 and bearer token")),
		c(profStd, "sm-oauth2-token-url", `oauth2 tokenUrl "not a url"`, sm(func(s *SM) {
			s.Spec.Endpoints[0].OAuth2 = &monitoringv1.OAuth2{ClientID: monitoringv1.SecretOrConfigMap{Secret: skp(s.Name, "id")}, ClientSecret: sk(s.Name, "secret"), TokenURL: "not a url"}
		}), schemaErr("spec.endpoints[0].oauth2.tokenUrl")),
		c(profStd, "sm-oauth2-missing-secret", "oauth2 clientSecret naming a missing Secret", sm(func(s *SM) {
			s.Spec.Endpoints[0].OAuth2 = &monitoringv1.OAuth2{ClientID: monitoringv1.SecretOrConfigMap{Secret: skp(s.Name, "id")},
				ClientSecret: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "secret"}, TokenURL: "https://auth.corpus.example/token"}
		}).withSecret(map[string]string{"id": "client"}), reject("oauth2: clientSecret", "not found")),
		// TLS material.
		c(profStd, "sm-tls-ca-garbage", "tlsConfig.ca from a Secret holding no certificate", sm(func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = tlsFrom(s.Name, "ca.crt", "", "")
		}).withSecret(map[string]string{"ca.crt": "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n"}), reject("tlsConfig: ca", "")),
		c(profStd, "sm-tls-cert-key-garbage", "tlsConfig cert and keySecret that do not parse", sm(func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = tlsFrom(s.Name, "", "tls.crt", "tls.key")
		}).withSecret(map[string]string{"tls.crt": "CERT", "tls.key": "KEY"}), reject("tlsConfig: cert", "")),
		c(profStd, "sm-tls-key-mismatch", "tlsConfig keySecret of another certificate", sm(func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = tlsFrom(s.Name, "ca.crt", "tls.crt", "tls.key")
		}).withSecret(map[string]string{"ca.crt": m.ca, "tls.crt": m.cert, "tls.key": m.otherKey}), reject("tlsConfig: cert", "private key does not match public key")),
		c(profStd, "sm-tls-ca-empty", "tlsConfig.ca from an empty Secret key", sm(func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = tlsFrom(s.Name, "ca.crt", "", "")
		}).withSecret(map[string]string{"ca.crt": ""}), reject("tlsConfig: ca", "no PEM-encoded certificate")),
		c(profStd, "sm-tls-ca-bundle-huge", "tlsConfig.ca from a Secret holding 1 MB of valid certificates", sm(func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = tlsFrom(s.Name, "ca.crt", "", "")
		}).withSecret(map[string]string{"ca.crt": strings.Repeat(m.ca, 1000*1000/len(m.ca))}), reject("tlsConfig: ca", "more than the 524288 bytes")),
		c(profStd, "sm-tls-versions", "tlsConfig minVersion TLS13 above maxVersion TLS12", sm(ep(func(e *monitoringv1.Endpoint) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{MinVersion: ptr.To(monitoringv1.TLSVersion13), MaxVersion: ptr.To(monitoringv1.TLSVersion12)}}
		})), reject("tlsConfig", "maxVersion")),
		c(profStd, "sm-tls-ca-missing-configmap", "tlsConfig.ca naming a missing ConfigMap", sm(ep(func(e *monitoringv1.Endpoint) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{ConfigMap: &corev1.ConfigMapKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "ca.crt"}}}}
		})), reject("tlsConfig: ca", "not found")),
		c(profStd, "sm-tls-ca-optional-missing", "tlsConfig.ca optional, its Secret missing", sm(ep(func(e *monitoringv1.Endpoint) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "ca.crt", Optional: ptr.To(true)}}}}
		})), harmless("a tls_config without a CA", jobField("tls_config without a CA", func(j *promconfig.ScrapeConfig) bool { return j.HTTPClientConfig.TLSConfig.CAFile == "" }))),
		c(profStd, "sm-tls-cert-no-key", "tlsConfig cert without a key", sm(func(s *SM) { s.Spec.Endpoints[0].TLSConfig = tlsFrom(s.Name, "", "tls.crt", "") }).
			withSecret(map[string]string{"tls.crt": m.cert}), reject("tlsConfig", "cannot specify client cert without client key")),
		c(profStd, "sm-tls-server-name-injection", "tlsConfig.serverName with a newline and `---`", sm(ep(func(e *monitoringv1.Endpoint) {
			e.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{ServerName: ptr.To("a\n---\nb: c")}}
		})), harmless("the server name as one string", jobField("server_name", func(j *promconfig.ScrapeConfig) bool {
			return j.HTTPClientConfig.TLSConfig.ServerName == "a\n---\nb: c"
		}))),
		// Proxy.
		c(profStd, "sm-proxy-url", `proxyUrl "proxy:3128"`, sm(ep(func(e *monitoringv1.Endpoint) { e.ProxyURL = ptr.To("proxy:3128") })), schemaErr("spec.endpoints[0].proxyUrl")),
		c(profStd, "sm-no-proxy-alone", "noProxy without proxyUrl", sm(ep(func(e *monitoringv1.Endpoint) { e.NoProxy = ptr.To("10.0.0.0/8") })),
			reject("endpoints[0]", "noProxy is configured, proxyUrl must also be configured")),
		c(profStd, "sm-proxy-header-missing", "proxyConnectHeader naming a missing Secret", sm(ep(func(e *monitoringv1.Endpoint) {
			e.ProxyURL = ptr.To("http://proxy.corpus.example:3128")
			e.ProxyConnectHeader = map[string][]corev1.SecretKeySelector{"Proxy-Authorization": {{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "h"}}}
		})), reject("proxyConnectHeader[Proxy-Authorization][0]", "not found")),
		// Monitor-level fields.
		c(profStd, "sm-protocol", `scrapeProtocols ["Carrier pigeon"]`, sm(func(s *SM) { s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{"Carrier pigeon"} }),
			schemaErr("spec.scrapeProtocols[0]")),
		c(profStd, "sm-sample-limit", "sampleLimit -1", sm(func(s *SM) { s.Spec.SampleLimit = ptr.To(int64(-1)) }), schemaErr("spec.sampleLimit")),
		c(profStd, "sm-body-size", `bodySizeLimit "lots"`, sm(func(s *SM) { s.Spec.BodySizeLimit = ptr.To(monitoringv1.ByteSize("lots")) }), schemaErr("spec.bodySizeLimit")),
		c(profStd, "sm-selector-operator", `selector operator "Near"`, sm(func(s *SM) {
			s.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near", Values: []string{"x"}}}
		}), reject("selector", "")),
		c(profStd, "sm-selector-label-injection", "selector label key with a space and a newline", sm(func(s *SM) {
			s.Spec.Selector.MatchLabels = map[string]string{"app name\n---": "x\n- y"}
		}), reject("invalid selector", "name part must consist of alphanumeric characters")),
		c(profStd, "sm-scrape-class", `scrapeClass "gold", not defined`, sm(func(s *SM) { s.Spec.ScrapeClassName = ptr.To("gold") }),
			reject("scrape class", `"gold" is not defined`)),
		c(profStd, "sm-discovery-role", `serviceDiscoveryRole "Ingress"`, sm(func(s *SM) { s.Spec.ServiceDiscoveryRole = ptr.To(monitoringv1.ServiceDiscoveryRole("Ingress")) }),
			schemaErr("spec.serviceDiscoveryRole")),
		c(profStd, "sm-no-endpoints", "no endpoints", sm(func(s *SM) { s.Spec.Endpoints = nil }), schemaErr("spec.endpoints")),
		// Size.
		c(profStd, "sm-endpoints-1001", "1,001 endpoints", sm(func(s *SM) { s.Spec.Endpoints = manyEndpoints(1001, "") }),
			reject("endpoints", "1001 endpoints, more than the 1000")),
		c(profLegacy, "sm-endpoints-1000", "1,000 endpoints (the limit)", sm(func(s *SM) { s.Spec.Endpoints = manyEndpoints(1000, "") }),
			harmless("1,000 jobs", func(g *generated, r *run) error {
				if n := len(g.jobsOf(kSM, r.ns, r.c.name)); n != 1000 {
					return fmt.Errorf("%d jobs, want 1000", n)
				}
				return nil
			})),
		c(profStd, "sm-endpoints-large", "1,000 endpoints of 1.2 KiB each, rendering to more than 2 MiB", sm(func(s *SM) {
			s.Spec.Endpoints = manyEndpoints(1000, strings.Repeat("p", 1200))
		}), reject("jobs render to more than", "")),
		c(profStd, "sm-huge-compressible", "a 1.4 MB relabel replacement of one repeated letter", sm(ep(func(e *monitoringv1.Endpoint) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("", "big", strings.Repeat("x", 1400*1000))}
		})), harmless("the job (the text gzips to a few KiB)", hasRelabel(false, "the 1.4 MB replacement", func(c *relabel.Config) bool { return len(c.Replacement) == 1400*1000 }))),
		c(profStd, "sm-huge-incompressible", "a 1.4 MB relabel replacement of random base64 (about 1 MiB gzipped)", sm(ep(func(e *monitoringv1.Endpoint) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("", "big", incompressible(1400*1000))}
		})), reject("compressed", "")),
		c(profStd, "sm-huge-bad-regex", "a 700 KB relabel regex that does not compile (quoted twice in the message)", sm(ep(func(e *monitoringv1.Endpoint) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("("+strings.Repeat("x", 700*1000), "x", "")}
		})), reject("endpoints[0]: relabelings[0]", "invalid regex")),
		c(profStd, "sm-over-etcd-limit", "a 1.6 MB object, over etcd's request limit", sm(ep(func(e *monitoringv1.Endpoint) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("", "big", strings.Repeat("x", 1600*1000))}
		})), schemaErr("request is too large")),
		// Names.
		c(profStd, long, "a 253-character name (the limit)", sm(nil), harmless("its job, named with the whole name",
			func(g *generated, r *run) error {
				if g.job("serviceMonitor/"+r.ns+"/"+r.c.name+"/0") == nil {
					return fmt.Errorf("no job named with the whole name")
				}
				return nil
			})),
		c(profStd, longBad, "a 253-character name, invalid interval", sm(ep(func(e *monitoringv1.Endpoint) { e.Interval = "0s" })),
			reject("endpoints[0]", "invalid interval")),
		c(profStd, "sm-ünïcode", "a name with non-ASCII letters", sm(nil), schemaErr("metadata.name")),
		// File access and namespaces in the tenant profile.
		c(profTenant, "sm-bearer-file", `bearerTokenFile "/etc/shadow" with file access denied`, sm(ep(func(e *monitoringv1.Endpoint) { e.BearerTokenFile = "/etc/shadow" })),
			reject("bearerTokenFile", "spec.arbitraryFSAccessThroughSMs.deny")),
		c(profTenant, "sm-ca-file", "tlsConfig.caFile with file access denied", sm(ep(func(e *monitoringv1.Endpoint) {
			e.TLSConfig = &monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/prometheus/certs/secret_other_ca.crt"}}
		})), reject("tlsConfig.caFile", "spec.arbitraryFSAccessThroughSMs.deny")),
		c(profTenant, "sm-cert-key-files", "tlsConfig.certFile and keyFile with file access denied", sm(ep(func(e *monitoringv1.Endpoint) {
			e.TLSConfig = &monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CertFile: "/var/run/secrets/kubernetes.io/serviceaccount/token", KeyFile: "/etc/ssl/private/key.pem"}}
		})), reject("tlsConfig.certFile, tlsConfig.keyFile", "spec.arbitraryFSAccessThroughSMs.deny")),
		c(profTenant, "sm-namespace-any", "namespaceSelector any: true with ignoreNamespaceSelectors", sm(func(s *SM) { s.Spec.NamespaceSelector.Any = true }),
			harmless("discovery in its own namespace only", confined())),
		c(profTenant, "sm-namespace-others", `namespaceSelector matchNames ["kube-system", "default"] with ignoreNamespaceSelectors`,
			sm(func(s *SM) { s.Spec.NamespaceSelector.MatchNames = []string{"kube-system", "default"} }), harmless("discovery in its own namespace only", confined())),
		c(profTenant, "sm-tls-long-names", "tlsConfig.ca from a Secret with a 253-character name and key, in a 63-character namespace", func(ns, name string) []client.Object {
			secName := longName("ca-", 253)
			key := longName("ca.", 253)
			s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: secName}, StringData: map[string]string{key: m.ca}}
			return []client.Object{s, newSM(ns, name, func(sm *SM) {
				sm.Spec.Endpoints[0].TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: secName}, Key: key}}}}
			})}
		}, harmless("a CA file in the tls-assets mount", jobField("a CA file in the tls-assets mount", func(j *promconfig.ScrapeConfig) bool {
			return strings.HasPrefix(j.HTTPClientConfig.TLSConfig.CAFile, "/etc/prometheus/certs/")
		}))),
	}
	// A valid monitor broken by an edit: it is left out.
	cases = append(cases, corpusCase{kind: kSM, profile: profStd, name: "sm-edit-broken", input: "a valid ServiceMonitor edited to an invalid regex",
		before: sm(nil), edit: func(ns, name string) error {
			s := newSM(ns, name, nil)
			return updateObj(s, func() { s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{rl("(", "x", "")} })
		}, want: reject("endpoints[0]: relabelings[0]", "invalid regex")})
	return cases
}

// manyEndpoints returns n endpoints, each with a distinct port (and pad as a parameter).
func manyEndpoints(n int, pad string) []monitoringv1.Endpoint {
	eps := make([]monitoringv1.Endpoint, n)
	for i := range eps {
		eps[i] = monitoringv1.Endpoint{Port: fmt.Sprintf("p%d", i)}
		if pad != "" {
			eps[i].Params = map[string][]string{"pad": {pad}}
		}
	}
	return eps
}
