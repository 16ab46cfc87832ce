package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

func (r *resolver) slack(in *monitoringv1alpha1.SlackConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"timeout", in.Timeout != nil, "0.30.0"},
		fieldGate{"messageText", in.MessageText != nil, "0.31.0"},
		fieldGate{"updateMessage", in.UpdateMessage != nil, "0.32.0"},
	)
	u := r.secretURL(f+".apiURL", in.APIURL)
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_url", u).set("channel", in.Channel).set("username", in.Username).set("color", in.Color)
	out.set("title", in.Title).set("title_link", in.TitleLink).set("pretext", in.Pretext).set("text", in.Text)
	out.set("message_text", in.MessageText)
	var fields []any
	for i, fl := range in.Fields {
		r.check(fl.Title == "" || fl.Value == "", fmt.Sprintf("%s.fields[%d]", f, i), "title and value must be set")
		fields = append(fields, (&obj{}).set("title", fl.Title).set("value", fl.Value).set("short", fl.Short).ms)
	}
	out.set("fields", fields).set("short_fields", in.ShortFields).set("footer", in.Footer).set("fallback", in.Fallback)
	out.set("callback_id", in.CallbackID).set("icon_emoji", in.IconEmoji).set("icon_url", in.IconURL)
	out.set("image_url", in.ImageURL).set("thumb_url", in.ThumbURL).set("link_names", in.LinkNames).set("mrkdwn_in", in.MrkdwnIn)
	var actions []any
	for i, a := range in.Actions {
		af := fmt.Sprintf("%s.actions[%d]", f, i)
		r.check(a.Type == "" || a.Text == "", af, "type and text must be set")
		r.check(a.URL == "" && (a.Name == nil || *a.Name == ""), af, "one of url and name must be set")
		ao := (&obj{}).set("type", a.Type).set("text", a.Text).set("url", a.URL).set("style", a.Style).set("name", a.Name).set("value", a.Value)
		if cf := a.ConfirmField; cf != nil {
			r.check(cf.Text == "", af+".confirm.text", "must be set")
			ao.set("confirm", (&obj{}).set("text", cf.Text).set("title", cf.Title).set("ok_text", cf.OkText).set("dismiss_text", cf.DismissText))
		}
		actions = append(actions, ao.ms)
	}
	out.set("actions", actions).set("update_message", in.UpdateMessage).set("timeout", strp(in.Timeout))
	return out
}

func (r *resolver) discord(in *monitoringv1alpha1.DiscordConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"content", in.Content != nil, "0.28.0"},
		fieldGate{"username", in.Username != nil, "0.28.0"},
		fieldGate{"avatarURL", in.AvatarURL != nil, "0.28.0"},
	)
	u := r.secretURL(f+".apiURL", &in.APIURL)
	av := r.url(f+".avatarURL", strp(in.AvatarURL))
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("webhook_url", u).set("title", in.Title).set("message", in.Message).set("content", in.Content)
	out.set("username", in.Username).set("avatar_url", av)
	return out
}

func (r *resolver) msteams(in *monitoringv1alpha1.MSTeamsConfig) *obj {
	f := r.f
	r.gates(fieldGate{"summary", in.Summary != nil, "0.27.0"})
	u := r.secretURL(f+".webhookUrl", &in.WebhookURL)
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("webhook_url", u).set("title", in.Title).set("summary", in.Summary).set("text", in.Text)
	return out
}

func (r *resolver) msteamsv2(in *monitoringv1alpha1.MSTeamsV2Config) *obj {
	f := r.f
	u := r.secretURL(f+".webhookURL", in.WebhookURL)
	r.check(u == "", f+".webhookURL", "must be set")
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("webhook_url", u).set("title", in.Title).set("text", in.Text)
	return out
}

func (r *resolver) rocketchat(in *monitoringv1alpha1.RocketChatConfig) *obj {
	f := r.f
	u := r.url(f+".apiURL", strp(in.APIURL))
	tok := r.secret(f+".token", in.Token)
	tid := r.secret(f+".tokenID", in.TokenID)
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_url", u).set("token_id", tid).set("token", tok).set("channel", in.Channel).set("color", in.Color)
	out.set("title", in.Title).set("title_link", in.TitleLink).set("text", in.Text)
	var fields []any
	for _, fl := range in.Fields {
		fields = append(fields, (&obj{}).set("title", fl.Title).set("value", fl.Value).set("short", fl.Short).ms)
	}
	out.set("fields", fields).set("short_fields", in.ShortFields).set("emoji", in.Emoji).set("icon_url", in.IconURL)
	out.set("image_url", in.ImageURL).set("thumb_url", in.ThumbURL).set("link_names", in.LinkNames)
	var actions []any
	for _, a := range in.Actions {
		actions = append(actions, (&obj{}).set("type", "button").set("text", a.Text).set("url", a.URL).set("msg", a.Msg).ms)
	}
	out.set("actions", actions)
	return out
}

func (r *resolver) telegram(in *monitoringv1alpha1.TelegramConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"botTokenFile", in.BotTokenFile != nil, "0.26.0"},
		fieldGate{"messageThreadID", in.MessageThreadID != nil, "0.26.0"},
	)
	r.containerFile(f+".botTokenFile", in.BotTokenFile)
	u := r.url(f+".apiURL", strp(in.APIURL))
	tok := r.optSecret(f+".botToken", in.BotToken)
	r.check(in.ChatID == 0, f+".chatID", "must be set")
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_url", u)
	if tok != "" {
		out.set("bot_token", tok)
	} else {
		out.set("bot_token_file", in.BotTokenFile)
	}
	out.set("chat_id", in.ChatID).set("message_thread_id", in.MessageThreadID).set("message", in.Message)
	out.set("disable_notifications", in.DisableNotifications).set("parse_mode", in.ParseMode)
	return out
}

func (r *resolver) webex(in *monitoringv1alpha1.WebexConfig) *obj {
	f := r.f
	u := r.url(f+".apiURL", strp(in.APIURL))
	r.check(in.RoomID == "", f+".roomID", "must be set")
	r.check(in.HTTPConfig == nil || (in.HTTPConfig.Authorization == nil && in.HTTPConfig.BearerTokenSecret == nil),
		f+".httpConfig.authorization", "webex needs the bot token in httpConfig.authorization")
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_url", u).set("room_id", in.RoomID).set("message", in.Message)
	return out
}

func (r *resolver) wechat(in *monitoringv1alpha1.WeChatConfig) *obj {
	f := r.f
	u := r.url(f+".apiURL", strp(in.APIURL))
	sec := r.optSecret(f+".apiSecret", in.APISecret)
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_secret", sec).set("api_url", u).set("corp_id", in.CorpID).set("agent_id", in.AgentID)
	out.set("to_user", in.ToUser).set("to_party", in.ToParty).set("to_tag", in.ToTag)
	out.set("message", in.Message).set("message_type", in.MessageType)
	return out
}
