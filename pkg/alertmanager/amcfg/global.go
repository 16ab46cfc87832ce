//lint:file-ignore SA1019 the deprecated bearerTokenSecret of the global HTTP config is still honoured, as prometheus-operator honours it
package amcfg

import (
	"fmt"
	"net"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// globalSection converts spec.alertmanagerConfiguration.global of the Alertmanager. c
// resolves references in the Alertmanager's namespace.
func (c *conv) globalSection(in *monitoringv1.AlertmanagerGlobalConfig) (*obj, *problem) {
	if in == nil {
		return nil, nil
	}
	const f = "spec.alertmanagerConfiguration.global"
	r := c.resolver(f)
	out := (&obj{}).set("resolve_timeout", string(in.ResolveTimeout))
	if h := in.HTTPConfigWithProxy; h != nil {
		out.set("http_config", r.httpConfig(f+".httpConfig", &monitoringv1alpha1.HTTPConfig{
			Authorization:     h.Authorization,
			BasicAuth:         h.BasicAuth,
			OAuth2:            h.OAuth2,
			BearerTokenSecret: h.BearerTokenSecret,
			TLSConfig:         h.TLSConfig,
			ProxyConfig:       h.ProxyConfig,
			FollowRedirects:   h.FollowRedirects,
			EnableHTTP2:       h.EnableHTTP2,
		}))
	}
	if s := in.SMTPConfig; s != nil {
		if s.ForceImplicitTLS != nil {
			r.gate(f+".smtp.forceImplicitTLS", "forceImplicitTLS", "0.31.0")
		}
		out.set("smtp_from", s.From)
		if s.SmartHost != nil {
			out.set("smtp_smarthost", net.JoinHostPort(s.SmartHost.Host, s.SmartHost.Port))
		}
		out.set("smtp_hello", s.Hello).set("smtp_auth_username", s.AuthUsername)
		out.set("smtp_auth_password", r.optSecret(f+".smtp.authPassword", s.AuthPassword))
		out.set("smtp_auth_secret", r.optSecret(f+".smtp.authSecret", s.AuthSecret)).set("smtp_auth_identity", s.AuthIdentity)
		out.set("smtp_require_tls", s.RequireTLS)
		out.set("smtp_tls_config", r.tlsConfig(f+".smtp.tlsConfig", s.TLSConfig)).set("smtp_force_implicit_tls", s.ForceImplicitTLS)
	}
	out.set("slack_api_url", r.secretURL(f+".slackApiUrl", in.SlackAPIURL))
	out.set("opsgenie_api_url", r.secretURL(f+".opsGenieApiUrl", in.OpsGenieAPIURL))
	out.set("opsgenie_api_key", r.optSecret(f+".opsGenieApiKey", in.OpsGenieAPIKey))
	out.set("pagerduty_url", r.url(f+".pagerdutyUrl", strp(in.PagerdutyURL)))
	r.globalIntegrations(out, in)
	if !r.ok() {
		return nil, r.p
	}
	return out, nil
}

// templates lists the template files of spec.alertmanagerConfiguration.templates. A key
// no object can have ("..": the directory itself) is refused: Alertmanager would refuse
// the file that names it.
func templates(in []monitoringv1.SecretOrConfigMap) ([]string, error) {
	var out []string
	for i, t := range in {
		switch {
		case t.Secret != nil && t.ConfigMap != nil:
			return nil, fmt.Errorf("spec.alertmanagerConfiguration.templates[%d]: secret and configMap are mutually exclusive", i)
		case t.Secret != nil:
			if p := checkObjectKey(fmt.Sprintf("spec.alertmanagerConfiguration.templates[%d].secret", i), t.Secret.Name, t.Secret.Key); p != nil {
				return nil, p
			}
			out = append(out, TemplatesDir+"/"+t.Secret.Key)
		case t.ConfigMap != nil:
			if p := checkObjectKey(fmt.Sprintf("spec.alertmanagerConfiguration.templates[%d].configMap", i), t.ConfigMap.Name, t.ConfigMap.Key); p != nil {
				return nil, p
			}
			out = append(out, TemplatesDir+"/"+t.ConfigMap.Key)
		}
	}
	return out, nil
}

// globalIntegrations adds the per-integration global settings (API URLs and keys); r
// is at the global section.
func (r *resolver) globalIntegrations(out *obj, in *monitoringv1.AlertmanagerGlobalConfig) {
	type urlKey struct {
		field, key string
		u          *monitoringv1.URL
	}
	type secretKey struct {
		field, key string
		sel        *corev1.SecretKeySelector
	}
	var urls []urlKey
	var secrets []secretKey
	f := r.f
	gate := func(field, min string) { r.gate(f+"."+field, field, min) }
	if t := in.TelegramConfig; t != nil {
		gate("telegram", "0.24.0")
		urls = append(urls, urlKey{"telegram.apiURL", "telegram_api_url", t.APIURL})
		secrets = append(secrets, secretKey{"telegram.botToken", "telegram_bot_token", t.BotToken})
		out.set("telegram_bot_token_file", t.BotTokenFile)
	}
	if j := in.JiraConfig; j != nil {
		gate("jira", "0.28.0")
		urls = append(urls, urlKey{"jira.apiURL", "jira_api_url", j.APIURL})
	}
	if v := in.VictorOpsConfig; v != nil {
		urls = append(urls, urlKey{"victorops.apiURL", "victorops_api_url", v.APIURL})
		secrets = append(secrets, secretKey{"victorops.apiKey", "victorops_api_key", v.APIKey})
	}
	if rc := in.RocketChatConfig; rc != nil {
		gate("rocketChat", "0.28.0")
		urls = append(urls, urlKey{"rocketChat.apiURL", "rocketchat_api_url", rc.APIURL})
		secrets = append(secrets, secretKey{"rocketChat.token", "rocketchat_token", rc.Token},
			secretKey{"rocketChat.tokenID", "rocketchat_token_id", rc.TokenID})
	}
	if w := in.WebexConfig; w != nil {
		gate("webex", "0.25.0")
		urls = append(urls, urlKey{"webex.apiURL", "webex_api_url", w.APIURL})
	}
	if w := in.WeChatConfig; w != nil {
		urls = append(urls, urlKey{"wechat.apiURL", "wechat_api_url", w.APIURL})
		secrets = append(secrets, secretKey{"wechat.apiSecret", "wechat_api_secret", w.APISecret})
		out.set("wechat_api_corp_id", w.APICorpID)
	}
	for _, u := range urls {
		out.set(u.key, r.url(f+"."+u.field, strp(u.u)))
	}
	for _, s := range secrets {
		out.set(s.key, r.optSecret(f+"."+s.field, s.sel))
	}
	if m := in.MattermostConfig; m != nil {
		gate("mattermost", "0.30.0")
		out.set("mattermost_webhook_url", r.secretURL(f+".mattermost.webhookURL", m.WebhookURL))
	}
}
