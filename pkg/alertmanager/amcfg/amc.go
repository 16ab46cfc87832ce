package amcfg

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// part is what one AlertmanagerConfig adds to the configuration.
type part struct {
	key       types.NamespacedName
	route     *obj // nil when the object has no route
	receivers []any
	inhibit   []any
	intervals []any
	tlsAssets map[string][]byte
	txt       *partText
	// gzSize caches compressedSize.
	gzSize int
}

// options are the settings of the Alertmanager the parts are generated for.
type options struct {
	version   versions.Version
	strategy  monitoringv1.AlertmanagerConfigMatcherStrategyType
	namespace string // the Alertmanager's namespace
	// fsMode is spec.alertmanagerConfigFileSystemMode ("" is the default,
	// FromAlertmanagerConfigMatcherStrategy).
	fsMode monitoringv1.AlertmanagerConfigFileSystemMode
}

func optionsFor(am *monitoringv1.Alertmanager) (options, error) {
	var o options
	if am == nil {
		v, _ := versions.ParseAlertmanager("")
		o.version = v
		return o, nil
	}
	v, err := versions.ParseAlertmanager(am.Spec.Version)
	if err != nil {
		return o, err
	}
	o.version = v
	o.strategy = am.Spec.AlertmanagerConfigMatcherStrategy.Type
	o.namespace = am.Namespace
	if m := am.Spec.AlertmanagerConfigFileSystemMode; m != nil {
		o.fsMode = *m
	}
	return o, nil
}

// allowFiles says whether an object in ns may name files of the Alertmanager container
// (telegram botTokenFile, pushover userKeyFile and tokenFile): whoever writes such an
// object could otherwise have any file the container can read sent to a receiver they
// control. spec.alertmanagerConfigFileSystemMode decides; its default follows the matcher
// strategy: None trusts every object, OnNamespaceExceptForAlertmanagerNamespace the
// objects of the Alertmanager's namespace, OnNamespace only the global object
// (spec.alertmanagerConfiguration).
func (o options) allowFiles(ns string, global bool) bool {
	switch o.fsMode {
	case monitoringv1.AllowAllAlertmanagerConfigFileSystemMode:
		return true
	case monitoringv1.DenyAllAlertmanagerConfigFileSystemMode:
		return false
	}
	if global {
		return true
	}
	switch o.strategy {
	case monitoringv1.NoneConfigMatcherStrategyType:
		return true
	case monitoringv1.OnNamespaceExceptForAlertmanagerNamespaceConfigMatcherStrategyType:
		return ns == o.namespace
	}
	return false
}

// enforceNamespace says whether routes and inhibit rules of an object in ns get the
// namespace matcher.
func (o options) enforceNamespace(ns string) bool {
	switch o.strategy {
	case monitoringv1.NoneConfigMatcherStrategyType:
		return false
	case monitoringv1.OnNamespaceExceptForAlertmanagerNamespaceConfigMatcherStrategyType:
		return ns != o.namespace
	}
	return true
}

// intervalsKey is where time intervals go: time_intervals from 0.24 on.
func (o options) intervalsKey() string {
	if o.version.Less(versions.AMTimeIntervals) {
		return "mute_time_intervals"
	}
	return "time_intervals"
}

// convertPart converts one AlertmanagerConfig; global says it is the object named by
// spec.alertmanagerConfiguration, whose route becomes the top-level route.
func convertPart(amc *monitoringv1alpha1.AlertmanagerConfig, o options, assets Assets, global bool) (*part, *problem) {
	c := newConv(o.version, assets, amc.Namespace, amc.Name)
	c.allowFiles = o.allowFiles(amc.Namespace, global)
	pt := &part{key: types.NamespacedName{Namespace: amc.Namespace, Name: amc.Name}}
	recv, names, p := c.receivers(amc.Spec.Receivers)
	if p != nil {
		return nil, p
	}
	pt.receivers = recv
	if pt.intervals, p = c.timeIntervals(amc.Spec.MuteTimeIntervals); p != nil {
		return nil, p
	}
	refs := routeRefs{receivers: names, timeIntervals: map[string]bool{}}
	for _, ti := range amc.Spec.MuteTimeIntervals {
		refs.timeIntervals[ti.Name] = true
	}
	enforce := !global && o.enforceNamespace(amc.Namespace)
	if r := amc.Spec.Route; r != nil {
		out, ms, p := c.route("spec.route", r, refs, 0)
		if p != nil {
			return nil, p
		}
		if global {
			if r.Receiver == "" {
				return nil, invalid("spec.route.receiver", "the top-level route needs a receiver")
			}
			if len(r.Matchers) > 0 {
				return nil, invalid("spec.route.matchers", "the top-level route must not have matchers")
			}
			if len(r.MuteTimeIntervals) > 0 || len(r.ActiveTimeIntervals) > 0 {
				return nil, invalid("spec.route", "the top-level route must not have time intervals")
			}
		} else {
			if enforce {
				if o.version.Less(versions.AMMatchersV2) {
					ms.match = setKV(ms.match, "namespace", amc.Namespace)
					out.put("match", sortedMap(ms.match))
				} else {
					ms.list = append(ms.list, namespaceMatcher(amc.Namespace))
					out.put("matchers", ms.list)
				}
			}
			out.put("continue", true)
		}
		pt.route = out
	} else if global {
		return nil, invalid("spec.route", "the global AlertmanagerConfig needs a route")
	}
	if pt.inhibit, p = c.inhibitRules(amc.Spec.InhibitRules, enforce); p != nil {
		return nil, p
	}
	pt.tlsAssets = c.tlsAssets
	return pt, nil
}
