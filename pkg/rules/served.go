package rules

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// FindServed looks for the rule file of rule in the data of live rule ConfigMaps and
// returns it with its header. ok is false when no ConfigMap holds the file, or the file's
// header does not name this object (same namespace, name and UID): a file left by an
// earlier object of the same name is never served for a new one. The controller uses it
// to keep serving the last accepted version of a rule whose new version is invalid; the
// header's Generation says which version that is.
func FindServed(configMaps []map[string]string, rule *monitoringv1.PrometheusRule) (content []byte, h Header, ok bool) {
	key := FileName(rule)
	for _, data := range configMaps {
		file, found := data[key]
		if !found {
			continue
		}
		h, ok := ParseHeader([]byte(file))
		if !ok || h.Namespace != rule.Namespace || h.Name != rule.Name || h.UID != string(rule.UID) {
			return nil, Header{}, false
		}
		return []byte(file), h, true
	}
	return nil, Header{}, false
}
