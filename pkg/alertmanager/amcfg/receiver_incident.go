package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

func (r *resolver) pagerduty(in *monitoringv1alpha1.PagerDutyConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"source", in.Source != nil, "0.25.0"},
		fieldGate{"timeout", in.Timeout != nil, "0.30.0"},
	)
	rk := r.optSecret(f+".routingKey", in.RoutingKey)
	sk := r.optSecret(f+".serviceKey", in.ServiceKey)
	r.check((rk == "") == (sk == ""), f, "exactly one of routingKey and serviceKey must be set")
	u := r.url(f+".url", strp(in.URL))
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("routing_key", rk).set("service_key", sk).set("url", u)
	out.set("client", in.Client).set("client_url", in.ClientURL).set("description", in.Description)
	out.set("severity", in.Severity).set("class", in.Class).set("group", in.Group).set("component", in.Component)
	out.set("details", kvMap(in.Details))
	var images, links []any
	for _, im := range in.PagerDutyImageConfigs {
		images = append(images, (&obj{}).set("src", im.Src).set("href", im.Href).set("alt", im.Alt).ms)
	}
	for _, l := range in.PagerDutyLinkConfigs {
		links = append(links, (&obj{}).set("href", l.Href).set("text", l.Text).ms)
	}
	out.set("images", images).set("links", links).set("source", in.Source).set("timeout", strp(in.Timeout))
	return out
}

func (r *resolver) webhook(in *monitoringv1alpha1.WebhookConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"timeout", in.Timeout != nil, "0.28.0"},
		fieldGate{"payload", in.Payload != nil, "0.32.0"},
	)
	var u string
	switch {
	case in.URL != nil && in.URLSecret != nil:
		r.fail(invalid(f, "url and urlSecret are mutually exclusive"))
	case in.URLSecret != nil:
		u = r.secretURL(f+".urlSecret", in.URLSecret)
	case in.URL != nil:
		u = r.url(f+".url", in.URL)
	}
	r.check(u == "", f, "one of url and urlSecret must be set")
	out := r.common(in.SendResolved, in.HTTPConfig)
	r.check(in.MaxAlerts < 0, f+".maxAlerts", "must not be negative")
	out.set("url", u).set("max_alerts", in.MaxAlerts).set("timeout", strp(in.Timeout)).set("payload", in.Payload)
	return out
}

func (r *resolver) opsgenie(in *monitoringv1alpha1.OpsGenieConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"entity", in.Entity != nil, "0.24.0"},
		fieldGate{"actions", in.Actions != nil, "0.24.0"},
	)
	key := r.optSecret(f+".apiKey", in.APIKey)
	u := r.url(f+".apiURL", strp(in.APIURL))
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_key", key).set("api_url", u).set("message", in.Message).set("description", in.Description)
	out.set("source", in.Source).set("details", kvMap(in.Details)).set("entity", in.Entity)
	var rs []any
	for i, rp := range in.Responders {
		rf := fmt.Sprintf("%s.responders[%d]", f, i)
		r.check((rp.ID == nil || *rp.ID == "") && (rp.Name == nil || *rp.Name == "") && (rp.Username == nil || *rp.Username == ""),
			rf, "one of id, name and username must be set")
		if rp.Type == "teams" {
			r.gate(rf+".type", "responder type teams", "0.24.0")
		}
		rs = append(rs, (&obj{}).set("id", rp.ID).set("name", rp.Name).set("username", rp.Username).set("type", rp.Type).ms)
	}
	out.set("responders", rs).set("actions", in.Actions).set("tags", in.Tags).set("note", in.Note)
	out.set("priority", in.Priority).set("update_alerts", in.UpdateAlerts)
	return out
}

func (r *resolver) victorops(in *monitoringv1alpha1.VictorOpsConfig) *obj {
	f := r.f
	key := r.optSecret(f+".apiKey", in.APIKey)
	u := r.url(f+".apiUrl", strp(in.APIURL))
	r.check(in.RoutingKey == "", f+".routingKey", "must be set")
	out := r.common(in.SendResolved, in.HTTPConfig)
	for _, kv := range in.CustomFields {
		switch kv.Key {
		case "routing_key", "message_type", "state_message", "entity_display_name", "monitoring_tool", "entity_id", "entity_state":
			r.fail(invalid(f+".customFields", "custom field %q is reserved", kv.Key))
		}
	}
	out.set("api_key", key).set("api_url", u).set("routing_key", in.RoutingKey).set("message_type", in.MessageType)
	out.set("entity_display_name", in.EntityDisplayName).set("state_message", in.StateMessage)
	out.set("monitoring_tool", in.MonitoringTool).set("custom_fields", kvMap(in.CustomFields))
	return out
}

func (r *resolver) pushover(in *monitoringv1alpha1.PushoverConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"userKeyFile", in.UserKeyFile != nil, "0.26.0"},
		fieldGate{"tokenFile", in.TokenFile != nil, "0.26.0"},
		fieldGate{"device", in.Device != nil, "0.26.0"},
		fieldGate{"ttl", in.TTL != nil, "0.27.0"},
		fieldGate{"monospace", in.Monospace != nil, "0.29.0"},
	)
	r.containerFile(f+".userKeyFile", in.UserKeyFile)
	r.containerFile(f+".tokenFile", in.TokenFile)
	uk := r.optSecret(f+".userKey", in.UserKey)
	tok := r.optSecret(f+".token", in.Token)
	r.check(uk == "" && (in.UserKeyFile == nil || *in.UserKeyFile == ""), f, "one of userKey and userKeyFile must be set")
	r.check(tok == "" && (in.TokenFile == nil || *in.TokenFile == ""), f, "one of token and tokenFile must be set")
	out := r.common(in.SendResolved, in.HTTPConfig)
	if uk != "" {
		out.set("user_key", uk)
	} else {
		out.set("user_key_file", in.UserKeyFile)
	}
	if tok != "" {
		out.set("token", tok)
	} else {
		out.set("token_file", in.TokenFile)
	}
	out.set("title", in.Title).set("message", in.Message).set("url", in.URL).set("url_title", in.URLTitle)
	out.set("ttl", strp(in.TTL)).set("device", in.Device).set("sound", in.Sound).set("priority", in.Priority)
	out.set("retry", in.Retry).set("expire", in.Expire).set("html", in.HTML).set("monospace", in.Monospace)
	return out
}

func (r *resolver) sns(in *monitoringv1alpha1.SNSConfig) *obj {
	f := r.f
	r.gates(fieldGate{"useAWSHTTPClient", in.UseAWSHTTPClient != nil, "0.33.0"})
	u := r.url(f+".apiURL", in.ApiURL)
	out := r.common(in.SendResolved, in.HTTPConfig)
	out.set("api_url", u)
	if s := in.Sigv4; s != nil {
		sf := f + ".sigv4"
		if s.ExternalID != "" {
			r.check(s.RoleArn == "", sf+".externalId", "requires roleArn to be set")
			r.gate(sf+".externalId", "externalId", "0.33.0")
		}
		ak := r.optSecret(sf+".accessKey", s.AccessKey)
		sk := r.optSecret(sf+".secretKey", s.SecretKey)
		out.set("sigv4", (&obj{}).set("region", s.Region).set("access_key", ak).set("secret_key", sk).
			set("profile", s.Profile).set("role_arn", s.RoleArn).set("external_id", s.ExternalID).
			set("use_fips_sts_endpoint", s.UseFIPSSTSEndpoint))
	}
	out.set("topic_arn", in.TopicARN).set("phone_number", in.PhoneNumber).set("target_arn", in.TargetARN)
	out.set("subject", in.Subject).set("message", in.Message).set("attributes", in.Attributes)
	out.set("use_aws_http_client", in.UseAWSHTTPClient)
	return out
}
