package amcfg

import (
	"fmt"
	"net"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// globalSection converts spec.alertmanagerConfiguration.global of the Alertmanager. c
// resolves references in the Alertmanager's namespace.
func (c *conv) globalSection(in *monitoringv1.AlertmanagerGlobalConfig) (*obj, *problem) {
	if in == nil {
		return nil, nil
	}
	const f = "spec.alertmanagerConfiguration.global"
	out := (&obj{}).set("resolve_timeout", string(in.ResolveTimeout))
	if in.HTTPConfigWithProxy != nil {
		return nil, invalid(f+".httpConfig", "not supported by Lookout yet")
	}
	for _, unsupported := range []struct {
		name string
		set  bool
	}{
		{"telegram", in.TelegramConfig != nil}, {"jira", in.JiraConfig != nil}, {"victorops", in.VictorOpsConfig != nil},
		{"rocketChat", in.RocketChatConfig != nil}, {"webex", in.WebexConfig != nil}, {"wechat", in.WeChatConfig != nil},
		{"mattermost", in.MattermostConfig != nil},
	} {
		if unsupported.set {
			return nil, invalid(f+"."+unsupported.name, "not supported by Lookout yet")
		}
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
	return out, nil
}

func urlp2(u *monitoringv1.URL) *string {
	if u == nil {
		return nil
	}
	s := string(*u)
	return &s
}

// templates lists the template files of spec.alertmanagerConfiguration.templates.
func templates(in []monitoringv1.SecretOrConfigMap) ([]string, error) {
	var out []string
	for i, t := range in {
		switch {
		case t.Secret != nil && t.ConfigMap != nil:
			return nil, fmt.Errorf("spec.alertmanagerConfiguration.templates[%d]: secret and configMap are mutually exclusive", i)
		case t.Secret != nil:
			out = append(out, TemplatesDir+"/"+t.Secret.Key)
		case t.ConfigMap != nil:
			out = append(out, TemplatesDir+"/"+t.ConfigMap.Key)
		}
	}
	return out, nil
}
