package promcfg

import (
	"fmt"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// The service discoveries of a ScrapeConfig but the static and file ones: HTTP,
// Kubernetes, DNS and those that reach outside Kubernetes. One function per discovery,
// each writing the keys Prometheus documents for it, as prometheus-operator writes them
// (pkg/prometheus/promcfg.go, generateScrapeConfig), with the Secrets they name read
// through the recorder (so a change to one regenerates the job). Settings a Prometheus
// version does not know are refused, as prometheus-operator's validation refuses them;
// Prometheus's own loader, with the discovery registered (validate.go), then judges every
// entry.

// sdSettings are the keys most discoveries share.
type sdSettings struct {
	refresh *monitoringv1.Duration
	port    *int32
}

func (s sdSettings) set(m *M) {
	if s.refresh != nil {
		m.Set("refresh_interval", string(*s.refresh))
	}
	setOptAlways(m, "port", s.port)
}

// sdClient renders the HTTP client settings of a discovery entry.
func (rc *renderCtx) sdClient(m *M, c httpClient) error {
	return rc.client(m, &c)
}

// setSecret sets key of e to the value of the Secret key sel names, read in the
// ScrapeConfig's namespace; nothing when sel is nil. field names sel in errors.
func (rc *renderCtx) setSecret(e *M, key, field string, sel *corev1.SecretKeySelector) error {
	return rc.rec.setSecret(e, rc.namespace, key, field, sel)
}

// needs refuses a field a Prometheus older than v does not know.
func (rc *renderCtx) needs(field string, v versions.Version) error {
	if !rc.Version.AtLeast(v) {
		return fmt.Errorf("%s needs Prometheus %s or newer (have %s)", field, v.Tag(), rc.Version.Tag())
	}
	return nil
}

// sd renders the entries of one discovery, list, each with render, and sets them under
// key; field names the entries in errors ("consulSDConfigs").
func sd[T any](key, field string, list []T, render func(*M, *T) error) func(*M) error {
	return func(m *M) error {
		out, err := renderEach(field, list, func(c *T) (M, error) {
			e := M{}
			err := render(&e, c)
			return e, err
		})
		m.Set(key, out)
		return err
	}
}

// renderDiscoveries renders the discoveries in output order: HTTP, Kubernetes and DNS,
// then those that reach outside Kubernetes; each function below renders one entry.
func (rc *renderCtx) renderDiscoveries(m *M, spec *monitoringv1alpha1.ScrapeConfigSpec) error {
	for _, f := range []func(*M) error{
		sd("http_sd_configs", "httpSDConfigs", spec.HTTPSDConfigs, rc.httpSD),
		sd("kubernetes_sd_configs", "kubernetesSDConfigs", spec.KubernetesSDConfigs, rc.kubeSD),
		sd("dns_sd_configs", "dnsSDConfigs", spec.DNSSDConfigs, rc.dnsSD),
		sd("consul_sd_configs", "consulSDConfigs", spec.ConsulSDConfigs, rc.consulSD),
		sd("ec2_sd_configs", "ec2SDConfigs", spec.EC2SDConfigs, rc.ec2SD),
		sd("azure_sd_configs", "azureSDConfigs", spec.AzureSDConfigs, rc.azureSD),
		sd("gce_sd_configs", "gceSDConfigs", spec.GCESDConfigs, rc.gceSD),
		sd("openstack_sd_configs", "openstackSDConfigs", spec.OpenStackSDConfigs, rc.openstackSD),
		sd("digitalocean_sd_configs", "digitalOceanSDConfigs", spec.DigitalOceanSDConfigs, rc.digitalOceanSD),
		sd("kuma_sd_configs", "kumaSDConfigs", spec.KumaSDConfigs, rc.kumaSD),
		sd("eureka_sd_configs", "eurekaSDConfigs", spec.EurekaSDConfigs, rc.eurekaSD),
		sd("docker_sd_configs", "dockerSDConfigs", spec.DockerSDConfigs, rc.dockerSD),
		sd("linode_sd_configs", "linodeSDConfigs", spec.LinodeSDConfigs, rc.linodeSD),
		sd("hetzner_sd_configs", "hetznerSDConfigs", spec.HetznerSDConfigs, rc.hetznerSD),
		sd("nomad_sd_configs", "nomadSDConfigs", spec.NomadSDConfigs, rc.nomadSD),
		sd("dockerswarm_sd_configs", "dockerSwarmSDConfigs", spec.DockerSwarmSDConfigs, rc.dockerSwarmSD),
		sd("puppetdb_sd_configs", "puppetDBSDConfigs", spec.PuppetDBSDConfigs, rc.puppetDBSD),
		sd("lightsail_sd_configs", "lightSailSDConfigs", spec.LightSailSDConfigs, rc.lightsailSD),
		sd("ovhcloud_sd_configs", "ovhcloudSDConfigs", spec.OVHCloudSDConfigs, rc.ovhCloudSD),
		sd("scaleway_sd_configs", "scalewaySDConfigs", spec.ScalewaySDConfigs, rc.scalewaySD),
		sd("ionos_sd_configs", "ionosSDConfigs", spec.IonosSDConfigs, rc.ionosSD),
	} {
		if err := f(m); err != nil {
			return err
		}
	}
	return nil
}

func (rc *renderCtx) httpSD(e *M, c *monitoringv1alpha1.HTTPSDConfig) error {
	e.SetAlways("url", string(c.URL))
	sdSettings{refresh: c.RefreshInterval}.set(e)
	return rc.sdClient(e, httpClient{Authorization: c.Authorization, BasicAuth: c.BasicAuth, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

// kubeSD renders the Kubernetes discoveries of a ScrapeConfig (ps.kubernetesSD is the
// monitors').
func (rc *renderCtx) kubeSD(e *M, c *monitoringv1alpha1.KubernetesSDConfig) error {
	setOpt(e, "api_server", c.APIServer)
	e.Set("role", strings.ToLower(string(c.Role)))
	nm, err := rc.kubernetesSDNamespaces(c)
	if err != nil {
		return err
	}
	e.Set("namespaces", nm)
	if c.AttachMetadata != nil && c.AttachMetadata.Node != nil {
		e.Set("attach_metadata", M{{"node", *c.AttachMetadata.Node}})
	}
	var sels []M
	for _, sel := range c.Selectors {
		sm := M{{"role", strings.ToLower(string(sel.Role))}}
		setOpt(&sm, "label", sel.Label)
		setOpt(&sm, "field", sel.Field)
		sels = append(sels, sm)
	}
	e.Set("selectors", sels)
	return rc.sdClient(e, httpClient{Authorization: c.Authorization, BasicAuth: c.BasicAuth, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) dnsSD(e *M, c *monitoringv1alpha1.DNSSDConfig) error {
	if c.Type != nil && *c.Type == monitoringv1alpha1.DNSRecordTypeNS {
		if err := rc.needs("type NS", versions.New(2, 49, 0)); err != nil {
			return err
		}
	}
	e.SetAlways("names", c.Names)
	sdSettings{refresh: c.RefreshInterval}.set(e)
	if c.Type != nil {
		e.Set("type", string(*c.Type))
	}
	setOpt(e, "port", c.Port)
	return nil
}

func (rc *renderCtx) consulSD(e *M, c *monitoringv1alpha1.ConsulSDConfig) error {
	e.Set("server", c.Server)
	setOpt(e, "path_prefix", c.PathPrefix)
	if err := rc.setSecret(e, "token", "tokenRef", c.TokenRef); err != nil {
		return err
	}
	setOpt(e, "datacenter", c.Datacenter)
	setOpt(e, "namespace", c.Namespace)
	setOpt(e, "partition", c.Partition)
	if c.Scheme != nil {
		e.Set("scheme", c.Scheme.String())
	}
	e.Set("services", c.Services)
	e.Set("tags", c.Tags)
	setOptAlways(e, "tag_separator", c.TagSeparator)
	if len(c.NodeMeta) > 0 {
		e.Set("node_meta", stringMap(c.NodeMeta))
	}
	if c.Filter != nil {
		if err := rc.needs("filter", versions.Prometheus3); err != nil {
			return err
		}
		e.Set("filter", *c.Filter)
	}
	if c.HealthFilter != nil {
		if err := rc.needs("healthFilter", versions.New(3, 11, 2)); err != nil {
			return err
		}
		e.Set("health_filter", *c.HealthFilter)
	}
	setOptAlways(e, "allow_stale", c.AllowStale)
	sdSettings{refresh: c.RefreshInterval}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHttp2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

// awsKeys renders an access key pair, which is given whole or not at all.
func (rc *renderCtx) awsKeys(e *M, access, secret *corev1.SecretKeySelector) error {
	switch {
	case access == nil && secret == nil:
		return nil
	case access == nil || secret == nil:
		return fmt.Errorf("accessKey and secretKey must be set together")
	}
	if err := rc.setSecret(e, "access_key", "accessKey", access); err != nil {
		return err
	}
	return rc.setSecret(e, "secret_key", "secretKey", secret)
}

// filters renders the filters of EC2 and Docker discoveries, sorted by name.
func filters(fs monitoringv1alpha1.Filters) []M {
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b monitoringv1alpha1.Filter) int { return strings.Compare(a.Name, b.Name) })
	var out []M
	for _, f := range sorted {
		out = append(out, M{{"name", f.Name}, {"values", f.Values}})
	}
	return out
}

func (rc *renderCtx) ec2SD(e *M, c *monitoringv1alpha1.EC2SDConfig) error {
	setOpt(e, "region", c.Region)
	if err := rc.awsKeys(e, c.AccessKey, c.SecretKey); err != nil {
		return err
	}
	setOpt(e, "role_arn", c.RoleARN)
	e.Set("filters", filters(c.Filters))
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) lightsailSD(e *M, c *monitoringv1alpha1.LightSailSDConfig) error {
	setOpt(e, "region", c.Region)
	setOpt(e, "endpoint", c.Endpoint)
	if err := rc.awsKeys(e, c.AccessKey, c.SecretKey); err != nil {
		return err
	}
	setOpt(e, "role_arn", c.RoleARN)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) azureSD(e *M, c *monitoringv1alpha1.AzureSDConfig) error {
	setOpt(e, "environment", c.Environment)
	method := monitoringv1alpha1.AuthMethodTypeOAuth
	if c.AuthenticationMethod != nil {
		method = *c.AuthenticationMethod
		switch method {
		case monitoringv1alpha1.AuthMethodTypeSDK:
			if err := rc.needs("authenticationMethod SDK", versions.New(2, 52, 0)); err != nil {
				return err
			}
		case monitoringv1alpha1.AuthMethodTypeWorkloadIdentity:
			if err := rc.needs("authenticationMethod WorkloadIdentity", versions.New(3, 11, 0)); err != nil {
				return err
			}
		}
		e.Set("authentication_method", string(method))
	}
	e.Set("subscription_id", c.SubscriptionID)
	setOpt(e, "tenant_id", c.TenantID)
	setOpt(e, "client_id", c.ClientID)
	if method == monitoringv1alpha1.AuthMethodTypeOAuth {
		// OAuth needs all three; prometheus-operator checks them before reading the
		// Secret.
		switch {
		case c.TenantID == nil || *c.TenantID == "":
			return fmt.Errorf("authenticationMethod OAuth requires a tenantID")
		case c.ClientID == nil || *c.ClientID == "":
			return fmt.Errorf("authenticationMethod OAuth requires a clientID")
		case c.ClientSecret == nil:
			return fmt.Errorf("authenticationMethod OAuth requires a clientSecret")
		}
	}
	if err := rc.setSecret(e, "client_secret", "clientSecret", c.ClientSecret); err != nil {
		return err
	}
	setOpt(e, "resource_group", c.ResourceGroup)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) gceSD(e *M, c *monitoringv1alpha1.GCESDConfig) error {
	e.Set("project", c.Project)
	e.Set("zone", c.Zone)
	setOpt(e, "filter", c.Filter)
	setOptAlways(e, "tag_separator", c.TagSeparator)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return nil
}

func (rc *renderCtx) openstackSD(e *M, c *monitoringv1alpha1.OpenStackSDConfig) error {
	if c.Role == monitoringv1alpha1.OpenStackRoleLoadBalancer {
		if err := rc.needs("role LoadBalancer", versions.New(3, 2, 0)); err != nil {
			return err
		}
	}
	e.Set("role", strings.ToLower(string(c.Role)))
	e.Set("region", c.Region)
	if c.IdentityEndpoint != nil {
		e.Set("identity_endpoint", string(*c.IdentityEndpoint))
	}
	for _, f := range []struct {
		key string
		val *string
	}{
		{"username", c.Username}, {"userid", c.UserID}, {"domain_name", c.DomainName}, {"domain_id", c.DomainID},
		{"project_name", c.ProjectName}, {"project_id", c.ProjectID},
		{"application_credential_name", c.ApplicationCredentialName}, {"application_credential_id", c.ApplicationCredentialID},
	} {
		if f.val != nil {
			e.Set(f.key, *f.val)
		}
	}
	if err := rc.setSecret(e, "password", "password", c.Password); err != nil {
		return err
	}
	if err := rc.setSecret(e, "application_credential_secret", "applicationCredentialSecret", c.ApplicationCredentialSecret); err != nil {
		return err
	}
	setOptAlways(e, "all_tenants", c.AllTenants)
	if c.Availability != nil {
		// Prometheus knows public, admin and internal only in lower case (ADR 13).
		e.Set("availability", strings.ToLower(string(*c.Availability)))
	}
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	if c.TLSConfig != nil {
		t, err := renderTLS(rc.rec, rc.namespace, tlsOf(c.TLSConfig))
		if err != nil {
			return fmt.Errorf("tlsConfig: %w", err)
		}
		e.Set("tls_config", t)
	}
	return nil
}

func (rc *renderCtx) digitalOceanSD(e *M, c *monitoringv1alpha1.DigitalOceanSDConfig) error {
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) kumaSD(e *M, c *monitoringv1alpha1.KumaSDConfig) error {
	e.Set("server", string(c.Server))
	if c.ClientID != nil {
		if err := rc.needs("clientID", versions.New(2, 50, 0)); err != nil {
			return err
		}
		e.Set("client_id", *c.ClientID)
	}
	if c.FetchTimeout != nil {
		e.Set("fetch_timeout", string(*c.FetchTimeout))
	}
	sdSettings{refresh: c.RefreshInterval}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) eurekaSD(e *M, c *monitoringv1alpha1.EurekaSDConfig) error {
	e.Set("server", string(c.Server))
	sdSettings{refresh: c.RefreshInterval}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

// dockerHost checks the Docker daemon address of a Docker or Docker Swarm discovery: a
// unix socket is a file of the Prometheus, which spec.arbitraryFSAccessThroughSMs.deny
// keeps tenants from using (ADR 10).
func (rc *renderCtx) dockerHost(host string) error {
	if host == "" {
		return fmt.Errorf("host is required")
	}
	if rc.DenyFileAccess && strings.HasPrefix(strings.ToLower(host), "unix:") {
		return fmt.Errorf("host %q would make Prometheus open a socket on its own filesystem, which spec.arbitraryFSAccessThroughSMs.deny forbids", host)
	}
	return nil
}

func (rc *renderCtx) dockerSD(e *M, c *monitoringv1alpha1.DockerSDConfig) error {
	if err := rc.dockerHost(c.Host); err != nil {
		return err
	}
	e.Set("host", c.Host)
	setOpt(e, "host_networking_host", c.HostNetworkingHost)
	if c.MatchFirstNetwork != nil {
		if err := rc.needs("matchFirstNetwork", versions.New(2, 54, 1)); err != nil {
			return err
		}
		e.SetAlways("match_first_network", *c.MatchFirstNetwork)
	}
	e.Set("filters", filters(c.Filters))
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) dockerSwarmSD(e *M, c *monitoringv1alpha1.DockerSwarmSDConfig) error {
	if err := rc.dockerHost(c.Host); err != nil {
		return err
	}
	e.Set("host", c.Host)
	e.Set("role", strings.ToLower(string(c.Role)))
	e.Set("filters", filters(c.Filters))
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) linodeSD(e *M, c *monitoringv1alpha1.LinodeSDConfig) error {
	setOpt(e, "region", c.Region)
	setOptAlways(e, "tag_separator", c.TagSeparator)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) hetznerSD(e *M, c *monitoringv1alpha1.HetznerSDConfig) error {
	e.Set("role", strings.ToLower(string(c.Role)))
	if c.LabelSelector != nil && *c.LabelSelector != "" {
		if err := rc.needs("labelSelector", versions.New(3, 5, 0)); err != nil {
			return err
		}
		e.Set("label_selector", *c.LabelSelector)
	}
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) nomadSD(e *M, c *monitoringv1alpha1.NomadSDConfig) error {
	e.Set("server", string(c.Server))
	setOptAlways(e, "allow_stale", c.AllowStale)
	setOpt(e, "namespace", c.Namespace)
	setOpt(e, "region", c.Region)
	setOptAlways(e, "tag_separator", c.TagSeparator)
	sdSettings{refresh: c.RefreshInterval}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) puppetDBSD(e *M, c *monitoringv1alpha1.PuppetDBSDConfig) error {
	e.Set("url", string(c.URL))
	e.Set("query", c.Query)
	setOptAlways(e, "include_parameters", c.IncludeParameters)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{BasicAuth: c.BasicAuth, Authorization: c.Authorization, OAuth2: c.OAuth2,
		FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) ovhCloudSD(e *M, c *monitoringv1alpha1.OVHCloudSDConfig) error {
	e.Set("application_key", c.ApplicationKey)
	if err := rc.setSecret(e, "application_secret", "applicationSecret", &c.ApplicationSecret); err != nil {
		return err
	}
	if err := rc.setSecret(e, "consumer_key", "consumerKey", &c.ConsumerKey); err != nil {
		return err
	}
	switch c.Service {
	case monitoringv1alpha1.OVHServiceVPS:
		e.Set("service", "vps")
	case monitoringv1alpha1.OVHServiceDedicatedServer:
		e.Set("service", "dedicated_server")
	default:
		return fmt.Errorf("service %q: must be VPS or DedicatedServer", c.Service)
	}
	setOpt(e, "endpoint", c.Endpoint)
	sdSettings{refresh: c.RefreshInterval}.set(e)
	return nil
}

func (rc *renderCtx) scalewaySD(e *M, c *monitoringv1alpha1.ScalewaySDConfig) error {
	e.Set("access_key", c.AccessKey)
	if err := rc.setSecret(e, "secret_key", "secretKey", &c.SecretKey); err != nil {
		return err
	}
	e.Set("project_id", c.ProjectID)
	e.Set("role", strings.ToLower(string(c.Role)))
	if c.ApiURL != nil {
		e.Set("api_url", string(*c.ApiURL))
	}
	setOpt(e, "zone", c.Zone)
	setOpt(e, "name_filter", c.NameFilter)
	e.Set("tags_filter", c.TagsFilter)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	return rc.sdClient(e, httpClient{FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig})
}

func (rc *renderCtx) ionosSD(e *M, c *monitoringv1alpha1.IonosSDConfig) error {
	e.Set("datacenter_id", c.DataCenterID)
	sdSettings{refresh: c.RefreshInterval, port: c.Port}.set(e)
	client := httpClient{OAuth2: c.OAuth2, FollowRedirects: c.FollowRedirects, EnableHTTP2: c.EnableHTTP2, TLS: tlsOf(c.TLSConfig), Proxy: c.ProxyConfig}
	if c.OAuth2 == nil {
		// authorization is required unless OAuth2 is given, which replaces it.
		a := c.Authorization
		client.Authorization = &a
	}
	return rc.sdClient(e, client)
}

// supportedScrapeConfigSD are the service-discovery fields of a ScrapeConfig Lookout
// renders: every one the API has. One added to the API later is refused with a reason
// until it is rendered.
var supportedScrapeConfigSD = map[string]bool{
	"StaticConfigs": true, "FileSDConfigs": true, "HTTPSDConfigs": true, "KubernetesSDConfigs": true, "DNSSDConfigs": true,
	"ConsulSDConfigs": true, "EC2SDConfigs": true, "AzureSDConfigs": true, "GCESDConfigs": true, "OpenStackSDConfigs": true,
	"DigitalOceanSDConfigs": true, "KumaSDConfigs": true, "EurekaSDConfigs": true, "DockerSDConfigs": true, "LinodeSDConfigs": true,
	"HetznerSDConfigs": true, "NomadSDConfigs": true, "DockerSwarmSDConfigs": true, "PuppetDBSDConfigs": true,
	"LightSailSDConfigs": true, "OVHCloudSDConfigs": true, "ScalewaySDConfigs": true, "IonosSDConfigs": true,
}
