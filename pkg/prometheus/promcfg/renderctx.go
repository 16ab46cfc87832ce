package promcfg

import "github.com/lookout-operator/lookout/pkg/versions"

import monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

// renderCtx is what rendering one monitor carries besides the object itself: the settings
// of its Prometheus, the recorder of the Secrets and ConfigMaps it reads, the sink its
// warnings go to, where in the object it is, and what every job of the object shares (the
// scrape class, the namespace label to enforce).
type renderCtx struct {
	*promSettings
	rec      *recorder
	warnings *[]string
	// namespace is the object's: references are read there, and it is the value of the
	// enforced namespace label.
	namespace string
	// where names the object, or one of its endpoints, in warnings:
	// "ServiceMonitor default/app endpoints[0]".
	where string
	// class is the scrape class the object uses, nil for none.
	class *monitoringv1.ScrapeClass
	// enforced is the namespace label to enforce on the object's targets and series, "".
	enforced string
}

// newRenderCtx starts rendering the object kind namespace/name, whose resource name (as
// excludedFromEnforcement names it) is resource and which asks for scrape class className.
func newRenderCtx(ps *promSettings, rec *recorder, kind, resource, namespace, name string, className *string) (*renderCtx, error) {
	class, err := ps.class(className)
	if err != nil {
		return nil, err
	}
	return &renderCtx{
		promSettings: ps,
		rec:          rec,
		warnings:     new([]string),
		namespace:    namespace,
		where:        kind + " " + namespace + "/" + name,
		class:        class,
		enforced:     ps.enforcedLabel(resource, namespace, name),
	}, nil
}

// at returns a copy of rc whose warnings name the part of the object at path. The copy
// shares the recorder and the warnings sink.
func (rc *renderCtx) at(path string) *renderCtx {
	c := *rc
	c.where = rc.where + " " + path
	return &c
}

// unsupported records that feature was left out because the version lacks it.
func (rc *renderCtx) unsupported(f versions.Feature) {
	*rc.warnings = append(*rc.warnings, unsupportedWarning(rc.where, f, rc.Version))
}

// setSupported sets key of m to v when the version has feature f and records that it was
// left out otherwise.
func (rc *renderCtx) setSupported(m *M, f versions.Feature, key string, v any) {
	if rc.Version.Supports(f) {
		m.Set(key, v)
	} else {
		rc.unsupported(f)
	}
}

// client renders HTTP client settings, reading references in the object's namespace.
func (rc *renderCtx) client(m *M, c *httpClient) error {
	return c.render(m, rc.rec, rc.namespace, rc.Version)
}
