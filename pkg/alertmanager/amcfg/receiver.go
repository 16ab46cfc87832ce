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
	// convert converts config i; a problem is left in the resolver.
	convert func(r *resolver, rcv *monitoringv1alpha1.Receiver, i int) *obj
}

// kind is the receiverKind whose configs are the list configs returns, each converted
// by convert.
func kind[T any](field, key, minVersion string, configs func(*monitoringv1alpha1.Receiver) []T, convert func(*resolver, *T) *obj) receiverKind {
	return receiverKind{
		field: field, key: key, minVersion: minVersion,
		count:   func(rcv *monitoringv1alpha1.Receiver) int { return len(configs(rcv)) },
		convert: func(r *resolver, rcv *monitoringv1alpha1.Receiver, i int) *obj { return convert(r, &configs(rcv)[i]) },
	}
}

// receiverKinds lists every integration of the v1alpha1 API in output order.
var receiverKinds = []receiverKind{
	kind("emailConfigs", "email_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.EmailConfig { return r.EmailConfigs }, (*resolver).email),
	kind("pagerdutyConfigs", "pagerduty_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.PagerDutyConfig { return r.PagerDutyConfigs }, (*resolver).pagerduty),
	kind("slackConfigs", "slack_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.SlackConfig { return r.SlackConfigs }, (*resolver).slack),
	kind("webhookConfigs", "webhook_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.WebhookConfig { return r.WebhookConfigs }, (*resolver).webhook),
	kind("opsgenieConfigs", "opsgenie_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.OpsGenieConfig { return r.OpsGenieConfigs }, (*resolver).opsgenie),
	kind("victoropsConfigs", "victorops_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.VictorOpsConfig { return r.VictorOpsConfigs }, (*resolver).victorops),
	kind("pushoverConfigs", "pushover_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.PushoverConfig { return r.PushoverConfigs }, (*resolver).pushover),
	kind("snsConfigs", "sns_configs", "0.23.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.SNSConfig { return r.SNSConfigs }, (*resolver).sns),
	kind("telegramConfigs", "telegram_configs", "0.24.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.TelegramConfig { return r.TelegramConfigs }, (*resolver).telegram),
	kind("webexConfigs", "webex_configs", "0.25.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.WebexConfig { return r.WebexConfigs }, (*resolver).webex),
	kind("discordConfigs", "discord_configs", "0.25.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.DiscordConfig { return r.DiscordConfigs }, (*resolver).discord),
	kind("msteamsConfigs", "msteams_configs", "0.26.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.MSTeamsConfig { return r.MSTeamsConfigs }, (*resolver).msteams),
	kind("msteamsv2Configs", "msteamsv2_configs", "0.28.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.MSTeamsV2Config { return r.MSTeamsV2Configs }, (*resolver).msteamsv2),
	kind("rocketchatConfigs", "rocketchat_configs", "0.28.0", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.RocketChatConfig { return r.RocketChatConfigs }, (*resolver).rocketchat),
	kind("wechatConfigs", "wechat_configs", "", func(r *monitoringv1alpha1.Receiver) []monitoringv1alpha1.WeChatConfig { return r.WeChatConfigs }, (*resolver).wechat),
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
				res := c.resolver(fmt.Sprintf("%s.%s[%d]", f, k.field, j))
				cfg := k.convert(res, r, j)
				if res.p != nil {
					return nil, nil, res.p
				}
				list = append(list, cfg.ms)
			}
			o.set(k.key, list)
		}
		out = append(out, o.ms)
	}
	return out, names, nil
}

// fieldGate is a field of a config that needs Alertmanager min when set.
type fieldGate struct {
	name string
	set  bool
	min  string
}
