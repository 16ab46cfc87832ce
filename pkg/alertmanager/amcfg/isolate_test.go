package amcfg_test

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	yaml "go.yaml.in/yaml/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// globalSecret is every credential of the administrator's global section in
// TestTenantReceiversBorrowNoGlobalCredential.
const globalSecret = "ADMIN-SECRET"

// TestTenantReceiversBorrowNoGlobalCredential: a tenant's receivers that point at an
// endpoint of the tenant's choosing (webhook URL, API URL, smarthost) hold none of the
// global section's credentials once Alertmanager's own loader has filled in the global
// defaults; a receiver that uses the global endpoint still gets the global key (issue 32,
// item 2, ADR 28).
func TestTenantReceiversBorrowNoGlobalCredential(t *testing.T) {
	base := `global:
  http_config:
    basic_auth: {username: admin, password: ` + globalSecret + `}
  opsgenie_api_key: ` + globalSecret + `
  victorops_api_key: ` + globalSecret + `
  victorops_api_url: https://alert.victorops.com/integrations/generic/20131114/alert/
  wechat_api_secret: ` + globalSecret + `
  wechat_api_corp_id: corp
  telegram_bot_token: ` + globalSecret + `
  rocketchat_token: ` + globalSecret + `
  rocketchat_token_id: ` + globalSecret + `
  smtp_smarthost: smtp.admin.example:25
  smtp_from: alerts@admin.example
  smtp_auth_username: admin
  smtp_auth_password: ` + globalSecret + `
  smtp_auth_secret: ` + globalSecret + `
route: {receiver: default}
receivers: [{name: default}]
`
	attacker := "https://attacker.example/"
	amc := &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: "tenant", Name: "t"},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route: &monitoringv1alpha1.Route{Receiver: "r"},
			Receivers: []monitoringv1alpha1.Receiver{
				{Name: "r",
					WebhookConfigs:   []monitoringv1alpha1.WebhookConfig{{URL: &attacker}},
					OpsGenieConfigs:  []monitoringv1alpha1.OpsGenieConfig{{APIURL: (*monitoringv1alpha1.URL)(&attacker)}},
					VictorOpsConfigs: []monitoringv1alpha1.VictorOpsConfig{{APIURL: (*monitoringv1alpha1.URL)(&attacker), RoutingKey: "k"}},
					WeChatConfigs:    []monitoringv1alpha1.WeChatConfig{{APIURL: (*monitoringv1alpha1.URL)(&attacker)}},
					TelegramConfigs:  []monitoringv1alpha1.TelegramConfig{{APIURL: (*monitoringv1alpha1.URL)(&attacker), ChatID: 1}},
					EmailConfigs:     []monitoringv1alpha1.EmailConfig{{To: strPtr("x@attacker.example"), Smarthost: strPtr("smtp.attacker.example:25")}},
				},
				{Name: "admins-opsgenie", OpsGenieConfigs: []monitoringv1alpha1.OpsGenieConfig{{}}},
			},
		},
	}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "main"}}
	res, err := amcfg.Generate(amcfg.Input{Alertmanager: am, Base: []byte(base), Configs: []*monitoringv1alpha1.AlertmanagerConfig{amc}, Assets: amcfg.MapAssets{}})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Verdicts[types.NamespacedName{Namespace: "tenant", Name: "t"}]; !v.Accepted {
		t.Fatalf("verdict %+v", v)
	}
	cfg, err := config.Load(string(res.Config))
	if err != nil {
		t.Fatalf("Alertmanager refuses the configuration: %v\n%s", err, res.Config)
	}
	for _, r := range cfg.Receivers {
		// Everything Alertmanager will use for this receiver, secrets shown.
		out, err := yaml.Marshal(revealed(r))
		if err != nil {
			t.Fatal(err)
		}
		switch r.Name {
		case "tenant/t/r":
			if strings.Contains(string(out), globalSecret) {
				t.Errorf("a tenant receiver pointing at its own endpoints holds a global credential:\n%s", out)
			}
		case "tenant/t/admins-opsgenie":
			if !strings.Contains(string(out), globalSecret) {
				t.Errorf("a tenant receiver using the global OpsGenie endpoint lost the global key:\n%s", out)
			}
		}
	}
}

// revealed is a receiver as its notifiers use it: the secrets in clear.
func revealed(r config.Receiver) any {
	b, _ := yaml.Marshal(r)
	var m any
	_ = yaml.Unmarshal(b, &m)
	return struct {
		Receiver any
		Secrets  []string
	}{m, secretsOf(r)}
}

// secretsOf lists the credentials of a receiver's integrations (Alertmanager marshals
// secrets as <secret>).
func secretsOf(r config.Receiver) []string {
	var s []string
	add := func(vs ...string) { s = append(s, vs...) }
	for _, c := range r.WebhookConfigs {
		if c.HTTPConfig != nil && c.HTTPConfig.BasicAuth != nil {
			add(string(c.HTTPConfig.BasicAuth.Password))
		}
	}
	for _, c := range r.OpsGenieConfigs {
		add(string(c.APIKey))
		if c.HTTPConfig != nil && c.HTTPConfig.BasicAuth != nil {
			add(string(c.HTTPConfig.BasicAuth.Password))
		}
	}
	for _, c := range r.VictorOpsConfigs {
		add(string(c.APIKey))
	}
	for _, c := range r.WechatConfigs {
		add(string(c.APISecret))
	}
	for _, c := range r.TelegramConfigs {
		add(string(c.BotToken))
		if c.HTTPConfig != nil && c.HTTPConfig.BasicAuth != nil {
			add(string(c.HTTPConfig.BasicAuth.Password))
		}
	}
	for _, c := range r.EmailConfigs {
		add(string(c.AuthPassword), string(c.AuthSecret))
	}
	return s
}

func strPtr(s string) *string { return &s }

// TestTenantProxyAndSMTPCertBorrowNothing: a tenant's integration that uses the global
// endpoint through a proxy of the tenant's (which, with insecureSkipVerify or a CA of
// the tenant's, reads the request) gets no global key, one that would send the global
// Slack URL through it is refused, and an email integration with the tenant's smarthost
// does not present the global SMTP client certificate (found by TestAMCorpus).
func TestTenantProxyAndSMTPCertBorrowNothing(t *testing.T) {
	base := `global:
  opsgenie_api_key: ` + globalSecret + `
  telegram_bot_token: ` + globalSecret + `
  slack_api_url: https://hooks.slack.example/` + globalSecret + `
  smtp_smarthost: smtp.admin.example:25
  smtp_from: alerts@admin.example
  smtp_tls_config: {ca_file: /etc/admin/ca.crt, cert_file: /etc/admin/` + globalSecret + `.crt, key_file: /etc/admin/` + globalSecret + `.key}
route: {receiver: default}
receivers: [{name: default}]
`
	proxy := "http://proxy.attacker.example:3128"
	hc := &monitoringv1alpha1.HTTPConfig{TLSConfig: &monitoringv1.SafeTLSConfig{InsecureSkipVerify: boolPtr(true)}}
	hc.ProxyURL = &proxy
	ok := &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: "tenant", Name: "ok"},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route: &monitoringv1alpha1.Route{Receiver: "r"},
			Receivers: []monitoringv1alpha1.Receiver{{Name: "r",
				OpsGenieConfigs: []monitoringv1alpha1.OpsGenieConfig{{HTTPConfig: hc}},
				TelegramConfigs: []monitoringv1alpha1.TelegramConfig{{HTTPConfig: hc, ChatID: 1}},
				EmailConfigs:    []monitoringv1alpha1.EmailConfig{{To: strPtr("x@attacker.example"), Smarthost: strPtr("smtp.attacker.example:25")}},
			}},
		},
	}
	slack := &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: "tenant", Name: "slack"},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route:     &monitoringv1alpha1.Route{Receiver: "r"},
			Receivers: []monitoringv1alpha1.Receiver{{Name: "r", SlackConfigs: []monitoringv1alpha1.SlackConfig{{Channel: strPtr("#x"), HTTPConfig: hc}}}},
		},
	}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "main"}}
	res, err := amcfg.Generate(amcfg.Input{Alertmanager: am, Base: []byte(base), Configs: []*monitoringv1alpha1.AlertmanagerConfig{ok, slack}, Assets: amcfg.MapAssets{}})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Verdicts[types.NamespacedName{Namespace: "tenant", Name: "ok"}]; !v.Accepted {
		t.Fatalf("verdict %+v", v)
	}
	want := amcfg.Verdict{Reason: amcfg.ReasonInvalid, Field: "spec.receivers[0].slackConfigs[0].httpConfig.proxyUrl",
		Message: "the global Slack API URL or App token would go through a proxy this AlertmanagerConfig chose; set apiURL or leave the proxy out"}
	if v := res.Verdicts[types.NamespacedName{Namespace: "tenant", Name: "slack"}]; v != want {
		t.Errorf("slack verdict\n got: %+v\nwant: %+v", v, want)
	}
	cfg, err := config.Load(string(res.Config))
	if err != nil {
		t.Fatalf("Alertmanager refuses the configuration: %v\n%s", err, res.Config)
	}
	for _, r := range cfg.Receivers {
		if r.Name != "tenant/ok/r" {
			continue
		}
		if c := r.OpsGenieConfigs[0]; c.APIKey != "" || c.APIKeyFile != amcfg.NoCredentialFile {
			t.Errorf("opsgenie through the tenant's proxy: api_key %q, api_key_file %q", c.APIKey, c.APIKeyFile)
		}
		if c := r.TelegramConfigs[0]; c.BotToken != "" || c.BotTokenFile != amcfg.NoCredentialFile {
			t.Errorf("telegram through the tenant's proxy: bot_token %q, bot_token_file %q", c.BotToken, c.BotTokenFile)
		}
		tls := r.EmailConfigs[0].TLSConfig
		if tls == nil || tls.CertFile != "" || tls.KeyFile != "" || tls.CAFile != "/etc/admin/ca.crt" {
			t.Errorf("email to the tenant's smarthost: tls_config %+v, want only the global CA", tls)
		}
	}
}

func boolPtr(b bool) *bool { return &b }
