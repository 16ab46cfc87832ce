package promcfg

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// promSettings is everything rendering a monitor reads from its Prometheus object. It is
// built in one place (newPromSettings) and hashed whole: the hash is part of every cached
// rendering's key, so a renderer cannot depend on a Prometheus field the key does not
// cover. Every field is exported so that the JSON the hash is taken over includes it
// (TestPromSettingsFieldsHashed checks this).
type promSettings struct {
	Version                  versions.Version
	Namespace, Name          string
	Shards                   int32
	ServiceDiscoveryRole     monitoringv1.ServiceDiscoveryRole
	ScrapeClasses            map[string]monitoringv1.ScrapeClass
	DefaultScrapeClass       string
	NameScheme               model.ValidationScheme
	GlobalScrapeInterval     model.Duration
	OverrideHonorLabels      bool
	OverrideHonorTimestamps  bool
	DenyFileAccess           bool
	IgnoreNamespaceSelectors bool
	EnforcedNamespaceLabel   string
	ExcludedFromEnforcement  []monitoringv1.ObjectReference
	PodTargetLabels          []string
	Enforced                 enforcedLimits
	// APIServer is spec.apiserverConfig: the Kubernetes API server the discovery of every
	// monitor's job (and of the Alertmanagers) talks to, nil for the in-cluster one.
	APIServer *monitoringv1.APIServerConfig
	// RetainShards: spec.shardRetentionPolicy keeps the StatefulSets of shards scaled
	// away running, so every job drops the targets of shards at or above Shards.
	RetainShards bool
	// ReloaderEnv are the variables the config-reloader expands, with the values checks
	// substitute; TenantEnv those of them monitors may refer to (see envrefs.go).
	ReloaderEnv, TenantEnv map[string]*string
	// NodeLocal: a PrometheusAgent in DaemonSet mode discovers only the pods of its own
	// node, unsharded.
	NodeLocal bool
	// Zones are the topology values of spec.shardingStrategy in mode Topology: each
	// shard keeps only the targets of its zone (see topology.go). ZonesPerShard is how
	// many shards share a zone.
	Zones         []string
	ShardsPerZone int32
	// PodZoneLabels: the cluster labels pods with their node's topology.kubernetes.io/zone
	// (Kubernetes 1.35 and later), so topology sharding reads the pod label instead of
	// attaching node metadata.
	PodZoneLabels bool
}

// enforcedLimits are the Prometheus's upper bounds on every monitor's limits.
type enforcedLimits struct {
	SampleLimit, TargetLimit, LabelLimit, LabelNameLengthLimit, LabelValueLengthLimit, KeepDroppedTargets *int64
	BodySizeLimit                                                                                         monitoringv1.ByteSize
}

// newPromSettings copies and validates what monitor rendering needs from p.
func newPromSettings(p *promserver.Server, v versions.Version, podZoneLabels bool) (*promSettings, error) {
	spec := p.Spec
	env := reloaderEnv(p)
	s := &promSettings{
		Version:                  v,
		Namespace:                p.Namespace,
		Name:                     p.Name,
		Shards:                   1,
		ServiceDiscoveryRole:     monitoringv1.EndpointsRole,
		ScrapeClasses:            map[string]monitoringv1.ScrapeClass{},
		NameScheme:               model.UTF8Validation,
		GlobalScrapeInterval:     model.Duration(defaultScrapeInterval),
		OverrideHonorLabels:      spec.OverrideHonorLabels,
		OverrideHonorTimestamps:  spec.OverrideHonorTimestamps,
		DenyFileAccess:           spec.ArbitraryFSAccessThroughSMs.Deny,
		IgnoreNamespaceSelectors: spec.IgnoreNamespaceSelectors,
		EnforcedNamespaceLabel:   spec.EnforcedNamespaceLabel,
		ExcludedFromEnforcement:  spec.ExcludedFromEnforcement,
		PodTargetLabels:          spec.PodTargetLabels,
		ReloaderEnv:              env,
		TenantEnv:                tenantEnv(p, env),
		Enforced: enforcedLimits{
			SampleLimit: spec.EnforcedSampleLimit, TargetLimit: spec.EnforcedTargetLimit, LabelLimit: spec.EnforcedLabelLimit,
			LabelNameLengthLimit: spec.EnforcedLabelNameLengthLimit, LabelValueLengthLimit: spec.EnforcedLabelValueLengthLimit,
			KeepDroppedTargets: spec.EnforcedKeepDroppedTargets, BodySizeLimit: spec.EnforcedBodySizeLimit,
		},
	}
	if a := spec.APIServerConfig; a != nil {
		if err := checkAPIServer(a); err != nil {
			return nil, err
		}
		s.APIServer = a
	}
	if spec.ScrapeInterval != "" {
		if d, err := model.ParseDuration(string(spec.ScrapeInterval)); err == nil {
			s.GlobalScrapeInterval = d
		}
	}
	if spec.Shards != nil {
		if *spec.Shards < 0 {
			return nil, fmt.Errorf("spec.shards must not be negative, got %d", *spec.Shards)
		}
		if *spec.Shards > 1 {
			s.Shards = *spec.Shards
		}
	}
	if r := p.PrometheusOnly().ShardRetentionPolicy; r != nil {
		switch w := ptr.Deref(r.WhenScaled, monitoringv1.DeleteWhenScaledRetentionType); w {
		case monitoringv1.RetainWhenScaledRetentionType:
			s.RetainShards = true
		case monitoringv1.DeleteWhenScaledRetentionType:
		default:
			return nil, fmt.Errorf("spec.shardRetentionPolicy.whenScaled %q: must be Retain or Delete", w)
		}
		if r.Retain != nil {
			if _, err := model.ParseDuration(string(r.Retain.RetentionPeriod)); err != nil {
				return nil, fmt.Errorf("spec.shardRetentionPolicy.retain.retentionPeriod %q: %w", r.Retain.RetentionPeriod, err)
			}
		}
	}
	if p.DaemonSetMode() {
		s.NodeLocal, s.Shards, s.RetainShards = true, 1, false
	}
	if err := p.CheckTopology(); err != nil {
		return nil, err
	}
	if zones := p.Zones(); len(zones) > 0 {
		s.Zones, s.ShardsPerZone, s.PodZoneLabels = zones, p.ShardsPerZone(s.Shards), podZoneLabels
	}
	if spec.ServiceDiscoveryRole != nil {
		switch *spec.ServiceDiscoveryRole {
		case monitoringv1.EndpointsRole, monitoringv1.EndpointSliceRole:
			s.ServiceDiscoveryRole = *spec.ServiceDiscoveryRole
		default:
			return nil, fmt.Errorf("spec.serviceDiscoveryRole %q is not Endpoints or EndpointSlice", *spec.ServiceDiscoveryRole)
		}
	}
	if !v.AtLeast(versions.Prometheus3) && !(v.AtLeast(versions.New(2, 55, 0)) && hasFeature(spec.EnableFeatures, featureUTF8Names)) {
		s.NameScheme = model.LegacyValidation
	}
	if spec.NameValidationScheme != nil {
		switch *spec.NameValidationScheme {
		case monitoringv1.LegacyNameValidationScheme:
			s.NameScheme = model.LegacyValidation
		case monitoringv1.UTF8NameValidationScheme:
			if v.AtLeast(versions.Prometheus3) {
				s.NameScheme = model.UTF8Validation
			}
		}
	}
	for i, c := range spec.ScrapeClasses {
		if c.Name == "" {
			return nil, fmt.Errorf("spec.scrapeClasses[%d]: name is required", i)
		}
		if _, dup := s.ScrapeClasses[c.Name]; dup {
			return nil, fmt.Errorf("spec.scrapeClasses: duplicate scrape class %q", c.Name)
		}
		if c.Default != nil && *c.Default {
			if s.DefaultScrapeClass != "" {
				return nil, fmt.Errorf("spec.scrapeClasses: both %q and %q are marked default; only one can be", s.DefaultScrapeClass, c.Name)
			}
			s.DefaultScrapeClass = c.Name
		}
		if c.TLSConfig != nil {
			if err := c.TLSConfig.Validate(); err != nil {
				return nil, fmt.Errorf("spec.scrapeClasses[%s].tlsConfig: %w", c.Name, err)
			}
		}
		if _, err := userRelabelings(c.Relabelings, fmt.Sprintf("spec.scrapeClasses[%s].relabelings", c.Name), s.NameScheme); err != nil {
			return nil, err
		}
		if _, err := userRelabelings(c.MetricRelabelings, fmt.Sprintf("spec.scrapeClasses[%s].metricRelabelings", c.Name), s.NameScheme); err != nil {
			return nil, err
		}
		s.ScrapeClasses[c.Name] = c
	}
	if err := checkCopiedLabels("spec.podTargetLabels", spec.PodTargetLabels, s.NameScheme); err != nil {
		return nil, err
	}
	if spec.EnforcedNamespaceLabel != "" && !s.NameScheme.IsValidLabelName(spec.EnforcedNamespaceLabel) {
		return nil, fmt.Errorf("spec.enforcedNamespaceLabel %q is not a valid label name", spec.EnforcedNamespaceLabel)
	}
	return s, nil
}

// featureUTF8Names is the Prometheus 2.55 feature flag that allowed UTF-8 names before
// 3.0 made them the default.
const featureUTF8Names = "utf8-names"

func hasFeature(features []monitoringv1.EnableFeature, name string) bool {
	for _, f := range features {
		if string(f) == name {
			return true
		}
	}
	return false
}

// legacyLoader reports whether the Prometheus's own loader judges every label name with
// the legacy rules: a 2.x release without UTF-8 names. Prometheus 3 judges label names in
// static configurations and external labels as UTF-8 whatever its name validation
// scheme, like the loader Lookout links.
func (s *promSettings) legacyLoader() bool {
	return !s.Version.AtLeast(versions.Prometheus3) && s.NameScheme == model.LegacyValidation
}

// checkStaticLabels checks the label names of a static configuration (field) the way the
// Prometheus's loader will, so that the message names the field (the loader's does not).
func (s *promSettings) checkStaticLabels(field string, names []string) error {
	for _, n := range names {
		switch {
		case s.legacyLoader() && !model.LegacyValidation.IsValidLabelName(n):
			return fmt.Errorf("%s: %q is not a valid label name for Prometheus %s, which allows only legacy names", field, n, s.Version.Tag())
		case !model.UTF8Validation.IsValidLabelName(n):
			return fmt.Errorf("%s: %q is not a valid label name", field, n)
		}
	}
	return nil
}

// hash is the FNV-1a hash of the settings' JSON encoding (map keys sorted).
func (s *promSettings) hash() (uint64, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return 0, fmt.Errorf("hashing the scrape settings: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write(data)
	return h.Sum64(), nil
}

// class returns the scrape class a monitor uses (nil for none) or an error when it names
// a class the Prometheus does not define.
func (s *promSettings) class(name *string) (*monitoringv1.ScrapeClass, error) {
	n := s.DefaultScrapeClass
	if name != nil {
		n = *name
	}
	if n == "" {
		return nil, nil
	}
	c, ok := s.ScrapeClasses[n]
	if !ok {
		return nil, fmt.Errorf("scrape class %q is not defined in Prometheus %s/%s", n, s.Namespace, s.Name)
	}
	return &c, nil
}

// excluded reports whether namespace enforcement is disabled for an object.
func (s *promSettings) excluded(resource, ns, name string) bool {
	for _, ref := range s.ExcludedFromEnforcement {
		if ref.Resource != resource || (ref.Group != "" && ref.Group != "monitoring.coreos.com") {
			continue
		}
		if ref.Namespace == ns && (ref.Name == "" || ref.Name == name) {
			return true
		}
	}
	return false
}

// enforcedLabel returns the namespace label to enforce on an object, "" for none.
func (s *promSettings) enforcedLabel(resource, ns, name string) string {
	if s.EnforcedNamespaceLabel == "" || s.excluded(resource, ns, name) {
		return ""
	}
	return s.EnforcedNamespaceLabel
}

// jobName builds "serviceMonitor/<ns>/<name>/<i>".
func jobName(kind, ns, name string, i int) string {
	var b strings.Builder
	b.Grow(len(kind) + len(ns) + len(name) + 8)
	b.WriteString(kind)
	b.WriteByte('/')
	b.WriteString(ns)
	b.WriteByte('/')
	b.WriteString(name)
	b.WriteByte('/')
	b.WriteString(fmt.Sprint(i))
	return b.String()
}

// checkAPIServer checks what of spec.apiserverConfig the operator can judge without its
// Secrets: a host URL with a scheme, and one way to authenticate.
func checkAPIServer(a *monitoringv1.APIServerConfig) error {
	u, err := url.Parse(a.Host)
	if a.Host == "" || err != nil || u.Scheme == "" || u.Host == "" {
		return fmt.Errorf("spec.apiserverConfig.host %q must be a URL with a scheme and a host, such as https://kubernetes.example.com:6443", a.Host)
	}
	n := 0
	//lint:ignore SA1019 the deprecated bearer token fields are honoured
	for _, set := range []bool{a.BasicAuth != nil, a.Authorization != nil, a.BearerToken != "", a.BearerTokenFile != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("spec.apiserverConfig: at most one of basicAuth, authorization, bearerToken and bearerTokenFile can be set")
	}
	return nil
}
