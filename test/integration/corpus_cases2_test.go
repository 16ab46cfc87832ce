//lint:file-ignore SA1019 the corpus uses the deprecated fields of the API Lookout serves, as tenants do

package integration

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	promconfig "github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/model/relabel"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const garbageCA = "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n"

func podMonitorCases() []corpusCase {
	ep := func(f func(e *monitoringv1.PodMetricsEndpoint)) func(*PM) {
		return func(p *PM) { f(&p.Spec.PodMetricsEndpoints[0]) }
	}
	c := func(profile, name, input string, o objs, w expect) corpusCase {
		return corpusCase{kind: kPM, profile: profile, name: name, input: input, objs: o, want: w}
	}
	return []corpusCase{
		c(profStd, "pm-port-number", "portNumber 70000", pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Port = nil; e.PortNumber = ptr.To(int32(70000)) })),
			schemaErr("spec.podMetricsEndpoints[0].portNumber")),
		c(profStd, "pm-port-regex", `port "web(" (an invalid regex in the keep rule)`, pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Port = ptr.To("web(") })),
			reject("podMetricsEndpoints[0]: port", "does not compile")),
		c(profStd, "pm-port-env", `port "$(HTTPS_PROXY)"`, pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Port = ptr.To("$(HTTPS_PROXY)") })),
			reject("relabel_configs", "refers to $(HTTPS_PROXY)")),
		c(profStd, "pm-target-port-zero", "targetPort 0", pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Port = nil; e.TargetPort = ptr.To(intstr.FromInt32(0)) })),
			reject("podMetricsEndpoints[0]", "targetPort must be a port number or name")),
		c(profStd, "pm-interval-zero", `interval "0s"`, pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Interval = "0s" })),
			reject("podMetricsEndpoints[0]", "invalid interval")),
		c(profStd, "pm-timeout-above-interval", "scrapeTimeout 1m above interval 30s", pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Interval = "30s"; e.ScrapeTimeout = "1m" })),
			reject("podMetricsEndpoints[0]", "scrapeTimeout 1m is greater than the scrape interval 30s")),
		c(profStd, "pm-interval-unit", `interval "5x"`, pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Interval = "5x" })), schemaErr("spec.podMetricsEndpoints[0].interval")),
		c(profStd, "pm-path-relative", `path "metrics"`, pm(ep(func(e *monitoringv1.PodMetricsEndpoint) { e.Path = "metrics" })),
			reject("podMetricsEndpoints[0]", "must start with /")),
		c(profStd, "pm-params-injection", "params with a newline, `---` and a key", pm(ep(func(e *monitoringv1.PodMetricsEndpoint) {
			e.Params = map[string][]string{"module": {"x\n---\nscrape_configs: []"}}
		})), harmless("the parameter as one string", all(jobField("params", func(j *promconfig.ScrapeConfig) bool { return j.Params.Get("module") == "x\n---\nscrape_configs: []" }), textLacks("\nscrape_configs: []")))),
		c(profStd, "pm-pod-target-labels-empty", `podTargetLabels [""]`, pm(func(p *PM) { p.Spec.PodTargetLabels = []string{""} }),
			reject("podTargetLabels[0]", `"" is not a valid label name`)),
		c(profLegacy, "pm-pod-target-labels-digit", `podTargetLabels ["1abc"] under Legacy`, pm(func(p *PM) { p.Spec.PodTargetLabels = []string{"1abc"} }),
			reject("podTargetLabels[0]", "legacy name validation scheme")),
		c(profStd, "pm-job-label-injection", "jobLabel with a newline and `---`", pm(func(p *PM) { p.Spec.JobLabel = "x\n---" }),
			harmless("the label name sanitized in the source label", hasRelabel(false, "the sanitized source label", source("__meta_kubernetes_pod_label_x____")))),
		c(profStd, "pm-endpoints-1001", "1,001 podMetricsEndpoints", pm(func(p *PM) {
			p.Spec.PodMetricsEndpoints = make([]monitoringv1.PodMetricsEndpoint, 1001)
			for i := range p.Spec.PodMetricsEndpoints {
				p.Spec.PodMetricsEndpoints[i].Port = ptr.To(fmt.Sprintf("p%d", i))
			}
		}), reject("podMetricsEndpoints", "1001 endpoints, more than the 1000")),
		c(profStd, "pm-no-endpoints", "no podMetricsEndpoints", pm(func(p *PM) { p.Spec.PodMetricsEndpoints = nil }),
			reject("podMetricsEndpoints", "at least one endpoint is required")),
		c(profStd, "pm-bearer-missing-secret", "bearerTokenSecret naming a missing Secret", pm(ep(func(e *monitoringv1.PodMetricsEndpoint) {
			e.BearerTokenSecret = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "t"}
		})), reject("bearerTokenSecret", "not found")),
		c(profStd, "pm-basic-password-env", `basicAuth password Secret holding "$(HTTPS_PROXY)"`, pm(func(p *PM) {
			p.Spec.PodMetricsEndpoints[0].BasicAuth = &monitoringv1.BasicAuth{Username: sk(p.Name, "u"), Password: sk(p.Name, "p")}
		}).withSecret(map[string]string{"u": "user", "p": "$(HTTPS_PROXY)"}), reject("basic_auth.password, read from a Secret", "refers to an environment variable")),
		c(profStd, "pm-basic-password-injection", "basicAuth password with a newline, quotes and `#`", pm(func(p *PM) {
			p.Spec.PodMetricsEndpoints[0].BasicAuth = &monitoringv1.BasicAuth{Username: sk(p.Name, "u"), Password: sk(p.Name, "p")}
		}).withSecret(map[string]string{"u": "user", "p": "pw\"\n# ' {{"}), harmless("the password as one string", basicPassword("pw\"\n# ' {{"))),
		c(profStd, "pm-tls-ca-garbage", "tlsConfig.ca from a Secret holding no certificate", pm(func(p *PM) {
			p.Spec.PodMetricsEndpoints[0].TLSConfig = &monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: skp(p.Name, "ca.crt")}}
		}).withSecret(map[string]string{"ca.crt": garbageCA}), reject("tlsConfig: ca", "")),
		c(profStd, "pm-selector-operator", `selector operator "Near"`, pm(func(p *PM) {
			p.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}
		}), reject("selector", "")),
		c(profTenant, "pm-namespace-others", `namespaceSelector matchNames ["kube-system"] with ignoreNamespaceSelectors`,
			pm(func(p *PM) { p.Spec.NamespaceSelector.MatchNames = []string{"kube-system"} }), harmless("discovery in its own namespace only", confined())),
		c(profTenant, "pm-namespace-label-override", "metricRelabelings writing the enforced namespace label", pm(ep(func(e *monitoringv1.PodMetricsEndpoint) {
			e.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("", "namespace", "kube-system")}
		})), harmless("the enforced namespace label set after the tenant's rules", enforcedLast())),
	}
}

// enforcedLast checks that the last metric relabel rule of the case's jobs sets the
// enforced namespace label to the object's namespace, after anything the tenant wrote.
func enforcedLast() func(g *generated, r *run) error {
	return jobCheck(func(j *promconfig.ScrapeConfig, r *run) error {
		n := len(j.MetricRelabelConfigs)
		if n == 0 {
			return fmt.Errorf("no metric relabel rules")
		}
		last := j.MetricRelabelConfigs[n-1]
		if last.TargetLabel != "namespace" || last.Replacement != r.ns || last.Action != relabel.Replace {
			return fmt.Errorf("last metric relabel rule %+v does not enforce namespace=%s", last, r.ns)
		}
		return nil
	})
}

func probeCases() []corpusCase {
	c := func(profile, name, input string, o objs, w expect) corpusCase {
		return corpusCase{kind: kProbe, profile: profile, name: name, input: input, objs: o, want: w}
	}
	return []corpusCase{
		c(profStd, "probe-url-path", `prober.url "blackbox:9115/probe"`, probe(func(p *Probe) { p.Spec.ProberSpec.URL = "blackbox:9115/probe" }),
			reject("prober.url", "must be a host:port address")),
		c(profStd, "probe-url-empty", "prober.url empty", probe(func(p *Probe) { p.Spec.ProberSpec.URL = "" }), schemaErr("spec.prober.url")),
		c(profStd, "probe-url-env", `prober.url "$(HTTPS_PROXY):9115"`, probe(func(p *Probe) { p.Spec.ProberSpec.URL = "$(HTTPS_PROXY):9115" }),
			reject("replacement", "refers to $(HTTPS_PROXY)")),
		c(profStd, "probe-scheme", `prober.scheme "gopher"`, probe(func(p *Probe) { p.Spec.ProberSpec.Scheme = ptr.To(monitoringv1.Scheme("gopher")) }), schemaErr("spec.prober.scheme")),
		c(profStd, "probe-no-targets", "no targets", probe(func(p *Probe) { p.Spec.Targets = monitoringv1.ProbeTargets{} }), reject("targets", "at least one of")),
		c(profStd, "probe-static-empty", "targets.staticConfig with no targets", probe(func(p *Probe) { p.Spec.Targets.StaticConfig.Targets = nil }),
			reject("targets.staticConfig.static", "at least one target is required")),
		c(profStd, "probe-static-and-ingress", "both staticConfig and ingress targets", probe(func(p *Probe) { p.Spec.Targets.Ingress = &monitoringv1.ProbeTargetIngress{} }),
			reject("targets", "staticConfig and ingress cannot both be set")),
		c(profStd, "probe-target-injection", "a static target with a newline and a job", probe(func(p *Probe) {
			p.Spec.Targets.StaticConfig.Targets = []string{"http://a.corpus.example\n- job_name: injected"}
		}), harmless("the target as one string", all(jobField("the target as one string", func(j *promconfig.ScrapeConfig) bool {
			ts := staticTargets(j)
			return len(ts) == 1 && ts[0] == "http://a.corpus.example\n- job_name: injected"
		}), textLacks("\n- job_name: injected")))),
		c(profStd, "probe-label-injection", "a static label value with a newline, `---` and quotes", probe(func(p *Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"team": yamlInjection}
		}), harmless("the label value as one string", staticLabel("team", yamlInjection))),
		c(profStd, "probe-label-empty-name", `a static label named ""`, probe(func(p *Probe) { p.Spec.Targets.StaticConfig.Labels = map[string]string{"": "x"} }),
			reject("targets.staticConfig.labels", `"" is not a valid label name`)),
		c(profTenant, "probe-label-namespace", `a static label namespace: "kube-system"`, probe(func(p *Probe) {
			p.Spec.Targets.StaticConfig.Labels = map[string]string{"namespace": "kube-system"}
		}), harmless("`namespace` set to the Probe's namespace", func(g *generated, r *run) error { return staticLabel("namespace", r.ns)(g, r) })),
		c(profStd, "probe-module-injection", "module with a newline and `---`", probe(func(p *Probe) { p.Spec.Module = "http_2xx\n---\nscrape_configs: []" }),
			harmless("the module as one string", all(jobField("module", func(j *promconfig.ScrapeConfig) bool {
				return j.Params.Get("module") == "http_2xx\n---\nscrape_configs: []"
			}), textLacks("\nscrape_configs: []")))),
		c(profStd, "probe-params-no-name", "a parameter without a name", probe(func(p *Probe) { p.Spec.Params = []monitoringv1.ProbeParam{{Values: []string{"x"}}} }),
			schemaErr("spec.params[0].name")),
		c(profStd, "probe-interval-zero", `interval "0s"`, probe(func(p *Probe) { p.Spec.Interval = "0s" }), reject("invalid interval", "")),
		c(profStd, "probe-timeout-above-interval", "scrapeTimeout 1m above interval 15s", probe(func(p *Probe) { p.Spec.Interval = "15s"; p.Spec.ScrapeTimeout = "1m" }),
			reject("scrapeTimeout 1m is greater than the scrape interval 15s", "")),
		c(profStd, "probe-job-name-env", `jobName "$(HTTPS_PROXY)"`, probe(func(p *Probe) { p.Spec.JobName = "$(HTTPS_PROXY)" }),
			reject("replacement", "refers to $(HTTPS_PROXY)")),
		c(profStd, "probe-bearer-missing-secret", "bearerTokenSecret naming a missing Secret", probe(func(p *Probe) {
			p.Spec.BearerTokenSecret = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "t"}
		}), reject("bearerTokenSecret", "not found")),
		c(profStd, "probe-tls-ca-garbage", "tlsConfig.ca from a Secret holding no certificate", probe(func(p *Probe) {
			p.Spec.TLSConfig = &monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: skp(p.Name, "ca.crt")}}
		}).withSecret(map[string]string{"ca.crt": "just text"}), reject("tlsConfig: ca", "")),
		c(profTenant, "probe-ingress-any-namespace", "ingress targets in any namespace with ignoreNamespaceSelectors", probe(func(p *Probe) {
			p.Spec.Targets = monitoringv1.ProbeTargets{Ingress: &monitoringv1.ProbeTargetIngress{NamespaceSelector: monitoringv1.NamespaceSelector{Any: true}}}
		}), harmless("discovery in its own namespace only", confined())),
	}
}

func scrapeConfigCases() []corpusCase {
	m := tlsMaterial()
	c := func(profile, name, input string, o objs, w expect) corpusCase {
		return corpusCase{kind: kSC, profile: profile, name: name, input: input, objs: o, want: w}
	}
	k8sSD := func(f func(k *monitoringv1alpha1.KubernetesSDConfig)) objs {
		return sc(func(s *SC) {
			s.Spec.StaticConfigs = nil
			k := monitoringv1alpha1.KubernetesSDConfig{Role: monitoringv1alpha1.KubernetesRolePod}
			f(&k)
			s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{k}
		})
	}
	victimTLS := func(name string) *monitoringv1.SafeTLSConfig {
		return &monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: skp(name, "ca.crt")}}
	}
	cases := []corpusCase{
		c(profStd, "sc-static-no-targets", "a staticConfigs entry with no targets", sc(func(s *SC) { s.Spec.StaticConfigs[0].Targets = nil }),
			schemaErr("spec.staticConfigs[0].targets")),
		c(profStd, "sc-static-target-injection", "a static target with a newline and a job", sc(func(s *SC) {
			s.Spec.StaticConfigs[0].Targets = []monitoringv1alpha1.Target{"192.0.2.11:80\n- job_name: injected"}
		}), harmless("the target as one string", all(jobField("the target as one string", func(j *promconfig.ScrapeConfig) bool {
			ts := staticTargets(j)
			return len(ts) == 1 && ts[0] == "192.0.2.11:80\n- job_name: injected"
		}), textLacks("\n- job_name: injected")))),
		c(profStd, "sc-static-target-pod-name", `a static target "$(POD_NAME):9090"`, sc(func(s *SC) { s.Spec.StaticConfigs[0].Targets = []monitoringv1alpha1.Target{"$(POD_NAME):9090"} }),
			harmless("the pod's name, expanded by the reloader", jobField("the target, expanded by the reloader", func(j *promconfig.ScrapeConfig) bool {
				ts := staticTargets(j)
				return len(ts) == 1 && ts[0] == "prometheus-corpus-0:9090"
			}))),
		c(profStd, "sc-static-target-env", `a static target "$(KUBERNETES_SERVICE_HOST):443"`, sc(func(s *SC) {
			s.Spec.StaticConfigs[0].Targets = []monitoringv1alpha1.Target{"$(KUBERNETES_SERVICE_HOST):443"}
		}), reject("static_configs", "refers to $(KUBERNETES_SERVICE_HOST)")),
		c(profStd, "sc-static-label-injection", "a static label value with a newline, `---` and quotes", sc(func(s *SC) {
			s.Spec.StaticConfigs[0].Labels = map[string]string{"team": yamlInjection}
		}), harmless("the label value as one string", staticLabel("team", yamlInjection))),
		c(profStd, "sc-static-label-empty-name", `a static label named ""`, sc(func(s *SC) { s.Spec.StaticConfigs[0].Labels = map[string]string{"": "x"} }),
			reject("staticConfigs[0].labels", `"" is not a valid label name`)),
		c(profLegacy, "sc-static-label-digit", `a static label "1abc" under Legacy (Prometheus 3 loads static labels as UTF-8)`, sc(func(s *SC) {
			s.Spec.StaticConfigs[0].Labels = map[string]string{"1abc": "x"}
		}), harmless("the label as written (static labels are UTF-8 in Prometheus 3)", staticLabel("1abc", "x"))),
		c(profTenant, "sc-file-sd", "fileSDConfigs with file access denied", sc(func(s *SC) {
			s.Spec.FileSDConfigs = []monitoringv1alpha1.FileSDConfig{{Files: []monitoringv1alpha1.SDFile{"/etc/prometheus/secrets/other/targets.json"}}}
		}), reject("fileSDConfigs", "spec.arbitraryFSAccessThroughSMs.deny")),
		c(profStd, "sc-file-sd-path", `fileSDConfigs file "/etc/shadow"`, sc(func(s *SC) {
			s.Spec.FileSDConfigs = []monitoringv1alpha1.FileSDConfig{{Files: []monitoringv1alpha1.SDFile{"/etc/shadow"}}}
		}), schemaErr("spec.fileSDConfigs[0].files[0]")),
		c(profTenant, "sc-k8s-other-namespaces", `kubernetesSDConfigs naming ["kube-system", "default"] with ignoreNamespaceSelectors`, k8sSD(func(k *monitoringv1alpha1.KubernetesSDConfig) {
			k.Namespaces = &monitoringv1alpha1.NamespaceDiscovery{Names: []string{"kube-system", "default"}}
		}), harmless("discovery in its own namespace only", confined())),
		c(profTenant, "sc-k8s-all-namespaces", "kubernetesSDConfigs with namespaces: {} (all) with ignoreNamespaceSelectors", k8sSD(func(k *monitoringv1alpha1.KubernetesSDConfig) {
			k.Namespaces = &monitoringv1alpha1.NamespaceDiscovery{}
		}), harmless("discovery in its own namespace only", confined())),
		c(profTenant, "sc-k8s-node", "kubernetesSDConfigs role Node with ignoreNamespaceSelectors", k8sSD(func(k *monitoringv1alpha1.KubernetesSDConfig) {
			k.Role = monitoringv1alpha1.KubernetesRoleNode
		}), reject("kubernetesSDConfigs[0]", "role Node discovers cluster-wide objects")),
		c(profStd, "sc-k8s-role", `kubernetesSDConfigs role "Gopher"`, k8sSD(func(k *monitoringv1alpha1.KubernetesSDConfig) { k.Role = "Gopher" }),
			schemaErr("spec.kubernetesSDConfigs[0].role")),
		c(profStd, "sc-k8s-auth-no-server", "kubernetesSDConfigs basicAuth without apiServer", k8sSD(func(k *monitoringv1alpha1.KubernetesSDConfig) {
			k.BasicAuth = &monitoringv1.BasicAuth{Username: sk("sc-k8s-auth-no-server", "u"), Password: sk("sc-k8s-auth-no-server", "p")}
		}).withSecret(map[string]string{"u": "user", "p": "pass"}), reject("rejected by Prometheus's config loader", "")),
		c(profStd, "sc-k8s-api-server-env", `kubernetesSDConfigs apiServer "https://$(KUBERNETES_SERVICE_HOST)"`, k8sSD(func(k *monitoringv1alpha1.KubernetesSDConfig) {
			k.APIServer = ptr.To("https://$(KUBERNETES_SERVICE_HOST)")
		}), reject("api_server", "refers to $(KUBERNETES_SERVICE_HOST)")),
		c(profStd, "sc-http-sd-scheme", `httpSDConfigs url "ftp://sd.corpus.example"`, sc(func(s *SC) {
			s.Spec.HTTPSDConfigs = []monitoringv1alpha1.HTTPSDConfig{{URL: "ftp://sd.corpus.example"}}
		}), schemaErr("spec.httpSDConfigs[0].url")),
		c(profStd, "sc-http-sd-env", `httpSDConfigs url "http://$(HTTPS_PROXY)/sd"`, sc(func(s *SC) {
			s.Spec.HTTPSDConfigs = []monitoringv1alpha1.HTTPSDConfig{{URL: "http://$(HTTPS_PROXY)/sd"}}
		}), reject("http_sd_configs[0].url", "refers to $(HTTPS_PROXY)")),
		c(profStd, "sc-dns-no-port", "dnsSDConfigs type A without a port", sc(func(s *SC) {
			s.Spec.DNSSDConfigs = []monitoringv1alpha1.DNSSDConfig{{Names: []string{"corpus.example"}, Type: ptr.To(monitoringv1alpha1.DNSRecordType("A"))}}
		}), reject("rejected by Prometheus's config loader", "port is required")),
		c(profStd, "sc-dns-no-names", "dnsSDConfigs with no names", sc(func(s *SC) { s.Spec.DNSSDConfigs = []monitoringv1alpha1.DNSSDConfig{{}} }),
			schemaErr("spec.dnsSDConfigs[0].names")),
		c(profStd, "sc-consul", "consulSDConfigs with a token Secret that does not exist", sc(func(s *SC) {
			s.Spec.ConsulSDConfigs = []monitoringv1alpha1.ConsulSDConfig{{Server: "consul.corpus.example:8500",
				TokenRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "ghost"}, Key: "token"}}}
		}), reject("consulSDConfigs[0]: tokenRef", "not found")),
		c(profStd, "sc-interval-unit", `scrapeInterval "5x"`, sc(func(s *SC) { s.Spec.ScrapeInterval = ptr.To(monitoringv1.Duration("5x")) }), schemaErr("spec.scrapeInterval")),
		c(profStd, "sc-timeout-above-interval", "scrapeTimeout 20s above scrapeInterval 10s", sc(func(s *SC) {
			s.Spec.ScrapeInterval, s.Spec.ScrapeTimeout = ptr.To(monitoringv1.Duration("10s")), ptr.To(monitoringv1.Duration("20s"))
		}), reject("scrapeTimeout 20s is greater than the scrape interval 10s", "")),
		c(profStd, "sc-path-relative", `metricsPath "metrics"`, sc(func(s *SC) { s.Spec.MetricsPath = ptr.To("metrics") }), reject(`path "metrics" must start with /`, "")),
		c(profStd, "sc-job-name-env", `jobName "$(HTTPS_PROXY)"`, sc(func(s *SC) { s.Spec.JobName = ptr.To("$(HTTPS_PROXY)") }),
			reject("replacement", "refers to $(HTTPS_PROXY)")),
		c(profStd, "sc-job-name-injection", "jobName with a newline, `---` and a key", sc(func(s *SC) { s.Spec.JobName = ptr.To("x\n---\nscrape_configs: []") }),
			harmless("the job label as one string", all(hasRelabel(false, "the job label as written", func(c *relabel.Config) bool {
				return c.TargetLabel == "job" && c.Replacement == "x\n---\nscrape_configs: []"
			}), textLacks("\nscrape_configs: []")))),
		c(profStd, "sc-params-injection", "params key with a newline, values with `{{` and `#`", sc(func(s *SC) {
			s.Spec.Params = map[string][]string{"q\n": {"{{ x }}", "# y"}}
		}), harmless("the parameters as written", jobField("params", func(j *promconfig.ScrapeConfig) bool {
			v := j.Params["q\n"]
			return len(v) == 2 && v[0] == "{{ x }}" && v[1] == "# y"
		}))),
		c(profStd, "sc-basic-missing-secret", "basicAuth naming a missing Secret", sc(func(s *SC) {
			ref := corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "u"}
			s.Spec.BasicAuth = &monitoringv1.BasicAuth{Username: ref, Password: ref}
		}), reject("basicAuth: username", "not found")),
		c(profStd, "sc-authorization-injection", "authorization credentials with a newline, `---` and a key", sc(func(s *SC) {
			s.Spec.Authorization = &monitoringv1.SafeAuthorization{Credentials: skp(s.Name, "t")}
		}).withSecret(map[string]string{"t": "tok\n---\nscrape_configs: []"}), harmless("the credentials as one string", all(credentials("tok\n---\nscrape_configs: []"), textLacks("\nscrape_configs: []")))),
		c(profStd, "sc-tls-ca-garbage", "tlsConfig.ca from a Secret holding a private key, not a certificate", sc(func(s *SC) {
			s.Spec.TLSConfig = victimTLS(s.Name)
		}).withSecret(map[string]string{"ca.crt": m.otherKey}), reject("tlsConfig: ca", "")),
		c(profStd, "sc-protocol", `scrapeProtocols ["Carrier pigeon"]`, sc(func(s *SC) { s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{"Carrier pigeon"} }),
			schemaErr("spec.scrapeProtocols[0]")),
		c(profTenant, "sc-namespace-label-override", "metricRelabelings writing the enforced namespace label", sc(func(s *SC) {
			s.Spec.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("", "namespace", "kube-system")}
		}), harmless("the enforced namespace label set after the tenant's rules", enforcedLast())),
	}
	// A static job whose CA Secret turns to garbage: the real Prometheus already runs it,
	// so keeping it would fail the reload.
	cases = append(cases, corpusCase{kind: kSC, profile: profStd, name: "sc-edit-ca-garbage",
		input:  "a valid ScrapeConfig whose CA Secret is replaced by text that is no certificate",
		before: sc(func(s *SC) { s.Spec.TLSConfig = victimTLS(s.Name) }).withSecret(map[string]string{"ca.crt": m.ca}),
		edit: func(ns, name string) error {
			s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-s"}}
			return updateObj(s, func() { s.Data = map[string][]byte{"ca.crt": []byte("no longer a certificate")} })
		}, want: reject("tlsConfig: ca", "")})
	return cases
}

func ruleCases() []corpusCase {
	c := func(profile, name, input string, o objs, w expect) corpusCase {
		return corpusCase{kind: kRule, profile: profile, name: name, input: input, objs: o, want: w}
	}
	first := func(f func(r *monitoringv1.Rule)) objs { return rule(func(r *Rule) { f(&r.Spec.Groups[0].Rules[0]) }) }
	expr := func(e string) objs { return first(func(r *monitoringv1.Rule) { r.Expr = intstr.FromString(e) }) }
	const at = "spec.groups[0].rules[0]"
	annotationInjection := "a\n---\ngroups: []\n# \"q\" 'x' #"
	longOK := longName("rule-long-name-", 253)
	longBad := longName("rule-long-name-invalid-", 253)
	cases := []corpusCase{
		c(profStd, "rule-expr-incomplete", `expr "up =="`, expr("up =="), reject(at+".expr", "parse error")),
		c(profStd, "rule-expr-paren", `expr "sum(rate(x[5m])" (unclosed parenthesis)`, expr("sum(rate(x[5m])"), reject(at+".expr", "")),
		c(profStd, "rule-expr-type", `expr "rate(up)" (instant vector where a range is needed)`, expr("rate(up)"), reject(at+".expr", "expected type range vector")),
		c(profStd, "rule-expr-string", `expr "\"text\"" (a string)`, expr(`"text"`), reject(at+".expr", "")),
		c(profStd, "rule-expr-range", `expr "up[5m]" (a range vector)`, expr("up[5m]"), reject(at+".expr", "range vector")),
		c(profStd, "rule-expr-empty", `expr ""`, expr(""), reject(at+".expr", "")),
		c(profStd, "rule-expr-experimental", `expr "sort_by_label(up, \"job\")" without the feature flag`, expr(`sort_by_label(up, "job")`),
			reject(at+".expr", "promql-experimental-functions")),
		c(profStd, "rule-expr-comment-injection", "expr with comments holding `---` and a key", expr("up == 0 # ---\n# groups: []"),
			harmless("the expression with its comments, as written", func(g *generated, r *run) error {
				gs, err := g.ruleGroups(r)
				if err != nil {
					return err
				}
				if e := gs.Groups[0].Rules[0].Expr; e != "up == 0 # ---\n# groups: []" {
					return fmt.Errorf("expr %q", e)
				}
				return nil
			})),
		c(profStd, "rule-expr-number", "expr given as the number 42", first(func(r *monitoringv1.Rule) { r.Expr = intstr.FromInt32(42) }),
			harmless("the expression `42`", ruleCheck(func(r rulefmtRule) error {
				if r.Expr != "42" {
					return fmt.Errorf("expr %q", r.Expr)
				}
				return nil
			}))),
		c(profStd, "rule-groups-duplicate", "two groups with one name", rule(func(r *Rule) { r.Spec.Groups = append(r.Spec.Groups, r.Spec.Groups[0]) }),
			schemaErr("spec.groups[1]")),
		c(profStd, "rule-group-name-empty", "a group without a name", rule(func(r *Rule) { r.Spec.Groups[0].Name = "" }), schemaErr("spec.groups[0].name")),
		c(profStd, "rule-group-no-rules", "a group with no rules", rule(func(r *Rule) { r.Spec.Groups[0].Rules = nil }), reject("spec.groups[0].rules", "group has no rules")),
		c(profStd, "rule-group-name-injection", "a group name with a newline, `---` and a key", rule(func(r *Rule) { r.Spec.Groups[0].Name = "g\n---\ngroups: []" }),
			harmless("the group name as one string", func(g *generated, r *run) error {
				gs, err := g.ruleGroups(r)
				if err != nil {
					return err
				}
				if len(gs.Groups) != 1 || gs.Groups[0].Name != "g\n---\ngroups: []" {
					return fmt.Errorf("groups %+v", gs.Groups)
				}
				return nil
			})),
		c(profStd, "rule-annotation-unclosed", `annotation "{{ .Labels.x"`, first(func(r *monitoringv1.Rule) { r.Annotations["summary"] = "{{ .Labels.x" }),
			reject(at+".annotations[summary]", "invalid template")),
		c(profStd, "rule-annotation-function", `annotation "{{ humanizeFoo 1 }}"`, first(func(r *monitoringv1.Rule) { r.Annotations["summary"] = "{{ humanizeFoo 1 }}" }),
			reject(at+".annotations[summary]", `function "humanizeFoo" not defined`)),
		c(profStd, "rule-label-template", `label value "{{ end }}"`, first(func(r *monitoringv1.Rule) { r.Labels["severity"] = "{{ end }}" }),
			reject(at+".labels[severity]", "invalid template")),
		c(profStd, "rule-annotation-injection", "an annotation with a newline, `---`, a key and quotes", first(func(r *monitoringv1.Rule) { r.Annotations["summary"] = annotationInjection }),
			harmless("the annotation as one string", ruleCheck(func(r rulefmtRule) error {
				if r.Annotations["summary"] != annotationInjection {
					return fmt.Errorf("annotation %q", r.Annotations["summary"])
				}
				return nil
			}))),
		c(profStd, "rule-annotation-env", `an annotation "$(HTTPS_PROXY)" (rule files are not expanded)`, first(func(r *monitoringv1.Rule) { r.Annotations["summary"] = "$(HTTPS_PROXY)" }),
			harmless("the annotation as written (rule files are not expanded)", ruleCheck(func(r rulefmtRule) error {
				if r.Annotations["summary"] != "$(HTTPS_PROXY)" {
					return fmt.Errorf("annotation %q", r.Annotations["summary"])
				}
				return nil
			}))),
		c(profStd, "rule-alert-unicode", `alert "Ünïcödé 🚨" with a unicode annotation`, first(func(r *monitoringv1.Rule) {
			r.Alert = "Ünïcödé 🚨"
			r.Annotations["summary"] = "ターゲットがダウン"
		}), harmless("the alert as written", ruleCheck(func(r rulefmtRule) error {
			if r.Alert != "Ünïcödé 🚨" {
				return fmt.Errorf("alert %q", r.Alert)
			}
			return nil
		}))),
		c(profStd, "rule-for-unit", `for "5x"`, first(func(r *monitoringv1.Rule) { r.For = ptr.To(monitoringv1.Duration("5x")) }), schemaErr(at+".for")),
		c(profStd, "rule-keep-firing-unit", `keep_firing_for "5x"`, first(func(r *monitoringv1.Rule) { r.KeepFiringFor = ptr.To(monitoringv1.NonEmptyDuration("5x")) }),
			schemaErr(at+".keep_firing_for")),
		c(profStd, "rule-interval-unit", `group interval "5x"`, rule(func(r *Rule) { r.Spec.Groups[0].Interval = ptr.To(monitoringv1.Duration("5x")) }), schemaErr("spec.groups[0].interval")),
		c(profStd, "rule-query-offset-unit", `group query_offset "5x"`, rule(func(r *Rule) { r.Spec.Groups[0].QueryOffset = ptr.To(monitoringv1.Duration("5x")) }),
			schemaErr("spec.groups[0].query_offset")),
		c(profStd, "rule-limit-negative", "group limit -1", rule(func(r *Rule) { r.Spec.Groups[0].Limit = ptr.To(-1) }),
			harmless("the limit as written, which Prometheus reads as no limit", func(g *generated, r *run) error {
				gs, err := g.ruleGroups(r)
				if err != nil {
					return err
				}
				if gs.Groups[0].Limit != -1 {
					return fmt.Errorf("limit %d", gs.Groups[0].Limit)
				}
				return nil
			})),
		c(profStd, "rule-partial-response", `partial_response_strategy "explode"`, rule(func(r *Rule) { r.Spec.Groups[0].PartialResponseStrategy = "explode" }),
			schemaErr("spec.groups[0].partial_response_strategy")),
		c(profLegacy, "rule-record-digit", `record "1up" under Legacy`, first(func(r *monitoringv1.Rule) {
			r.Alert, r.Record, r.Labels, r.Annotations = "", "1up", nil, nil
		}), reject(at, "invalid recording rule name")),
		c(profStd, "rule-record-and-alert", "both record and alert", first(func(r *monitoringv1.Rule) { r.Record = "job:up:sum"; r.Annotations = nil }),
			reject(at, "only one of 'record' and 'alert' must be set")),
		c(profStd, "rule-neither", "neither record nor alert", first(func(r *monitoringv1.Rule) { r.Alert = "" }), reject(at, "one of 'record' or 'alert' must be set")),
		c(profStd, "rule-record-for", "a recording rule with for", first(func(r *monitoringv1.Rule) {
			r.Alert, r.Record, r.Annotations, r.For = "", "job:up:sum", nil, ptr.To(monitoringv1.Duration("5m"))
		}), reject(at, "invalid field 'for' in recording rule")),
		c(profStd, "rule-label-name-empty", `a label named ""`, first(func(r *monitoringv1.Rule) { r.Labels[""] = "x" }), reject(at+".labels[]", "invalid label name")),
		c(profLegacy, "rule-label-name-space", `a label named "team name" under Legacy`, first(func(r *monitoringv1.Rule) { r.Labels["team name"] = "x" }),
			reject(at+".labels[team name]", "invalid label name")),
		c(profStd, "rule-too-large", "a 600 KiB label value (a rule file over one ConfigMap)", first(func(r *monitoringv1.Rule) { r.Labels["pad"] = strings.Repeat("x", 600*1024) }),
			reject("spec", "more than the 524288 bytes one rule ConfigMap holds")),
		c(profStd, "rule-huge", "1.4 MB of annotations", first(func(r *monitoringv1.Rule) { r.Annotations["pad"] = incompressible(1400 * 1000) }),
			reject("spec", "more than the 524288 bytes")),
		c(profStd, "rule-many-problems", "40 rules with an unparsable expr (a message over the 1 kB an Event may hold)", rule(func(r *Rule) {
			r.Spec.Groups[0].Rules = brokenRules(40)
		}), reject(at+".expr", "spec.groups[0].rules[1].expr")),
		c(profStd, "rule-problems-huge", "20,000 rules with an unparsable expr (a message of megabytes)", rule(func(r *Rule) {
			r.Spec.Groups[0].Rules = brokenRules(20000)
		}), reject(at+".expr", "")),
		c(profStd, longOK, "a 253-character name (the limit)", rule(nil), harmless("a rule file name within 253 characters", func(g *generated, r *run) error {
			for k := range g.rules {
				if len(k) > 253 {
					return fmt.Errorf("rule file name of %d characters", len(k))
				}
			}
			return nil
		})),
		c(profStd, longBad, "a 253-character name, invalid expr", expr("up =="), reject(at+".expr", "")),
		c(profTenant, "rule-namespace-matcher", `expr "up{namespace=\"kube-system\"} == 0" under enforcedNamespaceLabel`, expr(`up{namespace="kube-system"} == 0`),
			harmless("the matcher rewritten to the rule's namespace", func(g *generated, r *run) error {
				return ruleCheck(func(rr rulefmtRule) error {
					if want := `up{namespace="` + r.ns + `"} == 0`; rr.Expr != want {
						return fmt.Errorf("expr %q, want %q", rr.Expr, want)
					}
					return nil
				})(g, r)
			})),
		c(profTenant, "rule-namespace-label", `label namespace: "kube-system" under enforcedNamespaceLabel`, first(func(r *monitoringv1.Rule) { r.Labels["namespace"] = "kube-system" }),
			harmless("the label set to the rule's namespace", func(g *generated, r *run) error {
				return ruleCheck(func(rr rulefmtRule) error {
					if rr.Labels["namespace"] != r.ns {
						return fmt.Errorf("label namespace %q", rr.Labels["namespace"])
					}
					return nil
				})(g, r)
			})),
	}
	cases = append(cases, corpusCase{kind: kRule, profile: profStd, name: "rule-edit-broken", input: "a valid PrometheusRule edited to an unparsable expr",
		before: rule(nil), edit: func(ns, name string) error {
			r := newCorpusRule(ns, name, nil)
			return updateObj(r, func() { r.Spec.Groups[0].Rules[0].Expr = intstr.FromString("up ==") })
		}, want: expect{outcome: rejected, field: at + ".expr", msg: "still serving generation 1", served: true}})
	return cases
}

// brokenRules returns n alerting rules whose expressions do not parse.
func brokenRules(n int) []monitoringv1.Rule {
	rs := make([]monitoringv1.Rule, n)
	for i := range rs {
		rs[i] = monitoringv1.Rule{Alert: "A", Expr: intstr.FromString("up ==")}
	}
	return rs
}

// ruleCheck applies f to the first rule of the case's served rule file.
func ruleCheck(f func(r rulefmtRule) error) func(g *generated, r *run) error {
	return func(g *generated, r *run) error {
		gs, err := g.ruleGroups(r)
		if err != nil {
			return err
		}
		if len(gs.Groups) == 0 || len(gs.Groups[0].Rules) == 0 {
			return fmt.Errorf("no rules served")
		}
		rr := gs.Groups[0].Rules[0]
		return f(rulefmtRule{Alert: rr.Alert, Record: rr.Record, Expr: rr.Expr, Labels: rr.Labels, Annotations: rr.Annotations})
	}
}

type rulefmtRule struct {
	Alert, Record, Expr string
	Labels, Annotations map[string]string
}

func prometheusCases() []corpusCase {
	c := func(name, input string, mut func(p *Prom), w expect) corpusCase {
		return corpusCase{kind: kProm, profile: profProm, name: name, input: input, want: w,
			before: func(ns, name string) []client.Object { return []client.Object{casePrometheus(ns, name)} },
			edit: func(ns, name string) error {
				p := casePrometheus(ns, name)
				return updateObj(p, func() { mut(p) })
			}}
	}
	// withSecret creates a Secret <name>-s before the edit.
	withSecret := func(cc corpusCase, data map[string]string) corpusCase {
		edit := cc.edit
		cc.edit = func(ns, name string) error {
			s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-s"}, StringData: data}
			if err := k8s.Create(ctx, s); err != nil {
				return fmt.Errorf("supporting Secret: %w", err)
			}
			return edit(ns, name)
		}
		return cc
	}
	externalLabel := func(name, value string) func(g *generated, r *run) error {
		return func(g *generated, r *run) error {
			if got := g.cfg.GlobalConfig.ExternalLabels.Get(name); got != value {
				return fmt.Errorf("external label %q is %q, want %q", name, got, value)
			}
			return nil
		}
	}
	// Created with a name at a length limit, rather than edited.
	named := func(name, input string, w expect) corpusCase {
		return corpusCase{kind: kProm, profile: profProm, name: name, input: input, want: w,
			objs: func(ns, name string) []client.Object { return []client.Object{casePrometheus(ns, name)} }}
	}
	return []corpusCase{
		named(longName("prom-long-name-", 63), "a 63-character name (the limit of a label value)", reject("StatefulSet name", "use a shorter Prometheus name")),
		// Refused before anything is written: the whole plan (StatefulSets included) is built
		// first, so the name is found too long for the StatefulSet's pods instead of being
		// retried with backoff as the API server refuses the first Secret.
		named(longName("prom-long-name-", 253), "a 253-character name (the limit of an object name)", reject("StatefulSet name", "use a shorter Prometheus name")),
		c("prom-scrape-interval-unit", `scrapeInterval "5x"`, func(p *Prom) { p.Spec.ScrapeInterval = "5x" }, schemaErr("spec.scrapeInterval")),
		c("prom-timeout-above-interval", "scrapeTimeout 30s above scrapeInterval 10s", func(p *Prom) { p.Spec.ScrapeInterval, p.Spec.ScrapeTimeout = "10s", "30s" },
			reject("spec.scrapeTimeout", "greater than spec.scrapeInterval")),
		c("prom-evaluation-unit", `evaluationInterval "5x"`, func(p *Prom) { p.Spec.EvaluationInterval = "5x" }, schemaErr("spec.evaluationInterval")),
		c("prom-retention-unit", `retention "5x"`, func(p *Prom) { p.Spec.Retention = "5x" }, schemaErr("spec.retention")),
		c("prom-log-level", `logLevel "loud"`, func(p *Prom) { p.Spec.LogLevel = "loud" }, schemaErr("spec.logLevel")),
		c("prom-external-label-empty", `externalLabels {"": "x"}`, func(p *Prom) { p.Spec.ExternalLabels = map[string]string{"": "x"} },
			reject("spec.externalLabels", "not a valid label name")),
		c("prom-external-label-injection", "an external label value with a newline, `---`, a key, quotes, `{{` and `#`",
			func(p *Prom) { p.Spec.ExternalLabels = map[string]string{"cluster": yamlInjection} }, harmless("the label value as one string", externalLabel("cluster", yamlInjection))),
		c("prom-external-label-space", `externalLabels {"team name": "a"}`, func(p *Prom) { p.Spec.ExternalLabels = map[string]string{"team name": "a"} },
			harmless("the label as written (UTF-8 names)", externalLabel("team name", "a"))),
		c("prom-version-garbage", `version "three"`, func(p *Prom) { p.Spec.Version = "three" }, reject("spec.version", "three")),
		c("prom-version-old", `version "v2.30.0"`, func(p *Prom) { p.Spec.Version = "v2.30.0" }, reject("spec.version", "older than")),
		c("prom-pod-target-labels-empty", `podTargetLabels [""]`, func(p *Prom) { p.Spec.PodTargetLabels = []string{""} }, reject("spec.podTargetLabels[0]", "not a valid label name")),
		c("prom-enforced-label-legacy", `enforcedNamespaceLabel "name space" under Legacy`, func(p *Prom) {
			p.Spec.NameValidationScheme = ptr.To(monitoringv1.LegacyNameValidationScheme)
			p.Spec.EnforcedNamespaceLabel = "name space"
		}, reject("spec.enforcedNamespaceLabel", "not a valid label name")),
		c("prom-scrape-classes-defaults", "two default scrape classes", func(p *Prom) {
			p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{{Name: "a", Default: ptr.To(true)}, {Name: "b", Default: ptr.To(true)}}
		}, reject("spec.scrapeClasses", "marked default")),
		c("prom-scrape-class-regex", "a scrape class relabeling with an invalid regex", func(p *Prom) {
			p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{{Name: "x", Relabelings: []monitoringv1.RelabelConfig{rl("(", "y", "")}}}
		}, reject("spec.scrapeClasses[x].relabelings[0]", "invalid regex")),
		c("prom-additional-missing", "additionalScrapeConfigs naming a missing Secret", func(p *Prom) {
			p.Spec.AdditionalScrapeConfigs = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: missing}, Key: "x.yaml"}
		}, reject("spec.additionalScrapeConfigs", "not found")),
		withSecret(c("prom-additional-yaml", "additionalScrapeConfigs that are not YAML", func(p *Prom) {
			p.Spec.AdditionalScrapeConfigs = skp(p.Name, "x.yaml")
		}, reject("spec.additionalScrapeConfigs", "invalid YAML")), map[string]string{"x.yaml": "- job_name: [\n"}),
		withSecret(c("prom-additional-unknown-field", "additionalScrapeConfigs with an unknown field", func(p *Prom) {
			p.Spec.AdditionalScrapeConfigs = skp(p.Name, "x.yaml")
		}, reject("rejected by Prometheus's config loader", "bogus")), map[string]string{"x.yaml": "- job_name: extra\n  bogus: 1\n"}),
		c("prom-additional-args", "additionalArgs setting config.file", func(p *Prom) {
			p.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "config.file", Value: "/etc/shadow"}}
		}, reject("config.file", "")),
		c("prom-container-name", `a container named "Bad_Name"`, func(p *Prom) { p.Spec.Containers = []corev1.Container{{Name: "Bad_Name", Image: "x"}} },
			reject(`container name "Bad_Name"`, "")),
		c("prom-pod-metadata-label", `podMetadata label key "bad key!"`, func(p *Prom) {
			p.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"bad key!": "x"}}
		}, reject("spec.podMetadata.labels", "bad key!")),
		c("prom-remote-write-url", `remoteWrite url "not a url"`, func(p *Prom) { p.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "not a url"}} },
			schemaErr("spec.remoteWrite[0].url")),
		withSecret(c("prom-remote-write-ca-garbage", "remoteWrite tlsConfig.ca from a Secret holding no certificate", func(p *Prom) {
			p.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "https://remote.corpus.example/write", TLSConfig: &monitoringv1.TLSConfig{
				SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: skp(p.Name, "ca.crt")}}}}}
		}, reject("spec.remoteWrite[0]", "tlsConfig: ca")), map[string]string{"ca.crt": garbageCA}),
		c("prom-alertmanager-port", "an Alertmanager endpoint without a port", func(p *Prom) {
			p.Spec.Alerting = &monitoringv1.AlertingSpec{Alertmanagers: []monitoringv1.AlertmanagerEndpoints{{Namespace: ptr.To(p.Namespace), Name: "am"}}}
		}, reject("spec.alerting.alertmanagers[0]", "port is required")),
		c("prom-shards-negative", "shards -2", func(p *Prom) { p.Spec.Shards = ptr.To(int32(-2)) }, schemaErr("spec.shards")),
		c("prom-topology-zone-value", `shardingStrategy Topology with the zone "eu west" (no node label can hold it)`, func(p *Prom) {
			p.Spec.Shards = ptr.To(int32(2))
			p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
				Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
				Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"eu-west-1a", "eu west"}},
			}
		}, reject("spec.shardingStrategy.topology.values[1]", "is not a valid node label value")),
		c("prom-selector-operator", `serviceMonitorSelector operator "Near"`, func(p *Prom) {
			p.Spec.ServiceMonitorSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}
		}, reject("spec.serviceMonitorSelector", `"Near" is not a valid label selector operator`)),
	}
}
