package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

// receiverKind converts the configs of one kind of a receiver.
type receiverKind struct {
	// field is the API field (slackConfigs), key the Alertmanager one (slack_configs).
	field, key string
	// minVersion is the first Alertmanager version with this integration ("" = any).
	minVersion string
	count      func(r *monitoringv1alpha1.Receiver) int
	convert    func(c *conv, field string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem)
}

// receiverKinds lists every integration of the v1alpha1 API in output order.
var receiverKinds = []receiverKind{
	{"emailConfigs", "email_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.EmailConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.email(f, &r.EmailConfigs[i])
	}},
	{"pagerdutyConfigs", "pagerduty_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.PagerDutyConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.pagerduty(f, &r.PagerDutyConfigs[i])
	}},
	{"slackConfigs", "slack_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.SlackConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.slack(f, &r.SlackConfigs[i])
	}},
	{"webhookConfigs", "webhook_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.WebhookConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.webhook(f, &r.WebhookConfigs[i])
	}},
	{"opsgenieConfigs", "opsgenie_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.OpsGenieConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.opsgenie(f, &r.OpsGenieConfigs[i])
	}},
	{"victoropsConfigs", "victorops_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.VictorOpsConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.victorops(f, &r.VictorOpsConfigs[i])
	}},
	{"pushoverConfigs", "pushover_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.PushoverConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.pushover(f, &r.PushoverConfigs[i])
	}},
	{"snsConfigs", "sns_configs", "0.23.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.SNSConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.sns(f, &r.SNSConfigs[i])
	}},
	{"telegramConfigs", "telegram_configs", "0.24.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.TelegramConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.telegram(f, &r.TelegramConfigs[i])
	}},
	{"webexConfigs", "webex_configs", "0.25.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.WebexConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.webex(f, &r.WebexConfigs[i])
	}},
	{"discordConfigs", "discord_configs", "0.25.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.DiscordConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.discord(f, &r.DiscordConfigs[i])
	}},
	{"msteamsConfigs", "msteams_configs", "0.26.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.MSTeamsConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.msteams(f, &r.MSTeamsConfigs[i])
	}},
	{"msteamsv2Configs", "msteamsv2_configs", "0.28.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.MSTeamsV2Configs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.msteamsv2(f, &r.MSTeamsV2Configs[i])
	}},
	{"rocketchatConfigs", "rocketchat_configs", "0.28.0", func(r *monitoringv1alpha1.Receiver) int { return len(r.RocketChatConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.rocketchat(f, &r.RocketChatConfigs[i])
	}},
	{"wechatConfigs", "wechat_configs", "", func(r *monitoringv1alpha1.Receiver) int { return len(r.WeChatConfigs) }, func(c *conv, f string, r *monitoringv1alpha1.Receiver, i int) (*obj, *problem) {
		return c.wechat(f, &r.WeChatConfigs[i])
	}},
}

// receivers converts spec.receivers; names are prefixed and must be unique.
func (c *conv) receivers(in []monitoringv1alpha1.Receiver) ([]any, map[string]bool, *problem) {
	names := map[string]bool{}
	var out []any
	for i := range in {
		r := &in[i]
		f := fmt.Sprintf("spec.receivers[%d]", i)
		if r.Name == "" {
			return nil, nil, invalid(f+".name", "the receiver name must not be empty")
		}
		if names[r.Name] {
			return nil, nil, invalid(f+".name", "duplicate receiver name %q", r.Name)
		}
		names[r.Name] = true
		o := (&obj{}).set("name", c.named(r.Name))
		for _, k := range receiverKinds {
			n := k.count(r)
			if n == 0 {
				continue
			}
			if k.minVersion != "" {
				if p := c.gate(f+"."+k.field, k.field, k.minVersion); p != nil {
					return nil, nil, p
				}
			}
			var list []any
			for j := 0; j < n; j++ {
				cfg, p := k.convert(c, fmt.Sprintf("%s.%s[%d]", f, k.field, j), r, j)
				if p != nil {
					return nil, nil, p
				}
				list = append(list, cfg.ms)
			}
			o.set(k.key, list)
		}
		out = append(out, o.ms)
	}
	return out, names, nil
}

// common adds send_resolved and http_config, which every integration has.
func (c *conv) common(field string, out *obj, sendResolved *bool, hc *monitoringv1alpha1.HTTPConfig) *problem {
	out.set("send_resolved", sendResolved)
	h, p := c.httpConfig(field+".httpConfig", hc)
	if p != nil {
		return p
	}
	out.set("http_config", h)
	return nil
}

// gates checks each named field that is set against the version it needs.
func (c *conv) gates(field string, fs ...fieldGate) *problem {
	for _, g := range fs {
		if g.set {
			if p := c.gate(field+"."+g.name, g.name, g.min); p != nil {
				return p
			}
		}
	}
	return nil
}

type fieldGate struct {
	name string
	set  bool
	min  string
}
