package amcfg

import (
	"fmt"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
)

// defaultBase is the configuration used when the user gives none, as prometheus-operator:
// everything goes to a receiver that does nothing.
const defaultBase = "route:\n  receiver: \"null\"\nreceivers:\n- name: \"null\"\n"

// base is the configuration the AlertmanagerConfigs are added to.
type base struct {
	doc       *obj
	tlsAssets map[string][]byte
	txt       *baseText
	// creds are the credentials its global section lends to receivers that leave them
	// out; tenants' receivers never borrow them (isolate).
	creds globalCreds
}

// loadBase reads Base (or the default) after checking it with Alertmanager's loader.
func loadBase(raw []byte) (*base, error) {
	if len(raw) == 0 || len(trimSpace(raw)) == 0 {
		raw = []byte(defaultBase)
	}
	cfg, err := config.Load(string(raw))
	if err != nil {
		return nil, fmt.Errorf("the base configuration does not load: %w", err)
	}
	ms, err := parseBase(raw)
	if err != nil {
		return nil, fmt.Errorf("the base configuration does not parse: %w", err)
	}
	b := &base{doc: &obj{ms: ms}, tlsAssets: map[string][]byte{}, creds: credsOf(cfg.Global)}
	if _, ok := b.doc.get("route"); !ok {
		return nil, fmt.Errorf("the base configuration has no route")
	}
	return b, nil
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return b[i:j]
}

// globalBase builds the base from the AlertmanagerConfig named by
// spec.alertmanagerConfiguration, the global section and templates of the Alertmanager.
func globalBase(in Input, o options) (*base, error) {
	amc := in.Global
	pt, p := convertPart(amc, o, in.Assets, true)
	if p != nil {
		return nil, fmt.Errorf("global AlertmanagerConfig %s/%s: %w", amc.Namespace, amc.Name, p)
	}
	doc := &obj{}
	var tmpls []string
	c := newConv(o.version, in.Assets, amc.Namespace, amc.Name)
	if am := in.Alertmanager; am != nil && am.Spec.AlertmanagerConfiguration != nil {
		c.namespace = am.Namespace
		g, p := c.globalSection(am.Spec.AlertmanagerConfiguration.Global)
		if p != nil {
			return nil, fmt.Errorf("alertmanager %s/%s: %w", am.Namespace, am.Name, p)
		}
		doc.set("global", g)
		var err error
		if tmpls, err = templates(am.Spec.AlertmanagerConfiguration.Templates); err != nil {
			return nil, err
		}
	}
	doc.set("route", pt.route)
	doc.set("inhibit_rules", pt.inhibit)
	doc.set("receivers", pt.receivers)
	doc.set(o.intervalsKey(), pt.intervals)
	doc.set("templates", tmpls)
	b, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(string(b))
	if err != nil {
		return nil, fmt.Errorf("global AlertmanagerConfig %s/%s does not load: %w", amc.Namespace, amc.Name, err)
	}
	tls := pt.tlsAssets
	for k, v := range c.tlsAssets {
		tls[k] = v
	}
	return &base{doc: doc, tlsAssets: tls, creds: credsOf(cfg.Global)}, nil
}

var _ = monitoringv1alpha1.AlertmanagerConfig{}
