//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"net/url"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/versions"
)

func validRemoteURL(u string) error {
	parsed, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("url %q: %w", u, err)
	}
	if parsed.Scheme == "" || parsed.Host == "" {
		return fmt.Errorf("url %q must be absolute with a scheme and a host", u)
	}
	return nil
}

// remoteEndpoint starts a remote_write or remote_read entry: url, name, remote_timeout
// and headers.
func remoteEndpoint(u monitoringv1.URL, name string, timeout *monitoringv1.Duration, headers map[string]string) (M, error) {
	if err := validRemoteURL(string(u)); err != nil {
		return nil, err
	}
	m := M{{"url", string(u)}}
	m.Set("name", name)
	if timeout != nil {
		if _, err := parsePositiveDuration(string(*timeout)); err != nil {
			return nil, fmt.Errorf("remoteTimeout: %w", err)
		}
		m.Set("remote_timeout", string(*timeout))
	}
	m.Set("headers", stringMap(headers))
	return m, nil
}

// remoteWrite renders one remote_write entry.
func (h *headerCtx) remoteWrite(rw *monitoringv1.RemoteWriteSpec) (M, error) {
	v := h.v
	m, err := remoteEndpoint(rw.URL, ptr.Deref(rw.Name, ""), rw.RemoteTimeout, rw.Headers)
	if err != nil {
		return nil, err
	}
	wr, err := userRelabelings(rw.WriteRelabelConfigs, "writeRelabelConfigs", model.UTF8Validation)
	if err != nil {
		return nil, err
	}
	m.Set("write_relabel_configs", wr)
	setOpt(&m, "send_exemplars", rw.SendExemplars)
	setOpt(&m, "send_native_histograms", rw.SendNativeHistograms)
	if rw.MessageVersion != nil {
		if !v.Supports(versions.PromRemoteWriteProtobufMessage) {
			h.unsupported("spec.remoteWrite messageVersion", versions.PromRemoteWriteProtobufMessage)
		} else {
			switch *rw.MessageVersion {
			case monitoringv1.RemoteWriteMessageVersion1_0:
				m.Set("protobuf_message", "prometheus.WriteRequest")
			case monitoringv1.RemoteWriteMessageVersion2_0:
				m.Set("protobuf_message", "io.prometheus.write.v2.Request")
			default:
				return nil, fmt.Errorf("messageVersion %q is not V1.0 or V2.0", *rw.MessageVersion)
			}
		}
	}
	if err := h.remoteAuth(&m, remoteAuth{
		basic: rw.BasicAuth, authz: rw.Authorization, oauth2: rw.OAuth2, token: rw.BearerToken, tokenFile: rw.BearerTokenFile,
		tls: rw.TLSConfig, proxy: rw.ProxyConfig, followRedirects: rw.FollowRedirects, http2: rw.EnableHttp2,
	}); err != nil {
		return nil, err
	}
	if err := h.setSigv4(&m, rw.Sigv4); err != nil {
		return nil, err
	}
	if rw.AzureAD != nil {
		az, err := h.azureAD(rw.AzureAD)
		if err != nil {
			return nil, fmt.Errorf("azureAd: %w", err)
		}
		m.Set("azuread", az)
	}
	if rw.RoundRobinDNS != nil {
		if v.Supports(versions.PromRemoteWriteRoundRobinDNS) {
			m.Set("round_robin_dns", *rw.RoundRobinDNS)
		} else {
			h.unsupported("spec.remoteWrite roundRobinDNS", versions.PromRemoteWriteRoundRobinDNS)
		}
	}
	if q := rw.QueueConfig; q != nil {
		qc := M{}
		for _, kv := range []struct {
			k string
			v int
		}{{"capacity", q.Capacity}, {"min_shards", q.MinShards}, {"max_shards", q.MaxShards}, {"max_samples_per_send", q.MaxSamplesPerSend}} {
			if kv.v < 0 {
				return nil, fmt.Errorf("queueConfig.%s must not be negative", kv.k)
			}
			if kv.v > 0 {
				qc.Set(kv.k, kv.v)
			}
		}
		for _, kv := range []struct {
			k string
			d *monitoringv1.Duration
		}{{"batch_send_deadline", q.BatchSendDeadline}, {"min_backoff", q.MinBackoff}, {"max_backoff", q.MaxBackoff}, {"sample_age_limit", q.SampleAgeLimit}} {
			if kv.d == nil {
				continue
			}
			if _, err := model.ParseDuration(string(*kv.d)); err != nil {
				return nil, fmt.Errorf("queueConfig.%s: %w", kv.k, err)
			}
			qc.Set(kv.k, string(*kv.d))
		}
		if q.RetryOnRateLimit {
			qc.Set("retry_on_http_429", true)
		}
		m.Set("queue_config", qc)
	}
	if mc := rw.MetadataConfig; mc != nil {
		md := M{}
		md.SetAlways("send", mc.Send)
		if mc.SendInterval != "" {
			if _, err := model.ParseDuration(string(mc.SendInterval)); err != nil {
				return nil, fmt.Errorf("metadataConfig.sendInterval: %w", err)
			}
			md.Set("send_interval", string(mc.SendInterval))
		}
		setOpt(&md, "max_samples_per_send", mc.MaxSamplesPerSend)
		m.Set("metadata_config", md)
	}
	return m, nil
}

// remoteRead renders one remote_read entry.
func (h *headerCtx) remoteRead(rr *monitoringv1.RemoteReadSpec) (M, error) {
	m, err := remoteEndpoint(rr.URL, rr.Name, rr.RemoteTimeout, rr.Headers)
	if err != nil {
		return nil, err
	}
	m.Set("required_matchers", stringMap(rr.RequiredMatchers))
	if rr.ReadRecent {
		m.Set("read_recent", true)
	}
	setOptAlways(&m, "filter_external_labels", rr.FilterExternalLabels)
	return m, h.remoteAuth(&m, remoteAuth{
		basic: rr.BasicAuth, authz: rr.Authorization, oauth2: rr.OAuth2, token: rr.BearerToken, tokenFile: rr.BearerTokenFile,
		tls: rr.TLSConfig, proxy: rr.ProxyConfig, followRedirects: rr.FollowRedirects,
	})
}

// remoteAuth is the union of the client settings of remote write and remote read.
type remoteAuth struct {
	basic           *monitoringv1.BasicAuth
	authz           *monitoringv1.Authorization
	oauth2          *monitoringv1.OAuth2
	token           string
	tokenFile       string
	tls             *monitoringv1.TLSConfig
	proxy           monitoringv1.ProxyConfig
	followRedirects *bool
	http2           *bool
}

// remoteAuth renders the client settings of a remote endpoint.
func (h *headerCtx) remoteAuth(m *M, a remoteAuth) error {
	c := httpClient{
		BasicAuth: a.basic, OAuth2: a.oauth2, BearerTokenFile: a.tokenFile,
		TLS: a.tls, Proxy: a.proxy, FollowRedirects: a.followRedirects, EnableHTTP2: a.http2,
	}
	if a.authz != nil {
		if err := a.authz.Validate(); err != nil {
			return fmt.Errorf("authorization: %w", err)
		}
		sa := a.authz.SafeAuthorization
		c.Authorization = &sa
		c.CredentialsFile = a.authz.CredentialsFile
		if sa.Credentials == nil && c.CredentialsFile != "" {
			c.Authorization = &monitoringv1.SafeAuthorization{Type: sa.Type}
		}
	}
	if err := c.render(m, h.rec, h.p.Namespace, h.v); err != nil {
		return err
	}
	if a.token != "" {
		if _, ok := m.Get("authorization"); ok {
			return fmt.Errorf("bearerToken cannot be combined with other authentication")
		}
		m.Set("authorization", M{{"type", "Bearer"}, {"credentials", a.token}})
	}
	return nil
}

// setSigv4 sets sigv4 of out to the AWS Signature Version 4 settings s (none when s is
// nil).
func (h *headerCtx) setSigv4(out *M, s *monitoringv1.Sigv4) error {
	if s == nil {
		return nil
	}
	rec, ns := h.rec, h.p.Namespace
	m := M{}
	m.Set("region", s.Region)
	if err := rec.setSecret(&m, ns, "access_key", "accessKey", s.AccessKey); err != nil {
		return fmt.Errorf("sigv4: %w", err)
	}
	if err := rec.setSecret(&m, ns, "secret_key", "secretKey", s.SecretKey); err != nil {
		return fmt.Errorf("sigv4: %w", err)
	}
	m.Set("profile", s.Profile)
	m.Set("role_arn", s.RoleArn)
	m.Set("external_id", s.ExternalID)
	setOpt(&m, "use_fips_sts_endpoint", s.UseFIPSSTSEndpoint)
	out.Set("sigv4", m)
	return nil
}

// azureAD renders Azure AD settings of a remote write endpoint.
func (h *headerCtx) azureAD(a *monitoringv1.AzureAD) (M, error) {
	m := M{}
	setOpt(&m, "cloud", a.Cloud)
	n := 0
	if a.ManagedIdentity != nil {
		n++
		mi := M{}
		setOpt(&mi, "client_id", a.ManagedIdentity.ClientID)
		m.SetAlways("managed_identity", mi)
	}
	if a.OAuth != nil {
		n++
		sec, err := h.rec.secret(h.p.Namespace, a.OAuth.ClientSecret)
		if err != nil {
			return nil, fmt.Errorf("oauth.clientSecret: %w", err)
		}
		m.Set("oauth", M{{"client_id", a.OAuth.ClientID}, {"client_secret", sec}, {"tenant_id", a.OAuth.TenantID}})
	}
	if a.SDK != nil {
		n++
		sdk := M{}
		setOpt(&sdk, "tenant_id", a.SDK.TenantID)
		m.SetAlways("sdk", sdk)
	}
	if a.WorkloadIdentity != nil {
		n++
		m.Set("workload_identity", M{{"client_id", a.WorkloadIdentity.ClientID}, {"tenant_id", a.WorkloadIdentity.TenantID}})
	}
	if n != 1 {
		return nil, fmt.Errorf("exactly one of managedIdentity, oauth, sdk and workloadIdentity must be set")
	}
	setOpt(&m, "scope", a.Scope)
	return m, nil
}
