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
	out := (&obj{}).set("resolve_timeout", string(in.ResolveTimeout))
	if h := in.HTTPConfigWithProxy; h != nil {
		hc, p := c.httpConfig(f+".httpConfig", &monitoringv1alpha1.HTTPConfig{
			Authorization:     h.Authorization,
			BasicAuth:         h.BasicAuth,
			OAuth2:            h.OAuth2,
			BearerTokenSecret: h.BearerTokenSecret,
			TLSConfig:         h.TLSConfig,
			ProxyConfig:       h.ProxyConfig,
			FollowRedirects:   h.FollowRedirects,
			EnableHTTP2:       h.EnableHTTP2,
		})
		if p != nil {
			return nil, p
		}
		out.set("http_config", hc)
	}
	if s := in.SMTPConfig; s != nil {
		if s.ForceImplicitTLS != nil {
			if p := c.gate(f+".smtp.forceImplicitTLS", "forceImplicitTLS", "0.31.0"); p != nil {
				return nil, p
			}
		}
		out.set("smtp_from", s.From)
		if s.SmartHost != nil {
			out.set("smtp_smarthost", net.JoinHostPort(s.SmartHost.Host, s.SmartHost.Port))
		}
		out.set("smtp_hello", s.Hello).set("smtp_auth_username", s.AuthUsername)
		pw, p := c.optSecret(f+".smtp.authPassword", s.AuthPassword)
		if p != nil {
			return nil, p
		}
		sec, p := c.optSecret(f+".smtp.authSecret", s.AuthSecret)
		if p != nil {
			return nil, p
		}
		out.set("smtp_auth_password", pw).set("smtp_auth_secret", sec).set("smtp_auth_identity", s.AuthIdentity)
		out.set("smtp_require_tls", s.RequireTLS)
		tls, p := c.tlsConfig(f+".smtp.tlsConfig", s.TLSConfig)
		if p != nil {
			return nil, p
		}
		out.set("smtp_tls_config", tls).set("smtp_force_implicit_tls", s.ForceImplicitTLS)
	}
	slack, p := c.secretURL(f+".slackApiUrl", in.SlackAPIURL)
	if p != nil {
		return nil, p
	}
	ogURL, p := c.secretURL(f+".opsGenieApiUrl", in.OpsGenieAPIURL)
	if p != nil {
		return nil, p
	}
	ogKey, p := c.optSecret(f+".opsGenieApiKey", in.OpsGenieAPIKey)
	if p != nil {
		return nil, p
	}
	pd, p := plainURL(f+".pagerdutyUrl", urlp2(in.PagerdutyURL))
	if p != nil {
		return nil, p
	}
	out.set("slack_api_url", slack).set("opsgenie_api_url", ogURL).set("opsgenie_api_key", ogKey).set("pagerduty_url", pd)
	if p := c.globalIntegrations(f, out, in); p != nil {
		return nil, p
	}
	return out, nil
}

func urlp2(u *monitoringv1.URL) *string {
	if u == nil {
		return nil
	}
	s := string(*u)
	return &s
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

// globalIntegrations adds the per-integration global settings (API URLs and keys).
func (c *conv) globalIntegrations(f string, out *obj, in *monitoringv1.AlertmanagerGlobalConfig) *problem {
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
	gate := func(field, min string) *problem { return c.gate(f+"."+field, field, min) }
	if t := in.TelegramConfig; t != nil {
		if p := gate("telegram", "0.24.0"); p != nil {
			return p
		}
		urls = append(urls, urlKey{"telegram.apiURL", "telegram_api_url", t.APIURL})
		secrets = append(secrets, secretKey{"telegram.botToken", "telegram_bot_token", t.BotToken})
		out.set("telegram_bot_token_file", t.BotTokenFile)
	}
	if j := in.JiraConfig; j != nil {
		if p := gate("jira", "0.28.0"); p != nil {
			return p
		}
		urls = append(urls, urlKey{"jira.apiURL", "jira_api_url", j.APIURL})
	}
	if v := in.VictorOpsConfig; v != nil {
		urls = append(urls, urlKey{"victorops.apiURL", "victorops_api_url", v.APIURL})
		secrets = append(secrets, secretKey{"victorops.apiKey", "victorops_api_key", v.APIKey})
	}
	if r := in.RocketChatConfig; r != nil {
		if p := gate("rocketChat", "0.28.0"); p != nil {
			return p
		}
		urls = append(urls, urlKey{"rocketChat.apiURL", "rocketchat_api_url", r.APIURL})
		secrets = append(secrets, secretKey{"rocketChat.token", "rocketchat_token", r.Token},
			secretKey{"rocketChat.tokenID", "rocketchat_token_id", r.TokenID})
	}
	if w := in.WebexConfig; w != nil {
		if p := gate("webex", "0.25.0"); p != nil {
			return p
		}
		urls = append(urls, urlKey{"webex.apiURL", "webex_api_url", w.APIURL})
	}
	if w := in.WeChatConfig; w != nil {
		urls = append(urls, urlKey{"wechat.apiURL", "wechat_api_url", w.APIURL})
		secrets = append(secrets, secretKey{"wechat.apiSecret", "wechat_api_secret", w.APISecret})
		out.set("wechat_api_corp_id", w.APICorpID)
	}
	for _, u := range urls {
		v, p := plainURL(f+"."+u.field, urlp2(u.u))
		if p != nil {
			return p
		}
		out.set(u.key, v)
	}
	for _, s := range secrets {
		v, p := c.optSecret(f+"."+s.field, s.sel)
		if p != nil {
			return p
		}
		out.set(s.key, v)
	}
	if m := in.MattermostConfig; m != nil {
		if p := gate("mattermost", "0.30.0"); p != nil {
			return p
		}
		v, p := c.secretURL(f+".mattermost.webhookURL", m.WebhookURL)
		if p != nil {
			return p
		}
		out.set("mattermost_webhook_url", v)
	}
	return nil
}
