//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// httpClient is the union of the HTTP client settings monitors, Alertmanager endpoints
// and remote endpoints can carry.
type httpClient struct {
	Authorization     *monitoringv1.SafeAuthorization
	CredentialsFile   string
	BasicAuth         *monitoringv1.BasicAuth
	OAuth2            *monitoringv1.OAuth2
	BearerTokenSecret *corev1.SecretKeySelector
	BearerTokenFile   string
	// BearerToken is an inline token (spec.apiserverConfig.bearerToken, deprecated).
	BearerToken     string
	FollowRedirects *bool
	EnableHTTP2     *bool
	TLS             *monitoringv1.TLSConfig
	Proxy           monitoringv1.ProxyConfig
}

// clientOf is the client of an object's HTTP settings c, with tls and proxy.
func clientOf(c *monitoringv1.HTTPConfigWithoutTLS, tls *monitoringv1.TLSConfig, proxy monitoringv1.ProxyConfig) httpClient {
	return httpClient{
		Authorization: c.Authorization, BasicAuth: c.BasicAuth, OAuth2: c.OAuth2, BearerTokenSecret: c.BearerTokenSecret,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tls, Proxy: proxy,
	}
}

// fsAccess lists the fields of a client that read files from Prometheus's filesystem.
func (h *httpClient) fsAccess() []string {
	var out []string
	if h.BearerTokenFile != "" {
		out = append(out, "bearerTokenFile")
	}
	if h.CredentialsFile != "" {
		out = append(out, "authorization.credentialsFile")
	}
	if h.TLS != nil {
		if h.TLS.CAFile != "" {
			out = append(out, "tlsConfig.caFile")
		}
		if h.TLS.CertFile != "" {
			out = append(out, "tlsConfig.certFile")
		}
		if h.TLS.KeyFile != "" {
			out = append(out, "tlsConfig.keyFile")
		}
	}
	return out
}

// render appends the client settings to m. Secret values are inlined; TLS material is
// written to tls-assets files.
func (h *httpClient) render(m *M, rec *recorder, ns string, v versions.Version) error {
	n := 0
	for _, set := range []bool{h.Authorization != nil || h.CredentialsFile != "", h.BasicAuth != nil, h.OAuth2 != nil, h.BearerTokenSecret != nil || h.BearerTokenFile != "" || h.BearerToken != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("at most one of authorization, basicAuth, oauth2 and bearer token can be set")
	}
	if h.BasicAuth != nil {
		ba, err := renderBasicAuth(rec, ns, h.BasicAuth)
		if err != nil {
			return fmt.Errorf("basicAuth: %w", err)
		}
		m.Set("basic_auth", ba)
	}
	switch {
	case h.Authorization != nil || h.CredentialsFile != "":
		a, err := renderAuthorization(rec, ns, h.Authorization, h.CredentialsFile)
		if err != nil {
			return fmt.Errorf("authorization: %w", err)
		}
		m.Set("authorization", a)
	case h.BearerTokenSecret != nil:
		tok, err := rec.secret(ns, *h.BearerTokenSecret)
		if err != nil {
			return fmt.Errorf("bearerTokenSecret: %w", err)
		}
		m.Set("authorization", M{{"type", "Bearer"}, {"credentials", tok}})
	case h.BearerTokenFile != "":
		m.Set("authorization", M{{"type", "Bearer"}, {"credentials_file", h.BearerTokenFile}})
	case h.BearerToken != "":
		m.Set("authorization", M{{"type", "Bearer"}, {"credentials", h.BearerToken}})
	}
	if h.OAuth2 != nil {
		o, err := renderOAuth2(rec, ns, h.OAuth2, v)
		if err != nil {
			return fmt.Errorf("oauth2: %w", err)
		}
		m.Set("oauth2", o)
	}
	setOpt(m, "follow_redirects", h.FollowRedirects)
	setOpt(m, "enable_http2", h.EnableHTTP2)
	if h.TLS != nil {
		t, err := renderTLS(rec, ns, h.TLS)
		if err != nil {
			return fmt.Errorf("tlsConfig: %w", err)
		}
		m.Set("tls_config", t)
	}
	return renderProxy(m, rec, ns, h.Proxy)
}

func renderBasicAuth(rec *recorder, ns string, ba *monitoringv1.BasicAuth) (M, error) {
	user, err := rec.secret(ns, ba.Username)
	if err != nil {
		return nil, fmt.Errorf("username: %w", err)
	}
	pass, err := rec.secret(ns, ba.Password)
	if err != nil {
		return nil, fmt.Errorf("password: %w", err)
	}
	return M{{"username", user}, {"password", pass}}, nil
}

func renderAuthorization(rec *recorder, ns string, a *monitoringv1.SafeAuthorization, credentialsFile string) (M, error) {
	typ := "Bearer"
	if a != nil && a.Type != "" {
		typ = a.Type
	}
	if strings.EqualFold(strings.TrimSpace(typ), "basic") {
		return nil, fmt.Errorf("type cannot be %q, use basicAuth instead", typ)
	}
	m := M{{"type", typ}}
	switch {
	case a != nil && a.Credentials != nil && credentialsFile != "":
		return nil, fmt.Errorf("credentials and credentialsFile cannot both be set")
	case a != nil && a.Credentials != nil:
		c, err := rec.secret(ns, *a.Credentials)
		if err != nil {
			return nil, fmt.Errorf("credentials: %w", err)
		}
		m.Set("credentials", c)
	case credentialsFile != "":
		m.Set("credentials_file", credentialsFile)
	default:
		return nil, fmt.Errorf("credentials are required")
	}
	return m, nil
}

func renderOAuth2(rec *recorder, ns string, o *monitoringv1.OAuth2, v versions.Version) (M, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if _, err := url.Parse(string(o.TokenURL)); err != nil {
		return nil, fmt.Errorf("tokenUrl: %w", err)
	}
	var clientID string
	var err error
	switch {
	case o.ClientID.Secret != nil:
		clientID, err = rec.secret(ns, *o.ClientID.Secret)
	case o.ClientID.ConfigMap != nil:
		clientID, err = rec.configMap(ns, *o.ClientID.ConfigMap)
	}
	if err != nil {
		return nil, fmt.Errorf("clientId: %w", err)
	}
	secret, err := rec.secret(ns, o.ClientSecret)
	if err != nil {
		return nil, fmt.Errorf("clientSecret: %w", err)
	}
	m := M{{"client_id", clientID}, {"client_secret", secret}, {"token_url", string(o.TokenURL)}}
	m.Set("scopes", o.Scopes)
	if len(o.EndpointParams) > 0 {
		m.Set("endpoint_params", stringMap(o.EndpointParams))
	}
	if o.TLSConfig != nil {
		t, err := renderTLS(rec, ns, tlsOf(o.TLSConfig))
		if err != nil {
			return nil, fmt.Errorf("tlsConfig: %w", err)
		}
		m.Set("tls_config", t)
	}
	if err := renderProxy(&m, rec, ns, o.ProxyConfig); err != nil {
		return nil, err
	}
	return m, nil
}

// renderTLS renders a tls_config. CA, certificate and key from Secrets or ConfigMaps
// become files under the tls-assets mount; *File fields are passed through (the
// arbitrary-filesystem guard is checked by the caller).
func renderTLS(rec *recorder, ns string, t *monitoringv1.TLSConfig) (M, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	m := M{}
	ca, caData, err := rec.tlsFile(ns, t.CA)
	if err != nil {
		return nil, fmt.Errorf("ca: %w", err)
	}
	cert, certData, err := rec.tlsFile(ns, t.Cert)
	if err != nil {
		return nil, fmt.Errorf("cert: %w", err)
	}
	key, keyData, err := rec.tlsKey(ns, t.KeySecret)
	if err != nil {
		return nil, fmt.Errorf("keySecret: %w", err)
	}
	if err := checkTLSMaterial(read(ca, caData), read(cert, certData), read(key, keyData)); err != nil {
		return nil, err
	}
	if ca == "" {
		ca = t.CAFile
	}
	m.Set("ca_file", ca)
	if cert == "" {
		cert = t.CertFile
	}
	m.Set("cert_file", cert)
	if key == "" {
		key = t.KeyFile
	}
	m.Set("key_file", key)
	setOpt(&m, "server_name", t.ServerName)
	setOpt(&m, "insecure_skip_verify", t.InsecureSkipVerify)
	if t.MinVersion != nil {
		m.Set("min_version", string(*t.MinVersion))
	}
	if t.MaxVersion != nil {
		m.Set("max_version", string(*t.MaxVersion))
	}
	return m, nil
}

func renderProxy(m *M, rec *recorder, ns string, p monitoringv1.ProxyConfig) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if p.ProxyURL != nil && *p.ProxyURL != "" {
		u, err := url.Parse(*p.ProxyURL)
		if err != nil {
			return fmt.Errorf("proxyUrl: %w", err)
		}
		if u.Scheme == "" || u.Host == "" {
			return fmt.Errorf("proxyUrl %q must be an absolute URL with a scheme and a host", *p.ProxyURL)
		}
		m.Set("proxy_url", *p.ProxyURL)
	}
	setOpt(m, "no_proxy", p.NoProxy)
	if p.ProxyFromEnvironment != nil && *p.ProxyFromEnvironment {
		m.Set("proxy_from_environment", true)
	}
	if len(p.ProxyConnectHeader) > 0 {
		hdr := M{}
		for _, k := range slices.Sorted(maps.Keys(p.ProxyConnectHeader)) {
			var vals []string
			for i, sel := range p.ProxyConnectHeader[k] {
				v, err := rec.secret(ns, sel)
				if err != nil {
					return fmt.Errorf("proxyConnectHeader[%s][%d]: %w", k, i, err)
				}
				vals = append(vals, v)
			}
			hdr.SetAlways(k, vals)
		}
		m.Set("proxy_connect_header", hdr)
	}
	return nil
}

// stringMap renders a map with sorted keys.
func stringMap[V any](in map[string]V) M {
	m := make(M, 0, len(in))
	for _, k := range slices.Sorted(maps.Keys(in)) {
		m = append(m, KV{k, in[k]})
	}
	return m
}
