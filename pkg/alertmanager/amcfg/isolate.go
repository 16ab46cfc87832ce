package amcfg

import (
	"fmt"

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
	// The integration keys and their files. (A tenant's Rocket.Chat receiver always
	// names its own token and token ID: the API requires them.)
	opsgenie, victorops, wechat, telegram, smtpPassword, smtpSecret bool
	// slack: a global Slack API URL (the URL is the credential) or App token.
	slack bool
	// smtpCert: the global smtp_tls_config has a client certificate; smtpTLS are the
	// settings of it an explicit tls_config keeps (the CAs trusted).
	smtpCert bool
	smtpTLS  yaml.MapSlice
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
			c.proxy = append(c.proxy, yaml.MapItem{Key: "proxy_url", Value: h.ProxyURL.String()})
		}
		if h.NoProxy != "" {
			c.proxy = append(c.proxy, yaml.MapItem{Key: "no_proxy", Value: h.NoProxy})
		}
		if h.ProxyFromEnvironment {
			c.proxy = append(c.proxy, yaml.MapItem{Key: "proxy_from_environment", Value: true})
		}
		// The CAs the administrator trusts are no secret; client certificates are.
		if tls := caSettings(h.TLSConfig.CA, h.TLSConfig.CAFile, h.TLSConfig.CARef, h.TLSConfig.InsecureSkipVerify); len(tls) > 0 {
			c.proxy = append(c.proxy, yaml.MapItem{Key: "tls_config", Value: tls})
		}
	}
	if t := g.SMTPTLSConfig; t != nil {
		c.smtpCert = t.Cert != "" || t.CertFile != "" || t.Key != "" || t.KeyFile != "" || t.CertRef != "" || t.KeyRef != ""
		c.smtpTLS = caSettings(t.CA, t.CAFile, t.CARef, t.InsecureSkipVerify)
	}
	c.slack = g.SlackAPIURL != nil || g.SlackAPIURLFile != "" || g.SlackAppToken != "" || g.SlackAppTokenFile != ""
	c.opsgenie = g.OpsGenieAPIKey != "" || g.OpsGenieAPIKeyFile != ""
	c.victorops = g.VictorOpsAPIKey != "" || g.VictorOpsAPIKeyFile != ""
	c.wechat = g.WeChatAPISecret != "" || g.WeChatAPISecretFile != ""
	c.telegram = g.TelegramBotToken != "" || g.TelegramBotTokenFile != ""
	c.smtpPassword = g.SMTPAuthPassword != "" || g.SMTPAuthPasswordFile != ""
	c.smtpSecret = g.SMTPAuthSecret != "" || g.SMTPAuthSecretFile != ""
	return c
}

// caSettings is a tls_config with only the CAs trusted (no secret) of another.
func caSettings(ca, caFile, caRef string, insecure bool) yaml.MapSlice {
	var tls yaml.MapSlice
	for _, kv := range []struct{ k, v string }{{"ca", ca}, {"ca_file", caFile}, {"ca_ref", caRef}} {
		if kv.v != "" {
			tls = append(tls, yaml.MapItem{Key: kv.k, Value: kv.v})
		}
	}
	if insecure {
		tls = append(tls, yaml.MapItem{Key: "insecure_skip_verify", Value: true})
	}
	return tls
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
// section when the integration leaves it out: key or file, when the tenant set endpoint.
type lentKey struct {
	endpoint, key, file string
	global              func(globalCreds) bool
}

var lentKeys = map[string][]lentKey{
	"opsgenie_configs":  {{"api_url", "api_key", "api_key_file", func(c globalCreds) bool { return c.opsgenie }}},
	"victorops_configs": {{"api_url", "api_key", "api_key_file", func(c globalCreds) bool { return c.victorops }}},
	"wechat_configs":    {{"api_url", "api_secret", "api_secret_file", func(c globalCreds) bool { return c.wechat }}},
	"telegram_configs":  {{"api_url", "bot_token", "bot_token_file", func(c globalCreds) bool { return c.telegram }}},
	"email_configs":     {{"smarthost", "auth_password", "auth_password_file", func(c globalCreds) bool { return c.smtpPassword }}, {"smarthost", "auth_secret", "auth_secret_file", func(c globalCreds) bool { return c.smtpSecret }}},
}

// isolate makes the receivers of a tenant's AlertmanagerConfig send no credential of the
// global section to an endpoint the tenant chose (issue 32, ADR 28): an HTTP integration
// without http_config gets an explicit one (carrying only the global proxy and CA settings) when
// the global http_config has credentials, and an integration whose endpoint the tenant
// set, or that the tenant sends through a proxy of its own (http_config.proxy_url), names
// NoCredentialFile for every credential it leaves out that the global section would
// lend. An email integration with its own smarthost gets a tls_config without the global
// client certificate. A Slack integration that would use the global API URL or App token
// through the tenant's proxy is refused: the URL itself is the credential. Receivers that
// use the global endpoint directly keep the global credentials: they reach the
// administrator's own service. Nothing changes when the global section lends nothing.
func isolate(receivers []any, c globalCreds) *problem {
	for ri, r := range receivers {
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
				proxied := tenantProxy(ms)
				if key == "slack_configs" && c.slack && proxied && !has(ms, "api_url") && !has(ms, "api_url_file") {
					return invalid(fmt.Sprintf("spec.receivers[%d].%s[%d].httpConfig.proxyUrl", ri, apiField(key), i),
						"the global Slack API URL or App token would go through a proxy this AlertmanagerConfig chose; set apiURL or leave the proxy out")
				}
				if httpIntegrations[key] && c.http && !has(ms, "http_config") {
					ms = append(ms, yaml.MapItem{Key: "http_config", Value: append(yaml.MapSlice{}, c.proxy...)})
				}
				for _, lk := range lentKeys[key] {
					if lk.global(c) && (has(ms, lk.endpoint) || proxied) && !has(ms, lk.key) && !has(ms, lk.file) {
						ms = append(ms, yaml.MapItem{Key: lk.file, Value: NoCredentialFile})
					}
				}
				if key == "email_configs" && c.smtpCert && has(ms, "smarthost") && !has(ms, "tls_config") {
					ms = append(ms, yaml.MapItem{Key: "tls_config", Value: append(yaml.MapSlice{}, c.smtpTLS...)})
				}
				list[i] = ms
			}
		}
	}
	return nil
}

// tenantProxy says whether an integration's own http_config names a proxy.
func tenantProxy(ms yaml.MapSlice) bool {
	for _, it := range ms {
		if k, _ := it.Key.(string); k == "http_config" {
			h, _ := it.Value.(yaml.MapSlice)
			return has(h, "proxy_url")
		}
	}
	return false
}

// apiField is the API field of an Alertmanager integration key (slack_configs:
// slackConfigs).
func apiField(key string) string {
	for _, k := range receiverKinds {
		if k.key == key {
			return k.field
		}
	}
	return key
}

func has(ms yaml.MapSlice, key string) bool {
	for _, it := range ms {
		if k, _ := it.Key.(string); k == key {
			return true
		}
	}
	return false
}
