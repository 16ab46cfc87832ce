package amcfg_test

import (
	"strings"
	"testing"

	"github.com/prometheus/alertmanager/config"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// bad writes an AlertmanagerConfig bad/x; spec is YAML indented by two spaces.
func bad(spec string) string { return amc("ns1", "bad", spec) }

// badRecv is bad/x with a route to receiver r holding configs of one kind.
func badRecv(kind, body string) string {
	return bad("  route:\n    receiver: r\n  receivers:\n  - name: r\n    " + kind + ":\n" + body)
}

var good = amc("ns2", "good", "  route:\n    receiver: r\n  receivers:\n  - name: r\n    webhookConfigs:\n    - url: https://example.com/good")

type rejectCase struct {
	name    string
	version string
	obj     string
	want    amcfg.Verdict
}

func rejectCases() []rejectCase {
	inv := func(field, msg string) amcfg.Verdict {
		return amcfg.Verdict{Reason: amcfg.ReasonInvalid, Field: field, Message: msg}
	}
	return []rejectCase{
		{name: "missing secret key", obj: badRecv("slackConfigs", "    - apiURL: {name: s, key: nope}"),
			want: amcfg.Verdict{Reason: amcfg.ReasonNotFound, Field: "spec.receivers[0].slackConfigs[0].apiURL", Message: `secret ns1/s key "nope": not found`}},
		{name: "missing configmap", obj: badRecv("webhookConfigs", "    - url: https://example.com\n      httpConfig:\n        tlsConfig: {ca: {configMap: {name: nope, key: ca.crt}}}"),
			want: amcfg.Verdict{Reason: amcfg.ReasonNotFound, Field: "spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig.ca.configMap", Message: `configmap ns1/nope key "ca.crt": not found`}},
		{name: "secret url not a url", obj: badRecv("slackConfigs", "    - apiURL: {name: s, key: bad-url}"),
			want: inv("spec.receivers[0].slackConfigs[0].apiURL", `the Secret value is not a valid URL: unsupported scheme "" for URL`)},
		{name: "webhook url bad scheme", obj: badRecv("webhookConfigs", "    - url: ftp://example.com/x"),
			want: inv("spec.receivers[0].webhookConfigs[0].url", `invalid URL "ftp://example.com/x": unsupported scheme "ftp" for URL`)},
		{name: "webhook url and urlSecret", obj: badRecv("webhookConfigs", "    - url: https://example.com/x\n      urlSecret: {name: s, key: url}"),
			want: inv("spec.receivers[0].webhookConfigs[0]", "url and urlSecret are mutually exclusive")},
		{name: "invalid regex matcher", obj: bad("  route:\n    receiver: r\n    matchers: [{name: a, value: '(', matchType: '=~'}]\n  receivers:\n  - name: r"),
			want: inv("spec.route.matchers[0]", "invalid matcher: error parsing regexp: missing closing ): `^(?:()$`")},
		{name: "unknown match type", obj: bad("  route:\n    receiver: r\n    matchers: [{name: a, value: b, matchType: '=='}]\n  receivers:\n  - name: r"),
			want: inv("spec.route.matchers[0].matchType", `unknown match type "==", want one of =, !=, =~, !~`)},
		{name: "not-equal matcher before 0.22", version: "v0.21.0", obj: bad("  route:\n    receiver: r\n    matchers: [{name: a, value: b, matchType: '!='}]\n  receivers:\n  - name: r"),
			want: inv("spec.route.matchers[0].matchType", `match type "!=" requires Alertmanager >= 0.22.0, this Alertmanager runs 0.21.0`)},
		{name: "duplicate receiver", obj: bad("  route:\n    receiver: r\n  receivers:\n  - name: r\n  - name: r"),
			want: inv("spec.receivers[1].name", `duplicate receiver name "r"`)},
		{name: "empty receiver name", obj: bad("  receivers:\n  - name: ''"),
			want: inv("spec.receivers[0].name", "the receiver name must not be empty")},
		{name: "unknown receiver in route", obj: bad("  route:\n    receiver: nope\n  receivers:\n  - name: r"),
			want: inv("spec.route.receiver", `receiver "nope" not found in spec.receivers`)},
		{name: "unknown receiver in child route", obj: bad("  route:\n    receiver: r\n    routes:\n    - receiver: r\n    - receiver: other\n  receivers:\n  - name: r"),
			want: inv("spec.route.routes[1].receiver", `receiver "other" not found in spec.receivers`)},
		{name: "child route unknown field", obj: bad("  route:\n    receiver: r\n    routes:\n    - {receiver: r, bogus: 1}\n  receivers:\n  - name: r"),
			want: inv("spec.route.routes", `route[0]: json: unknown field "bogus"`)},
		{name: "unknown time interval", obj: bad("  route:\n    receiver: r\n    muteTimeIntervals: [nope]\n  receivers:\n  - name: r"),
			want: inv("spec.route.muteTimeIntervals[0]", `time interval "nope" not found in spec.muteTimeIntervals`)},
		{name: "duplicate time interval", obj: bad("  route:\n    receiver: r\n  receivers:\n  - name: r\n  muteTimeIntervals:\n  - name: t\n  - name: t"),
			want: inv("spec.muteTimeIntervals[1].name", `duplicate time interval name "t"`)},
		{name: "invalid time of day", obj: bad("  route:\n    receiver: r\n  receivers:\n  - name: r\n  muteTimeIntervals:\n  - name: t\n    timeIntervals:\n    - times: [{startTime: '25:00', endTime: '26:00'}]"),
			want: inv("spec.muteTimeIntervals[0].timeIntervals[0]", "invalid time interval: couldn't parse timestamp 25:00, invalid format")},
		{name: "invalid weekday", obj: bad("  route:\n    receiver: r\n  receivers:\n  - name: r\n  muteTimeIntervals:\n  - name: t\n    timeIntervals:\n    - weekdays: [funday]"),
			want: inv("spec.muteTimeIntervals[0].timeIntervals[0]", "invalid time interval: funday is not a valid weekday")},
		{name: "msteams too old", version: "v0.25.0", obj: badRecv("msteamsConfigs", "    - webhookUrl: {name: s, key: url}"),
			want: inv("spec.receivers[0].msteamsConfigs", "msteamsConfigs requires Alertmanager >= 0.26.0, this Alertmanager runs 0.25.0")},
		{name: "telegram too old", version: "v0.23.0", obj: badRecv("telegramConfigs", "    - botToken: {name: s, key: token}\n      chatID: 1"),
			want: inv("spec.receivers[0].telegramConfigs", "telegramConfigs requires Alertmanager >= 0.24.0, this Alertmanager runs 0.23.0")},
		{name: "rocketchat too old", version: "v0.27.0", obj: badRecv("rocketchatConfigs", "    - token: {name: s, key: token}\n      tokenID: {name: s, key: user}"),
			want: inv("spec.receivers[0].rocketchatConfigs", "rocketchatConfigs requires Alertmanager >= 0.28.0, this Alertmanager runs 0.27.0")},
		{name: "webhook timeout too old", version: "v0.27.0", obj: badRecv("webhookConfigs", "    - url: https://example.com\n      timeout: 10s"),
			want: inv("spec.receivers[0].webhookConfigs[0].timeout", "timeout requires Alertmanager >= 0.28.0, this Alertmanager runs 0.27.0")},
		{name: "slack messageText too old", version: "v0.30.0", obj: badRecv("slackConfigs", "    - apiURL: {name: s, key: url}\n      messageText: hi"),
			want: inv("spec.receivers[0].slackConfigs[0].messageText", "messageText requires Alertmanager >= 0.31.0, this Alertmanager runs 0.30.0")},
		{name: "active time intervals too old", version: "v0.23.0", obj: bad("  route:\n    receiver: r\n    activeTimeIntervals: [t]\n  receivers:\n  - name: r\n  muteTimeIntervals:\n  - name: t"),
			want: inv("spec.route.activeTimeIntervals", "activeTimeIntervals requires Alertmanager >= 0.24.0, this Alertmanager runs 0.23.0")},
		{name: "route labels too old", version: "v0.33.0", obj: bad("  route:\n    receiver: r\n    labels: [{key: a, value: b}]\n  receivers:\n  - name: r"),
			want: inv("spec.route.labels", "route labels requires Alertmanager >= 0.34.0, this Alertmanager runs 0.33.0")},
		{name: "pagerduty without key", obj: badRecv("pagerdutyConfigs", "    - severity: critical"),
			want: inv("spec.receivers[0].pagerdutyConfigs[0]", "exactly one of routingKey and serviceKey must be set")},
		{name: "pushover without token", obj: badRecv("pushoverConfigs", "    - userKey: {name: s, key: user}"),
			want: inv("spec.receivers[0].pushoverConfigs[0]", "one of token and tokenFile must be set")},
		{name: "email without recipient", obj: badRecv("emailConfigs", "    - from: a@example.com\n      smarthost: smtp:25"),
			want: inv("spec.receivers[0].emailConfigs[0].to", "the recipient address must be set")},
		{name: "webex without authorization", obj: badRecv("webexConfigs", "    - roomID: x"),
			want: inv("spec.receivers[0].webexConfigs[0].httpConfig.authorization", "webex needs the bot token in httpConfig.authorization")},
		{name: "tls cert without key", obj: badRecv("webhookConfigs", "    - url: https://example.com\n      httpConfig:\n        tlsConfig: {cert: {secret: {name: s, key: tls.crt}}}"),
			want: inv("spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig", "cert and keySecret must be set together")},
		{name: "two auth methods", obj: badRecv("webhookConfigs", "    - url: https://example.com\n      httpConfig:\n        bearerTokenSecret: {name: s, key: token}\n        basicAuth: {username: {name: s, key: user}, password: {name: s, key: password}}"),
			want: inv("spec.receivers[0].webhookConfigs[0].httpConfig", "at most one of basicAuth, authorization, bearerTokenSecret and oauth2 may be set")},
		{name: "opsgenie responder without target", obj: badRecv("opsgenieConfigs", "    - apiKey: {name: s, key: key}\n      responders: [{type: team}]"),
			want: inv("spec.receivers[0].opsgenieConfigs[0].responders[0]", "one of id, name and username must be set")},
		{name: "loader: email without smarthost", obj: badRecv("emailConfigs", "    - to: a@example.com\n      from: b@example.com"),
			want: inv("spec.receivers[0]", "Alertmanager refuses the configuration: no global SMTP smarthost set")},
		{name: "loader: slack without api url", obj: badRecv("slackConfigs", "    - channel: '#a'"),
			want: inv("spec.receivers[0]", "Alertmanager refuses the configuration: no Slack API URL nor App token set either inline or in a file")},
		{name: "loader: bad group wait", obj: bad("  route:\n    receiver: r\n    groupWait: soon\n  receivers:\n  - name: r"),
			want: inv("spec", `Alertmanager refuses the configuration: not a valid duration string: "soon"`)},
	}
}

func TestRejections(t *testing.T) {
	for _, c := range rejectCases() {
		t.Run(c.name, func(t *testing.T) {
			tc := tcase{version: c.version, configs: []string{c.obj, good}}
			res, err := amcfg.Generate(tc.input(t))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			got := res.Verdicts[types.NamespacedName{Namespace: "ns1", Name: "bad"}]
			if got != c.want {
				t.Errorf("verdict\n got: %#v\nwant: %#v", got, c.want)
			}
			if v := res.Verdicts[types.NamespacedName{Namespace: "ns2", Name: "good"}]; !v.Accepted {
				t.Errorf("the good object was rejected too: %#v", v)
			}
			if strings.Contains(string(res.Config), "ns1/bad/") {
				t.Errorf("the rejected object is in the configuration:\n%s", res.Config)
			}
			if !strings.Contains(string(res.Config), "ns2/good/r") {
				t.Errorf("the good object is missing from the configuration:\n%s", res.Config)
			}
			if _, err := config.Load(string(res.Config)); err != nil {
				t.Errorf("the configuration does not load: %v", err)
			}
		})
	}
}

// TestRejectAssetNamesNoObjectHas: a TLS file's Secret or ConfigMap name and key become
// its file name, so names and keys no object can have ("..", "a/b") are refused before
// they are looked up (found by TestAMCorpus).
func TestRejectAssetNamesNoObjectHas(t *testing.T) {
	for _, c := range []struct{ ref, field, msg string }{
		{"secret: {name: '..', key: ca.crt}", "spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig.ca.secret.name", `".." is not a valid object name`},
		{"secret: {name: s, key: ../../etc/shadow}", "spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig.ca.secret.key", `"../../etc/shadow" is not a valid key`},
		{"configMap: {name: a/b, key: ca.crt}", "spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig.ca.configMap.name", `"a/b" is not a valid object name`},
	} {
		tc := tcase{configs: []string{badRecv("webhookConfigs", "    - url: https://example.com\n      httpConfig:\n        tlsConfig: {ca: {"+c.ref+"}}"), good}}
		res, err := amcfg.Generate(tc.input(t))
		if err != nil {
			t.Fatal(err)
		}
		v := res.Verdicts[types.NamespacedName{Namespace: "ns1", Name: "bad"}]
		if v.Accepted || v.Reason != amcfg.ReasonInvalid || v.Field != c.field || !strings.HasPrefix(v.Message, c.msg) {
			t.Errorf("%s: verdict %+v, want %s: %s…", c.ref, v, c.field, c.msg)
		}
	}
}

// TestRejectTemplateKeyNoObjectHas: a template key ".." would name the templates
// directory itself, and Alertmanager refuses a configuration whose template is a
// directory ("failed to parse templates: read …/..: is a directory"); Generate refuses
// the spec instead, so the last good configuration is kept (found by TestAMCorpus).
func TestRejectTemplateKeyNoObjectHas(t *testing.T) {
	tc := tcase{
		amConfiguration: "name: global\ntemplates:\n- secret: {name: tmpl, key: '..'}",
		global:          amc("monitoring", "global", "  route:\n    receiver: default\n  receivers:\n  - name: default"),
	}
	_, err := amcfg.Generate(tc.input(t))
	if err == nil || !strings.Contains(err.Error(), `spec.alertmanagerConfiguration.templates[0].secret.key: ".." is not a valid key`) {
		t.Fatalf("Generate: %v, want the template key refused", err)
	}
}
