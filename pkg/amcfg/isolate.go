package amcfg

import (
	"github.com/prometheus/alertmanager/config"
	yaml "go.yaml.in/yaml/v2"
)

// NoCredentialFile is what a tenant's receiver names as its credential file where
// leaving the credential out would make Alertmanager lend it the global one: an empty
// file every container has.
const NoCredentialFile = "/dev/null"

// globalCreds says which credentials a configuration's global section lends to the
// receivers that leave them out (Alertmanager fills them in when it loads the file).
type globalCreds struct {
	// http: the global http_config carries credentials (authorization, basic auth,
	// OAuth 2.0, a bearer token, a client certificate); proxy are the settings of it an
	// explicit http_config keeps: the proxy and the CAs trusted.
	http  bool
	proxy yaml.MapSlice
	// proxyURL is the global http_config's proxy, which a tenant's explicit one may
	// repeat without it counting as the tenant's own.
	proxyURL string
	// The integration keys and their files. (A tenant's Rocket.Chat receiver always
	// names its own token and token ID: the API requires them.)
	opsgenie, victorops, wechat, telegram, smtpPassword, smtpSecret bool
	// slackURL: the global Slack webhook URL, itself a credential; slackApp: the global
	// Slack App token.
	slackURL, slackApp bool
}

// credsOf reads the credentials of a loaded global section.
func credsOf(g *config.GlobalConfig) globalCreds {
	var c globalCreds
	if g == nil {
		return c
	}
	if h := g.HTTPConfig; h != nil {
		c.http = h.Authorization != nil || h.BasicAuth != nil || h.OAuth2 != nil || h.BearerToken != "" || h.BearerTokenFile != "" ||
			h.TLSConfig.Cert != "" || h.TLSConfig.CertFile != "" || h.TLSConfig.Key != "" || h.TLSConfig.KeyFile != "" || h.TLSConfig.CertRef != "" || h.TLSConfig.KeyRef != ""
		if h.ProxyURL.URL != nil {
			c.proxyURL = h.ProxyURL.String()
			c.proxy = append(c.proxy, yaml.MapItem{Key: "proxy_url", Value: c.proxyURL})
		}
		if h.NoProxy != "" {
			c.proxy = append(c.proxy, yaml.MapItem{Key: "no_proxy", Value: h.NoProxy})
		}
		if h.ProxyFromEnvironment {
			c.proxy = append(c.proxy, yaml.MapItem{Key: "proxy_from_environment", Value: true})
		}
		// The CAs the administrator trusts are no secret; client certificates are.
		var tls yaml.MapSlice
		for _, kv := range []struct{ k, v string }{{"ca", h.TLSConfig.CA}, {"ca_file", h.TLSConfig.CAFile}, {"ca_ref", h.TLSConfig.CARef}} {
			if kv.v != "" {
				tls = append(tls, yaml.MapItem{Key: kv.k, Value: kv.v})
			}
		}
		if h.TLSConfig.InsecureSkipVerify {
			tls = append(tls, yaml.MapItem{Key: "insecure_skip_verify", Value: true})
		}
		if len(tls) > 0 {
			c.proxy = append(c.proxy, yaml.MapItem{Key: "tls_config", Value: tls})
		}
	}
	c.opsgenie = g.OpsGenieAPIKey != "" || g.OpsGenieAPIKeyFile != ""
	c.victorops = g.VictorOpsAPIKey != "" || g.VictorOpsAPIKeyFile != ""
	c.wechat = g.WeChatAPISecret != "" || g.WeChatAPISecretFile != ""
	c.telegram = g.TelegramBotToken != "" || g.TelegramBotTokenFile != ""
	c.smtpPassword = g.SMTPAuthPassword != "" || g.SMTPAuthPasswordFile != ""
	c.smtpSecret = g.SMTPAuthSecret != "" || g.SMTPAuthSecretFile != ""
	c.slackURL = g.SlackAPIURL != nil || g.SlackAPIURLFile != ""
	c.slackApp = g.SlackAppToken != "" || g.SlackAppTokenFile != ""
	return c
}

// httpIntegrations are the integrations whose http_config, when left out, is the global
// one (Alertmanager v0.35's config.Load).
var httpIntegrations = map[string]bool{
	"webhook_configs": true, "slack_configs": true, "pushover_configs": true, "pagerduty_configs": true, "opsgenie_configs": true,
	"wechat_configs": true, "victorops_configs": true, "sns_configs": true, "telegram_configs": true, "discord_configs": true,
	"webex_configs": true, "msteams_configs": true, "msteamsv2_configs": true, "jira_configs": true, "rocketchat_configs": true,
	"mattermost_configs": true, "incidentio_configs": true,
}

// lentKey is a credential of an integration that Alertmanager takes from the global
// section when the integration leaves it out: key or file, when the tenant set endpoint
// (or a proxy of its own; endpoint "" when only a proxy sends the credential elsewhere,
// as the global Slack webhook URL).
type lentKey struct {
	endpoint, key, file string
	global              func(globalCreds) bool
}

var lentKeys = map[string][]lentKey{
	"opsgenie_configs":  {{"api_url", "api_key", "api_key_file", func(c globalCreds) bool { return c.opsgenie }}},
	"victorops_configs": {{"api_url", "api_key", "api_key_file", func(c globalCreds) bool { return c.victorops }}},
	"wechat_configs":    {{"api_url", "api_secret", "api_secret_file", func(c globalCreds) bool { return c.wechat }}},
	"telegram_configs":  {{"api_url", "bot_token", "bot_token_file", func(c globalCreds) bool { return c.telegram }}},
	"slack_configs": {{"", "api_url", "api_url_file", func(c globalCreds) bool { return c.slackURL }},
		{"app_url", "app_token", "app_token_file", func(c globalCreds) bool { return c.slackApp }}},
	"email_configs": {{"smarthost", "auth_password", "auth_password_file", func(c globalCreds) bool { return c.smtpPassword }}, {"smarthost", "auth_secret", "auth_secret_file", func(c globalCreds) bool { return c.smtpSecret }}},
}

// isolate makes the receivers of a tenant's AlertmanagerConfig send no credential of the
// global section to an endpoint the tenant chose (issue 32, ADR 28): an HTTP integration
// without http_config gets an explicit one (carrying only the global proxy and CA settings) when
// the global http_config has credentials, and an integration whose endpoint the tenant
// set names NoCredentialFile for every credential it leaves out that the global section
// would lend. Receivers that use the global endpoint keep the global credentials: they
// reach the administrator's own service. Nothing changes when the global section lends
// nothing.
func isolate(receivers []any, c globalCreds) {
	for _, r := range receivers {
		rcv, ok := r.(yaml.MapSlice)
		if !ok {
			continue
		}
		for _, it := range rcv {
			key, _ := it.Key.(string)
			list, _ := it.Value.([]any)
			for i, cfg := range list {
				ms, ok := cfg.(yaml.MapSlice)
				if !ok {
					continue
				}
				proxied := ownProxy(ms, c)
				if httpIntegrations[key] && c.http && !has(ms, "http_config") {
					ms = append(ms, yaml.MapItem{Key: "http_config", Value: append(yaml.MapSlice{}, c.proxy...)})
				}
				for _, lk := range lentKeys[key] {
					if lk.global(c) && ((lk.endpoint != "" && has(ms, lk.endpoint)) || proxied) && !has(ms, lk.key) && !has(ms, lk.file) {
						ms = append(ms, yaml.MapItem{Key: lk.file, Value: NoCredentialFile})
					}
				}
				list[i] = ms
			}
		}
	}
}

// ownProxy says whether an integration's http_config names a proxy other than the global
// one: the tenant's proxy sees (and, with TLS verification off, reads) what is sent.
func ownProxy(ms yaml.MapSlice, c globalCreds) bool {
	for _, it := range ms {
		if k, _ := it.Key.(string); k != "http_config" {
			continue
		}
		h, _ := it.Value.(yaml.MapSlice)
		for _, hit := range h {
			if k, _ := hit.Key.(string); k == "proxy_url" {
				v, _ := hit.Value.(string)
				return v != "" && v != c.proxyURL
			}
		}
	}
	return false
}

func has(ms yaml.MapSlice, key string) bool {
	for _, it := range ms {
		if k, _ := it.Key.(string); k == key {
			return true
		}
	}
	return false
}
