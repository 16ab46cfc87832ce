package promcfg_test

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// envRefAssets adds Secret default/env-refs, whose values refer to the reloader's
// environment.
func envRefAssets() promcfg.Assets {
	return layered{testAssets(), staticSecret("default", "env-refs", "1", map[string][]byte{
		"password": []byte("$(AWS_SECRET_ACCESS_KEY)"),
		"user":     []byte("alice"),
		"token":    []byte("Bearer $(HTTPS_PROXY)"),
	})}
}

// TestTenantEnvRefs: a monitor may refer to $(POD_NAME), $(SHARD) and what the owner
// declares for the config-reloader, and to nothing else of the reloader's environment;
// the message names the field and never shows a Secret's value.
func TestTenantEnvRefs(t *testing.T) {
	declared := func(p *P) {
		p.Spec.Containers = []corev1.Container{{Name: "config-reloader", Env: []corev1.EnvVar{{Name: "CLUSTER", Value: "eu-1"}}}}
		p.Spec.InitContainers = []corev1.Container{{Name: "init-config-reloader", Env: []corev1.EnvVar{
			{Name: "REGION", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
		}}}
	}
	cases := []struct {
		name    string
		prom    *P
		in      goldenCase
		want    string // "" for accepted
		notWant []string
	}{
		{name: "relabel replacement", in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "proxy", "$(HTTPS_PROXY)")}
		}))}}, want: "job serviceMonitor/default/bad/0: relabel_configs[12].replacement refers to $(HTTPS_PROXY): the config-reloader would replace it"},
		{name: "metric relabel regex", in: goldenCase{pms: []*PM{pm("bad", pep(func(e *PEP) {
			e.MetricRelabelConfigs = []monitoringv1.RelabelConfig{rl("drop", []string{"__name__"}, "$(HOME)_.*", "", "")}
		}))}}, want: "job podMonitor/default/bad/0: metric_relabel_configs[0].regex refers to $(HOME)"},
		{name: "a parameter's name", in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) { e.Params = map[string][]string{"$(USER)": {"x"}} }))}},
			want: "params.$(USER) (the key) refers to $(USER)"},
		{name: "probe job label", in: goldenCase{probes: []*monitoringv1.Probe{probe("bad", func(p *monitoringv1.Probe) { p.Spec.JobName = "$(HOSTNAME)" })}},
			want: "job probe/default/bad: relabel_configs[4].replacement refers to $(HOSTNAME)"},
		{name: "scrape config static target", in: goldenCase{scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("bad", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"$(KUBERNETES_SERVICE_HOST):443"}}}
		})}}, want: "static_configs[0].targets[0] refers to $(KUBERNETES_SERVICE_HOST)"},
		{name: "basic auth password from a Secret", in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("env-refs", "user"), Password: secretKey("env-refs", "password")}
		}))}}, want: "job serviceMonitor/default/bad/0: basic_auth.password, read from a Secret, refers to an environment variable",
			notWant: []string{"AWS_SECRET_ACCESS_KEY"}},
		{name: "authorization credentials from a Secret", in: goldenCase{pms: []*PM{pm("bad", pep(func(e *PEP) {
			e.Authorization = &monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("env-refs", "token"))}
		}))}}, want: "authorization.credentials, read from a Secret, refers to an environment variable", notWant: []string{"HTTPS_PROXY", "Bearer"}},

		// Allowed.
		{name: "pod name and shard", prom: prom(func(p *P) { p.Spec.Shards = ptr(int32(2)) }), in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "scraper", "$(POD_NAME)/$(SHARD)")}
		}))}}},
		{name: "variables the owner shares", prom: prom(declared, func(p *P) {
			p.Annotations = map[string]string{promcfg.ShareableEnvAnnotation: "CLUSTER, REGION"}
		}), in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "cluster", "$(CLUSTER)-$(REGION)")}
		}))}}},
		// Declared for the reloader (a proxy URL, a token from a Secret) but not shared: the
		// owner's alone (issue 32, item 6).
		{name: "variables the owner declares without sharing them", prom: prom(declared), in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "cluster", "$(CLUSTER)-$(REGION)")}
		}))}}, want: "refers to $(CLUSTER): the config-reloader would replace it with a value from its own environment; monitors may refer only to $(POD_NAME), $(SHARD) (the owner shares more of the config-reloader container's env entries with the lookout.dev/shareable-reloader-env annotation)"},
		{name: "a shared name the reloader does not have", prom: prom(func(p *P) {
			p.Annotations = map[string]string{promcfg.ShareableEnvAnnotation: "HTTPS_PROXY"}
		}), in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "p", "$(HTTPS_PROXY)")}
		}))}}, want: "refers to $(HTTPS_PROXY)"},
		{name: "Prometheus's own syntaxes", in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"a"}, "(.*)", "b", "$1 ${1} $HOME ${HOME}")}
		}))}}},
		{name: "a doubled dollar escapes nothing", in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"a"}, "(.*)", "b", "$$(HOME)")}
		}))}}, want: "refers to $(HOME)"},
		{name: "a declared variable of another container", prom: prom(func(p *P) {
			p.Spec.Containers = []corev1.Container{{Name: "prometheus", Env: []corev1.EnvVar{{Name: "CLUSTER", Value: "eu-1"}}}}
		}), in: goldenCase{sms: []*SM{sm("bad", ep(func(e *EP) {
			e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "cluster", "$(CLUSTER)")}
		}))}}, want: "refers to $(CLUSTER)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := c.in
			in.prom = c.prom
			if in.prom == nil {
				in.prom = prom()
			}
			in.sms = append(in.sms, sm("good"))
			res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(in.prom), Monitors: monitorkind.Set{ServiceMonitors: in.sms, PodMonitors: in.pms, Probes: in.probes, ScrapeConfigs: in.scs}, Assets: envRefAssets()})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range res.Verdicts {
				switch {
				case v.Name == "good" && !v.Used():
					t.Errorf("good monitor rejected: %s", v.Message)
				case v.Name == "bad" && c.want == "" && !v.Used():
					t.Errorf("rejected: %s", v.Message)
				case v.Name == "bad" && c.want != "" && (v.Used() || !strings.Contains(v.Message, c.want)):
					t.Errorf("verdict %s %q, want rejected with …%s…", v.Reason, v.Message, c.want)
				}
				for _, s := range c.notWant {
					if strings.Contains(v.Message, s) {
						t.Errorf("the message shows %q, part of a Secret's value: %s", s, v.Message)
					}
				}
			}
			if err := promcfg.Validate(res.Config); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestOwnerEnvRefs: the Prometheus-level sections are the owner's and may refer to any
// variable of the reloader's environment.
func TestOwnerEnvRefs(t *testing.T) {
	t.Parallel()
	a := layered{testAssets(), staticSecret("monitoring", "owner", "1", map[string][]byte{
		"scrape.yaml": []byte("- job_name: federate\n  static_configs:\n  - targets: [\"$(FEDERATION_HOST):9090\"]\n"),
	})}
	p := prom(func(p *P) {
		p.Spec.AdditionalScrapeConfigs = ptr(secretKey("owner", "scrape.yaml"))
		p.Spec.ExternalLabels = map[string]string{"cluster": "$(CLUSTER_NAME)"}
	})
	res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(p), Assets: a})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"$(FEDERATION_HOST):9090", "cluster: $(CLUSTER_NAME)"} {
		if !strings.Contains(string(res.Config), want) {
			t.Errorf("config lacks %q:\n%s", want, res.Config)
		}
	}
}
