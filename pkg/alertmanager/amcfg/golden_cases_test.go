package amcfg_test

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// amc writes an AlertmanagerConfig; spec is YAML indented by two spaces.
func amc(ns, name, spec string) string {
	return "apiVersion: monitoring.coreos.com/v1alpha1\nkind: AlertmanagerConfig\nmetadata:\n  namespace: " + ns +
		"\n  name: " + name + "\nspec:\n" + strings.Trim(spec, "\n") + "\n"
}

// recv is an AlertmanagerConfig in ns1 with a route to receiver r and that receiver's
// configs (YAML indented for a receiver entry).
func recv(kind, body string) string {
	return amc("ns1", "team", `
  route:
    receiver: r
  receivers:
  - name: r
    `+kind+`:
`+body)
}

func goldenCases() []tcase {
	const latest = ""
	return []tcase{
		{name: "default_base_no_configs"},
		{name: "empty_base_whitespace", base: "\n  \n"},
		{name: "email", configs: []string{recv("emailConfigs", `
    - to: team@example.com
      from: am@example.com
      smarthost: smtp.example.com:587
      authUsername: alice
      authPassword: {name: s, key: password}
      headers:
      - {key: Subject, value: "Alert"}
      sendResolved: true`)}},
		{name: "email_tls_and_threading", configs: []string{recv("emailConfigs", `
    - to: team@example.com
      from: am@example.com
      smarthost: smtp.example.com:465
      requireTLS: true
      forceImplicitTLS: true
      tlsConfig:
        ca: {secret: {name: s, key: ca.crt}}
        serverName: smtp.example.com
      threading:
        threadByDate: Daily`)}},
		{name: "pagerduty", configs: []string{recv("pagerdutyConfigs", `
    - routingKey: {name: s, key: key}
      url: https://events.pagerduty.com/v2/enqueue
      severity: critical
      class: db
      details:
      - {key: team, value: storage}`)}},
		{name: "pagerduty_service_key_images_links", configs: []string{recv("pagerdutyConfigs", `
    - serviceKey: {name: s, key: key}
      source: prometheus
      timeout: 10s
      pagerDutyImageConfigs:
      - {src: "https://example.com/i.png", href: "https://example.com", alt: img}
      pagerDutyLinkConfigs:
      - {href: "https://example.com/runbook", alt: runbook}`)}},
		{name: "slack", configs: []string{recv("slackConfigs", `
    - apiURL: {name: s, key: url}
      channel: "#alerts"
      sendResolved: true`)}},
		{name: "slack_fields_actions", configs: []string{recv("slackConfigs", `
    - apiURL: {name: s, key: url}
      channel: "#alerts"
      title: "{{ .CommonLabels.alertname }}"
      fields:
      - {title: severity, value: "{{ .CommonLabels.severity }}", short: true}
      actions:
      - type: button
        text: Runbook
        url: https://example.com/runbook
        confirm: {text: "Sure?", okText: "yes"}
      mrkdwnIn: [text]
      timeout: 5s
      messageText: hello`)}},
		{name: "slack_global_api_url", base: "global:\n  slack_api_url: https://hooks.example.com/global\nroute:\n  receiver: \"null\"\nreceivers:\n- name: \"null\"\n",
			configs: []string{recv("slackConfigs", `
    - channel: "#alerts"`)}},
		{name: "webhook", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      maxAlerts: 10`)}},
		{name: "webhook_url_secret_timeout_payload", configs: []string{recv("webhookConfigs", `
    - urlSecret: {name: s, key: url}
      timeout: 30s
      payload: '{"text": "{{ .Status }}"}'`)}},
		{name: "opsgenie", configs: []string{recv("opsgenieConfigs", `
    - apiKey: {name: s, key: key}
      message: "{{ .CommonLabels.alertname }}"
      priority: P1
      entity: db
      actions: restart
      updateAlerts: true
      responders:
      - {name: ops, type: team}
      - {username: alice, type: user}
      details:
      - {key: k, value: v}`)}},
		{name: "victorops", configs: []string{recv("victoropsConfigs", `
    - apiKey: {name: s, key: key}
      routingKey: team-a
      messageType: CRITICAL
      customFields:
      - {key: runbook, value: "https://example.com"}`)}},
		{name: "pushover", configs: []string{recv("pushoverConfigs", `
    - userKey: {name: s, key: user}
      token: {name: s, key: token}
      priority: "2"
      retry: 30s
      expire: 1h
      ttl: 1h
      html: true`)}},
		{name: "pushover_key_files", fsMode: monitoringv1.AllowAllAlertmanagerConfigFileSystemMode, configs: []string{recv("pushoverConfigs", `
    - userKeyFile: /etc/alertmanager/secrets/p/user
      tokenFile: /etc/alertmanager/secrets/p/token
      device: phone
      monospace: true`)}},
		{name: "sns", configs: []string{recv("snsConfigs", `
    - apiURL: https://sns.eu-west-1.amazonaws.com
      topicARN: arn:aws:sns:eu-west-1:123456789012:alerts
      sigv4:
        region: eu-west-1
        accessKey: {name: s, key: key}
        secretKey: {name: s, key: password}
      attributes: {team: a}`)}},
		{name: "sns_role_arn", configs: []string{recv("snsConfigs", `
    - topicARN: arn:aws:sns:eu-west-1:123456789012:alerts
      useAWSHTTPClient: true
      sigv4:
        region: eu-west-1
        roleArn: arn:aws:iam::123456789012:role/am
        externalId: ext`)}},
		{name: "telegram", configs: []string{recv("telegramConfigs", `
    - botToken: {name: s, key: token}
      chatID: -1001234
      messageThreadID: 7
      parseMode: HTML
      disableNotifications: true`)}},
		{name: "telegram_bot_token_file", fsMode: monitoringv1.AllowAllAlertmanagerConfigFileSystemMode, configs: []string{recv("telegramConfigs", `
    - botTokenFile: /etc/alertmanager/secrets/t/token
      apiURL: https://api.telegram.org
      chatID: 42`)}},
		{name: "webex", configs: []string{recv("webexConfigs", `
    - roomID: room-1
      apiURL: https://webexapis.com/v1/messages
      httpConfig:
        authorization: {credentials: {name: s, key: token}}`)}},
		{name: "discord", configs: []string{recv("discordConfigs", `
    - apiURL: {name: s, key: url}
      title: "{{ .Status }}"`)}},
		{name: "discord_content_username_avatar", configs: []string{recv("discordConfigs", `
    - apiURL: {name: s, key: url}
      content: hi
      username: am
      avatarURL: https://example.com/a.png`)}},
		{name: "msteams", configs: []string{recv("msteamsConfigs", `
    - webhookUrl: {name: s, key: url}
      title: alert
      summary: sum
      text: body`)}},
		{name: "msteamsv2", configs: []string{recv("msteamsv2Configs", `
    - webhookURL: {name: s, key: url}
      title: alert
      text: body`)}},
		{name: "rocketchat", configs: []string{recv("rocketchatConfigs", `
    - token: {name: s, key: token}
      tokenID: {name: s, key: user}
      channel: "#alerts"
      apiURL: https://rocket.example.com
      fields:
      - {title: t, value: v, short: true}
      actions:
      - {text: Open, url: "https://example.com"}`)}},
		{name: "wechat", configs: []string{recv("wechatConfigs", `
    - apiSecret: {name: s, key: key}
      corpID: corp
      agentID: "1000002"
      toUser: "@all"
      apiURL: https://qyapi.weixin.qq.com/cgi-bin/`)}},
		{name: "all_receiver_kinds_in_one_receiver", configs: []string{recv("slackConfigs", `
    - apiURL: {name: s, key: url}
    webhookConfigs:
    - url: https://example.com/hook
    emailConfigs:
    - {to: a@example.com, from: b@example.com, smarthost: "smtp:25"}`)}},
		{name: "http_basic_auth", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        basicAuth:
          username: {name: s, key: user}
          password: {name: s, key: password}
        followRedirects: false
        enableHttp2: true`)}},
		{name: "http_authorization", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        authorization:
          type: Token
          credentials: {name: s, key: token}`)}},
		{name: "http_bearer_token_secret", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        bearerTokenSecret: {name: s, key: token}`)}},
		{name: "http_oauth2", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        oauth2:
          clientId: {configMap: {name: cm, key: client}}
          clientSecret: {name: s, key: password}
          tokenUrl: https://auth.example.com/token
          scopes: [a, b]
          endpointParams: {audience: am}`)}},
		{name: "http_tls_from_secret", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        tlsConfig:
          ca: {secret: {name: s, key: ca.crt}}
          cert: {secret: {name: s, key: tls.crt}}
          keySecret: {name: s, key: tls.key}
          serverName: hook.example.com
          minVersion: TLS12`)}},
		{name: "http_tls_ca_from_configmap", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        tlsConfig:
          ca: {configMap: {name: cm, key: ca.crt}}
          insecureSkipVerify: true`)}},
		{name: "http_proxy", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        proxyUrl: http://proxy.example.com:3128
        noProxy: localhost
        proxyConnectHeader:
          Proxy-Authorization:
          - {name: s, key: token}`)}},
		{name: "http_proxy_url_original_field", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      httpConfig:
        proxyURL: http://proxy.example.com:3128`)}},
		{name: "strategy_on_namespace", configs: []string{
			amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
			amc("monitoring", "b", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
		}},
		{name: "strategy_except_alertmanager_namespace", strategy: monitoringv1.OnNamespaceExceptForAlertmanagerNamespaceConfigMatcherStrategyType,
			configs: []string{
				amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r\n  inhibitRules:\n  - sourceMatch: [{name: severity, value: critical}]\n    targetMatch: [{name: severity, value: warning}]"),
				amc("monitoring", "b", "  route:\n    receiver: r\n  receivers:\n  - name: r\n  inhibitRules:\n  - sourceMatch: [{name: severity, value: critical}]\n    targetMatch: [{name: severity, value: warning}]"),
			}},
		{name: "strategy_none", strategy: monitoringv1.NoneConfigMatcherStrategyType, configs: []string{
			amc("ns1", "a", "  route:\n    receiver: r\n    matchers: [{name: team, value: a}]\n  receivers:\n  - name: r\n  inhibitRules:\n  - sourceMatch: [{name: severity, value: critical}]\n    targetMatch: [{name: severity, value: warning}]"),
		}},
		{name: "global_amc", global: amc("monitoring", "global", `
  route:
    receiver: default
    groupBy: [alertname]
    groupWait: 30s
    routes:
    - receiver: pager
      matchers: [{name: severity, value: critical, matchType: "="}]
  receivers:
  - name: default
  - name: pager
    webhookConfigs:
    - url: https://example.com/pager
  inhibitRules:
  - sourceMatch: [{name: severity, value: critical}]
    targetMatch: [{name: severity, value: warning}]
    equal: [alertname]
  muteTimeIntervals:
  - name: weekend
    timeIntervals:
    - weekdays: [saturday, sunday]`)},
		{name: "global_amc_with_global_section_and_templates",
			amConfiguration: `
name: global
global:
  resolveTimeout: 5m
  slackApiUrl: {name: s, key: url}
  opsGenieApiKey: {name: s, key: key}
  pagerdutyUrl: https://events.pagerduty.com/v2/enqueue
  smtp:
    from: am@example.com
    smartHost: {host: smtp.example.com, port: "587"}
    authUsername: alice
    authPassword: {name: s, key: password}
    requireTLS: true
templates:
- configMap: {name: tmpl, key: slack.tmpl}
- secret: {name: tmpl, key: mail.tmpl}`,
			global:  amc("monitoring", "global", "  route:\n    receiver: default\n  receivers:\n  - name: default"),
			configs: []string{recv("slackConfigs", "    - channel: \"#a\"")},
			assets:  mergedAssets(amcfgAssets{"secret/monitoring/s/password": "pw", "secret/monitoring/s/key": "k"}),
		},
		{name: "global_section_http_config_and_integrations",
			amConfiguration: `
name: global
global:
  httpConfig:
    basicAuth:
      username: {name: s, key: url}
      password: {name: s, key: key}
    tlsConfig:
      ca: {secret: {name: s, key: url}}
    proxyUrl: http://proxy.example.com:3128
  telegram: {apiURL: "https://api.telegram.org", botToken: {name: s, key: key}}
  jira: {apiURL: "https://jira.example.com"}
  victorops: {apiURL: "https://alert.victorops.com/integrations/generic/20131114/alert/", apiKey: {name: s, key: key}}
  rocketChat: {apiURL: "https://rocket.example.com", token: {name: s, key: key}, tokenID: {name: s, key: key}}
  webex: {apiURL: "https://webexapis.com/v1/messages"}
  wechat: {apiURL: "https://qyapi.weixin.qq.com/cgi-bin/", apiSecret: {name: s, key: key}, apiCorpID: corp}
  mattermost: {webhookURL: {name: s, key: url}}`,
			global:  amc("monitoring", "global", "  route:\n    receiver: default\n  receivers:\n  - name: default"),
			configs: []string{recv("telegramConfigs", "    - chatID: 1")},
		},
		{name: "global_amc_with_selected_configs",
			global: amc("monitoring", "global", "  route:\n    receiver: default\n  receivers:\n  - name: default"),
			configs: []string{
				amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
				amc("ns2", "b", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
			}},
		{name: "base_from_secret", base: `
global:
  resolve_timeout: 5m
route:
  receiver: default
  group_by: [alertname, job]
receivers:
- name: default
  webhook_configs:
  - url: http://example.com/default
`, configs: []string{amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r")}},
		{name: "base_with_sub_routes_kept_after", base: `
route:
  receiver: default
  routes:
  - receiver: ops
    matchers: ['team="ops"']
receivers:
- name: default
- name: ops
`, configs: []string{amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r")}},
		{name: "base_with_inhibit_rules_and_time_intervals", base: `
route:
  receiver: default
receivers:
- name: default
inhibit_rules:
- source_matchers: ['severity="critical"']
  target_matchers: ['severity="warning"']
time_intervals:
- name: nights
  time_intervals:
  - times:
    - start_time: "00:00"
      end_time: "06:00"
`, configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    muteTimeIntervals: [lunch]
  receivers:
  - name: r
  muteTimeIntervals:
  - name: lunch
    timeIntervals:
    - times: [{startTime: "12:00", endTime: "13:00"}]
  inhibitRules:
  - sourceMatch: [{name: alertname, value: Down}]
    targetMatch: [{name: alertname, value: Slow}]`)}},
		{name: "inhibit_rules", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
  receivers:
  - name: r
  inhibitRules:
  - sourceMatch:
    - {name: severity, value: critical, matchType: "="}
    targetMatch:
    - {name: severity, value: "warning|info", matchType: "=~"}
    equal: [alertname, instance]`)}},
		{name: "inhibit_rules_with_own_namespace_matcher", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
  receivers:
  - name: r
  inhibitRules:
  - sourceMatch: [{name: namespace, value: ns1}]
    targetMatch: [{name: namespace, value: ns1}]`)}},
		{name: "inhibit_rules_legacy_version", version: "v0.21.0", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
  receivers:
  - name: r
  inhibitRules:
  - sourceMatch: [{name: severity, value: critical}]
    targetMatch: [{name: severity, value: "warn.*", regex: true}]`)}},
		{name: "mute_time_intervals", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    muteTimeIntervals: [offhours]
  receivers:
  - name: r
  muteTimeIntervals:
  - name: offhours
    timeIntervals:
    - times: [{startTime: "18:00", endTime: "24:00"}]
      weekdays: ["monday:friday"]
      daysOfMonth: [{start: 1, end: 5}, {start: -1}]
      months: ["january:march", december]
      years: ["2026:2027"]`)}},
		{name: "active_time_intervals", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    routes:
    - receiver: r
      activeTimeIntervals: [business]
  receivers:
  - name: r
  muteTimeIntervals:
  - name: business
    timeIntervals:
    - weekdays: ["monday:friday"]
      times: [{startTime: "09:00", endTime: "17:00"}]`)}},
		{name: "time_intervals_before_0_24_use_mute_time_intervals", version: "v0.23.0", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    muteTimeIntervals: [w]
  receivers:
  - name: r
  muteTimeIntervals:
  - name: w
    timeIntervals:
    - weekdays: [saturday]`)}},
		{name: "nested_routes", configs: []string{amc("ns1", "a", `
  route:
    receiver: r1
    groupBy: [alertname]
    groupWait: 10s
    groupInterval: 1m
    repeatInterval: 4h
    routes:
    - receiver: r2
      matchers: [{name: severity, value: critical, matchType: "="}]
      continue: true
      routes:
      - receiver: r1
        matchers: [{name: team, value: "a|b", matchType: "=~"}]
    - matchers: [{name: env, value: dev, matchType: "!="}]
      groupBy: ["..."]
  receivers:
  - name: r1
  - name: r2`)}},
		{name: "route_labels", version: "v0.35.0", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    labels:
    - {key: team, value: a}
  receivers:
  - name: r`)}},
		{name: "multiline_values_in_nested_route", version: "v0.35.0", base: "route:\n  receiver: d\n  routes:\n  - receiver: d\n    labels:\n      note: |\n        first\n          second\nreceivers:\n- name: d\n",
			configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    routes:
    - receiver: r
      labels:
      - {key: note, value: "line one\n  line two\n"}
  receivers:
  - name: r
    slackConfigs:
    - apiURL: {name: s, key: url}
      text: "{{ range .Alerts }}\n  {{ .Annotations.summary }}\n{{ end }}"`)}},
		{name: "matchers_all_types", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    matchers:
    - {name: a, value: x, matchType: "="}
    - {name: b, value: y, matchType: "!="}
    - {name: c, value: "z.*", matchType: "=~"}
    - {name: d, value: "w+", matchType: "!~"}
    - {name: e, value: "quoted \"v\""}
    - {name: f, value: "r.*", regex: true}
  receivers:
  - name: r`)}},
		{name: "matchers_legacy_version_use_match", version: "v0.21.0", configs: []string{amc("ns1", "a", `
  route:
    receiver: r
    matchers:
    - {name: a, value: x}
    - {name: c, value: "z.*", regex: true}
  receivers:
  - name: r`)}},
		{name: "config_without_route", configs: []string{amc("ns1", "a", `
  receivers:
  - name: r
    webhookConfigs:
    - url: https://example.com/hook`)}},
		{name: "configs_sorted_by_namespace_and_name", configs: []string{
			amc("ns2", "b", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
			amc("ns1", "z", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
			amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r"),
		}},
		{name: "same_receiver_name_in_two_configs", configs: []string{
			amc("ns1", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r\n    webhookConfigs:\n    - url: https://example.com/a"),
			amc("ns2", "a", "  route:\n    receiver: r\n  receivers:\n  - name: r\n    webhookConfigs:\n    - url: https://example.com/b"),
		}},
		{name: "version_0_26_msteams", version: "v0.26.0", configs: []string{recv("msteamsConfigs", `
    - webhookUrl: {name: s, key: url}
      title: t`)}},
		{name: "version_0_25_discord_webex", version: "v0.25.0", configs: []string{recv("discordConfigs", `
    - apiURL: {name: s, key: url}`)}},
		{name: "version_0_24_telegram", version: "0.24.0", configs: []string{recv("telegramConfigs", `
    - botToken: {name: s, key: token}
      chatID: 1`)}},
		{name: "version_latest_explicit", version: "v0.35.0", configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook`)}},
		{name: "send_resolved_false_kept", version: latest, configs: []string{recv("webhookConfigs", `
    - url: https://example.com/hook
      sendResolved: false`)}},
		{name: "tls_assets_shared_by_two_receivers", configs: []string{amc("ns1", "a", `
  route:
    receiver: r1
  receivers:
  - name: r1
    webhookConfigs:
    - url: https://example.com/1
      httpConfig:
        tlsConfig: {ca: {secret: {name: s, key: ca.crt}}}
  - name: r2
    webhookConfigs:
    - url: https://example.com/2
      httpConfig:
        tlsConfig: {ca: {secret: {name: s, key: ca.crt}}}`)}},
	}
}

type amcfgAssets map[string]string

// mergedAssets is testAssets with extra values.
func mergedAssets(extra amcfgAssets) map[string]string {
	out := map[string]string{}
	for k, v := range testAssets {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}
