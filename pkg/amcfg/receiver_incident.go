package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

func urlp(u *monitoringv1alpha1.URL) *string {
	if u == nil {
		return nil
	}
	s := string(*u)
	return &s
}

func durp[T ~string](d *T) *string {
	if d == nil {
		return nil
	}
	s := string(*d)
	return &s
}

func (c *conv) pagerduty(f string, in *monitoringv1alpha1.PagerDutyConfig) (*obj, *problem) {
	if p := c.gates(f,
		fieldGate{"source", in.Source != nil, "0.25.0"},
		fieldGate{"timeout", in.Timeout != nil, "0.30.0"},
	); p != nil {
		return nil, p
	}
	rk, p := c.optSecret(f+".routingKey", in.RoutingKey)
	if p != nil {
		return nil, p
	}
	sk, p := c.optSecret(f+".serviceKey", in.ServiceKey)
	if p != nil {
		return nil, p
	}
	if (rk == "") == (sk == "") {
		return nil, invalid(f, "exactly one of routingKey and serviceKey must be set")
	}
	u, p := plainURL(f+".url", urlp(in.URL))
	if p != nil {
		return nil, p
	}
	out := &obj{}
	if p := c.common(f, out, in.SendResolved, in.HTTPConfig); p != nil {
		return nil, p
	}
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
	out.set("images", images).set("links", links).set("source", in.Source).set("timeout", durp(in.Timeout))
	return out, nil
}

func (c *conv) webhook(f string, in *monitoringv1alpha1.WebhookConfig) (*obj, *problem) {
	if p := c.gates(f,
		fieldGate{"timeout", in.Timeout != nil, "0.28.0"},
		fieldGate{"payload", in.Payload != nil, "0.32.0"},
	); p != nil {
		return nil, p
	}
	var u string
	var p *problem
	switch {
	case in.URL != nil && in.URLSecret != nil:
		return nil, invalid(f, "url and urlSecret are mutually exclusive")
	case in.URLSecret != nil:
		u, p = c.secretURL(f+".urlSecret", in.URLSecret)
	case in.URL != nil:
		u, p = plainURL(f+".url", in.URL)
	}
	if p != nil {
		return nil, p
	}
	if u == "" {
		return nil, invalid(f, "one of url and urlSecret must be set")
	}
	out := &obj{}
	if p := c.common(f, out, in.SendResolved, in.HTTPConfig); p != nil {
		return nil, p
	}
	if in.MaxAlerts < 0 {
		return nil, invalid(f+".maxAlerts", "must not be negative")
	}
	out.set("url", u).set("max_alerts", in.MaxAlerts).set("timeout", durp(in.Timeout)).set("payload", in.Payload)
	return out, nil
}

func (c *conv) opsgenie(f string, in *monitoringv1alpha1.OpsGenieConfig) (*obj, *problem) {
	if p := c.gates(f,
		fieldGate{"entity", in.Entity != nil, "0.24.0"},
		fieldGate{"actions", in.Actions != nil, "0.24.0"},
	); p != nil {
		return nil, p
	}
	key, p := c.optSecret(f+".apiKey", in.APIKey)
	if p != nil {
		return nil, p
	}
	u, p := plainURL(f+".apiURL", urlp(in.APIURL))
	if p != nil {
		return nil, p
	}
	out := &obj{}
	if p := c.common(f, out, in.SendResolved, in.HTTPConfig); p != nil {
		return nil, p
	}
	out.set("api_key", key).set("api_url", u).set("message", in.Message).set("description", in.Description)
	out.set("source", in.Source).set("details", kvMap(in.Details)).set("entity", in.Entity)
	var rs []any
	for i, r := range in.Responders {
		rf := fmt.Sprintf("%s.responders[%d]", f, i)
		if (r.ID == nil || *r.ID == "") && (r.Name == nil || *r.Name == "") && (r.Username == nil || *r.Username == "") {
			return nil, invalid(rf, "one of id, name and username must be set")
		}
		if r.Type == "teams" {
			if p := c.gate(rf+".type", "responder type teams", "0.24.0"); p != nil {
				return nil, p
			}
		}
		rs = append(rs, (&obj{}).set("id", r.ID).set("name", r.Name).set("username", r.Username).set("type", r.Type).ms)
	}
	out.set("responders", rs).set("actions", in.Actions).set("tags", in.Tags).set("note", in.Note)
	out.set("priority", in.Priority).set("update_alerts", in.UpdateAlerts)
	return out, nil
}

func (c *conv) victorops(f string, in *monitoringv1alpha1.VictorOpsConfig) (*obj, *problem) {
	key, p := c.optSecret(f+".apiKey", in.APIKey)
	if p != nil {
		return nil, p
	}
	u, p := plainURL(f+".apiUrl", urlp(in.APIURL))
	if p != nil {
		return nil, p
	}
	if in.RoutingKey == "" {
		return nil, invalid(f+".routingKey", "must be set")
	}
	out := &obj{}
	if p := c.common(f, out, in.SendResolved, in.HTTPConfig); p != nil {
		return nil, p
	}
	for _, kv := range in.CustomFields {
		switch kv.Key {
		case "routing_key", "message_type", "state_message", "entity_display_name", "monitoring_tool", "entity_id", "entity_state":
			return nil, invalid(f+".customFields", "custom field %q is reserved", kv.Key)
		}
	}
	out.set("api_key", key).set("api_url", u).set("routing_key", in.RoutingKey).set("message_type", in.MessageType)
	out.set("entity_display_name", in.EntityDisplayName).set("state_message", in.StateMessage)
	out.set("monitoring_tool", in.MonitoringTool).set("custom_fields", kvMap(in.CustomFields))
	return out, nil
}

func (c *conv) pushover(f string, in *monitoringv1alpha1.PushoverConfig) (*obj, *problem) {
	if p := c.gates(f,
		fieldGate{"userKeyFile", in.UserKeyFile != nil, "0.26.0"},
		fieldGate{"tokenFile", in.TokenFile != nil, "0.26.0"},
		fieldGate{"device", in.Device != nil, "0.26.0"},
		fieldGate{"ttl", in.TTL != nil, "0.27.0"},
		fieldGate{"monospace", in.Monospace != nil, "0.29.0"},
	); p != nil {
		return nil, p
	}
	if p := c.containerFile(f+".userKeyFile", in.UserKeyFile); p != nil {
		return nil, p
	}
	if p := c.containerFile(f+".tokenFile", in.TokenFile); p != nil {
		return nil, p
	}
	uk, p := c.optSecret(f+".userKey", in.UserKey)
	if p != nil {
		return nil, p
	}
	tok, p := c.optSecret(f+".token", in.Token)
	if p != nil {
		return nil, p
	}
	if uk == "" && (in.UserKeyFile == nil || *in.UserKeyFile == "") {
		return nil, invalid(f, "one of userKey and userKeyFile must be set")
	}
	if tok == "" && (in.TokenFile == nil || *in.TokenFile == "") {
		return nil, invalid(f, "one of token and tokenFile must be set")
	}
	out := &obj{}
	if p := c.common(f, out, in.SendResolved, in.HTTPConfig); p != nil {
		return nil, p
	}
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
	out.set("ttl", durp(in.TTL)).set("device", in.Device).set("sound", in.Sound).set("priority", in.Priority)
	out.set("retry", in.Retry).set("expire", in.Expire).set("html", in.HTML).set("monospace", in.Monospace)
	return out, nil
}

func (c *conv) sns(f string, in *monitoringv1alpha1.SNSConfig) (*obj, *problem) {
	if p := c.gates(f, fieldGate{"useAWSHTTPClient", in.UseAWSHTTPClient != nil, "0.33.0"}); p != nil {
		return nil, p
	}
	u, p := plainURL(f+".apiURL", in.ApiURL)
	if p != nil {
		return nil, p
	}
	out := &obj{}
	if p := c.common(f, out, in.SendResolved, in.HTTPConfig); p != nil {
		return nil, p
	}
	out.set("api_url", u)
	if s := in.Sigv4; s != nil {
		sf := f + ".sigv4"
		if s.ExternalID != "" {
			if s.RoleArn == "" {
				return nil, invalid(sf+".externalId", "requires roleArn to be set")
			}
			if p := c.gate(sf+".externalId", "externalId", "0.33.0"); p != nil {
				return nil, p
			}
		}
		ak, p := c.optSecret(sf+".accessKey", s.AccessKey)
		if p != nil {
			return nil, p
		}
		sk, p := c.optSecret(sf+".secretKey", s.SecretKey)
		if p != nil {
			return nil, p
		}
		out.set("sigv4", (&obj{}).set("region", s.Region).set("access_key", ak).set("secret_key", sk).
			set("profile", s.Profile).set("role_arn", s.RoleArn).set("external_id", s.ExternalID).
			set("use_fips_sts_endpoint", s.UseFIPSSTSEndpoint))
	}
	out.set("topic_arn", in.TopicARN).set("phone_number", in.PhoneNumber).set("target_arn", in.TargetARN)
	out.set("subject", in.Subject).set("message", in.Message).set("attributes", in.Attributes)
	out.set("use_aws_http_client", in.UseAWSHTTPClient)
	return out, nil
}
