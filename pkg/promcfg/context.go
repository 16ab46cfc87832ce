package promcfg

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
)

// scrapeContext holds what every monitor's rendering needs from the Prometheus object.
// Its hash is part of each cached rendering's key: a change here re-renders all monitors.
type scrapeContext struct {
	version  Version
	promNS   string
	promName string
	spec     *monitoringv1.PrometheusSpec

	shards        int32
	sdRole        monitoringv1.ServiceDiscoveryRole
	scrapeClasses map[string]monitoringv1.ScrapeClass
	defaultClass  string
	nameScheme    model.ValidationScheme
	hash          uint64
}

// newScrapeContext validates the Prometheus-level settings that monitors depend on.
func newScrapeContext(p *monitoringv1.Prometheus, v Version) (*scrapeContext, error) {
	sc := &scrapeContext{
		version:       v,
		promNS:        p.Namespace,
		promName:      p.Name,
		spec:          &p.Spec,
		shards:        1,
		sdRole:        monitoringv1.EndpointsRole,
		scrapeClasses: map[string]monitoringv1.ScrapeClass{},
		nameScheme:    model.UTF8Validation,
	}
	if p.Spec.Shards != nil {
		if *p.Spec.Shards < 0 {
			return nil, fmt.Errorf("spec.shards must not be negative, got %d", *p.Spec.Shards)
		}
		if *p.Spec.Shards > 1 {
			sc.shards = *p.Spec.Shards
		}
	}
	if p.Spec.ServiceDiscoveryRole != nil {
		switch *p.Spec.ServiceDiscoveryRole {
		case monitoringv1.EndpointsRole, monitoringv1.EndpointSliceRole:
			sc.sdRole = *p.Spec.ServiceDiscoveryRole
		default:
			return nil, fmt.Errorf("spec.serviceDiscoveryRole %q is not Endpoints or EndpointSlice", *p.Spec.ServiceDiscoveryRole)
		}
	}
	if !v.AtLeast(Version{3, 0, 0}) {
		sc.nameScheme = model.LegacyValidation
	}
	if p.Spec.NameValidationScheme != nil {
		switch *p.Spec.NameValidationScheme {
		case monitoringv1.LegacyNameValidationScheme:
			sc.nameScheme = model.LegacyValidation
		case monitoringv1.UTF8NameValidationScheme:
			if v.AtLeast(Version{3, 0, 0}) {
				sc.nameScheme = model.UTF8Validation
			}
		}
	}
	for i, c := range p.Spec.ScrapeClasses {
		if c.Name == "" {
			return nil, fmt.Errorf("spec.scrapeClasses[%d]: name is required", i)
		}
		if _, dup := sc.scrapeClasses[c.Name]; dup {
			return nil, fmt.Errorf("spec.scrapeClasses: duplicate scrape class %q", c.Name)
		}
		if c.Default != nil && *c.Default {
			if sc.defaultClass != "" {
				return nil, fmt.Errorf("spec.scrapeClasses: both %q and %q are marked default; only one can be", sc.defaultClass, c.Name)
			}
			sc.defaultClass = c.Name
		}
		if c.TLSConfig != nil {
			if err := c.TLSConfig.Validate(); err != nil {
				return nil, fmt.Errorf("spec.scrapeClasses[%s].tlsConfig: %w", c.Name, err)
			}
		}
		if _, err := userRelabelings(c.Relabelings, fmt.Sprintf("spec.scrapeClasses[%s].relabelings", c.Name), sc.nameScheme); err != nil {
			return nil, err
		}
		if _, err := userRelabelings(c.MetricRelabelings, fmt.Sprintf("spec.scrapeClasses[%s].metricRelabelings", c.Name), sc.nameScheme); err != nil {
			return nil, err
		}
		sc.scrapeClasses[c.Name] = c
	}
	if p.Spec.EnforcedNamespaceLabel != "" && !sc.nameScheme.IsValidLabelName(p.Spec.EnforcedNamespaceLabel) {
		return nil, fmt.Errorf("spec.enforcedNamespaceLabel %q is not a valid label name", p.Spec.EnforcedNamespaceLabel)
	}
	h, err := hashScrapeSettings(p, v)
	if err != nil {
		return nil, err
	}
	sc.hash = h
	return sc, nil
}

// hashScrapeSettings hashes every Prometheus field a monitor's rendering reads.
func hashScrapeSettings(p *monitoringv1.Prometheus, v Version) (uint64, error) {
	s := &p.Spec
	data, err := json.Marshal([]any{
		v, p.Namespace, p.Name, s.Shards, s.ServiceDiscoveryRole, s.ScrapeClasses, s.NameValidationScheme,
		s.EnforcedNamespaceLabel, s.ExcludedFromEnforcement, s.IgnoreNamespaceSelectors,
		s.OverrideHonorLabels, s.OverrideHonorTimestamps, s.ArbitraryFSAccessThroughSMs,
		s.EnforcedSampleLimit, s.EnforcedTargetLimit, s.EnforcedLabelLimit, s.EnforcedLabelNameLengthLimit,
		s.EnforcedLabelValueLengthLimit, s.EnforcedKeepDroppedTargets, s.EnforcedBodySizeLimit,
		s.PodTargetLabels, s.ScrapeInterval, s.ScrapeTimeout, s.ShardingStrategy,
	})
	if err != nil {
		return 0, err
	}
	h := fnv.New64a()
	_, _ = h.Write(data)
	return h.Sum64(), nil
}

// className returns the scrape class a monitor uses ("" for none) or an error when it
// names a class the Prometheus does not define.
func (sc *scrapeContext) class(name *string) (*monitoringv1.ScrapeClass, error) {
	n := sc.defaultClass
	if name != nil {
		n = *name
	}
	if n == "" {
		return nil, nil
	}
	c, ok := sc.scrapeClasses[n]
	if !ok {
		return nil, fmt.Errorf("scrape class %q is not defined in Prometheus %s/%s", n, sc.promNS, sc.promName)
	}
	return &c, nil
}

// excluded reports whether namespace enforcement is disabled for an object.
func (sc *scrapeContext) excluded(resource, ns, name string) bool {
	for _, ref := range sc.spec.ExcludedFromEnforcement {
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
func (sc *scrapeContext) enforcedLabel(resource, ns, name string) string {
	if sc.spec.EnforcedNamespaceLabel == "" || sc.excluded(resource, ns, name) {
		return ""
	}
	return sc.spec.EnforcedNamespaceLabel
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
