package amcfg

import (
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

// httpConfig converts a receiver's httpConfig to Alertmanager's http_config.
func (c *conv) httpConfig(field string, in *monitoringv1alpha1.HTTPConfig) (*obj, *problem) {
	if in == nil {
		return nil, nil
	}
	out := &obj{}
	auths := 0
	if in.BasicAuth != nil {
		auths++
		u, p := c.secret(field+".basicAuth.username", in.BasicAuth.Username)
		if p != nil {
			return nil, p
		}
		pw, p := c.secret(field+".basicAuth.password", in.BasicAuth.Password)
		if p != nil {
			return nil, p
		}
		out.set("basic_auth", (&obj{}).set("username", u).set("password", pw))
	}
	if in.Authorization != nil {
		auths++
		cred, p := c.optSecret(field+".authorization.credentials", in.Authorization.Credentials)
		if p != nil {
			return nil, p
		}
		out.set("authorization", (&obj{}).set("type", in.Authorization.Type).set("credentials", cred))
	}
	if in.BearerTokenSecret != nil {
		auths++
		tok, p := c.secret(field+".bearerTokenSecret", *in.BearerTokenSecret)
		if p != nil {
			return nil, p
		}
		out.set("authorization", (&obj{}).set("type", "Bearer").set("credentials", tok))
	}
	if in.OAuth2 != nil {
		auths++
		o, p := c.oauth2(field+".oauth2", in.OAuth2)
		if p != nil {
			return nil, p
		}
		out.set("oauth2", o)
	}
	if auths > 1 {
		return nil, invalid(field, "at most one of basicAuth, authorization, bearerTokenSecret and oauth2 may be set")
	}
	tls, p := c.tlsConfig(field+".tlsConfig", in.TLSConfig)
	if p != nil {
		return nil, p
	}
	out.set("tls_config", tls)
	proxy := in.ProxyConfig
	if proxy.ProxyURL == nil && in.ProxyURLOriginal != nil {
		proxy.ProxyURL = in.ProxyURLOriginal
	}
	if p := c.proxy(field, out, proxy); p != nil {
		return nil, p
	}
	out.set("follow_redirects", in.FollowRedirects).set("enable_http2", in.EnableHTTP2)
	return out, nil
}

func (c *conv) oauth2(field string, in *monitoringv1.OAuth2) (*obj, *problem) {
	var id string
	var p *problem
	switch {
	case in.ClientID.Secret != nil:
		id, p = c.secret(field+".clientId.secret", *in.ClientID.Secret)
	case in.ClientID.ConfigMap != nil:
		id, p = c.configMap(field+".clientId.configMap", *in.ClientID.ConfigMap)
	}
	if p != nil {
		return nil, p
	}
	sec, p := c.secret(field+".clientSecret", in.ClientSecret)
	if p != nil {
		return nil, p
	}
	out := (&obj{}).set("client_id", id).set("client_secret", sec).set("token_url", string(in.TokenURL))
	out.set("scopes", in.Scopes).set("endpoint_params", in.EndpointParams)
	tls, p := c.tlsConfig(field+".tlsConfig", in.TLSConfig)
	if p != nil {
		return nil, p
	}
	out.set("tls_config", tls)
	if p := c.proxy(field, out, in.ProxyConfig); p != nil {
		return nil, p
	}
	return out, nil
}

// proxy adds proxy_url, no_proxy, proxy_from_environment and proxy_connect_header to out.
func (c *conv) proxy(field string, out *obj, in monitoringv1.ProxyConfig) *problem {
	u, p := plainURL(field+".proxyUrl", in.ProxyURL)
	if p != nil {
		return p
	}
	out.set("proxy_url", u).set("no_proxy", in.NoProxy).set("proxy_from_environment", in.ProxyFromEnvironment)
	if len(in.ProxyConnectHeader) > 0 {
		names := make([]string, 0, len(in.ProxyConnectHeader))
		for n := range in.ProxyConnectHeader {
			names = append(names, n)
		}
		sort.Strings(names)
		h := &obj{}
		for _, n := range names {
			vals := []string{}
			for i, sel := range in.ProxyConnectHeader[n] {
				v, p := c.secret(field+".proxyConnectHeader."+n+"["+itoa(i)+"]", sel)
				if p != nil {
					return p
				}
				vals = append(vals, v)
			}
			h.set(n, vals)
		}
		out.set("proxy_connect_header", h)
	}
	return nil
}
