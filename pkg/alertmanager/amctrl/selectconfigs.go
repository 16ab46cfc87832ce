package amctrl

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// SelectConfigs returns the AlertmanagerConfigs of all that a selects (within scope, nil
// for every namespace), sorted by namespace and name: the controller reads all from its
// cache, render from manifests. An invalid selector is the error.
func SelectConfigs(a *monitoringv1.Alertmanager, all []*monitoringv1alpha1.AlertmanagerConfig, scope selection.Scope, nsLabels selection.NamespaceLabels) ([]*monitoringv1alpha1.AlertmanagerConfig, error) {
	if a.Spec.AlertmanagerConfigSelector == nil {
		return nil, nil
	}
	sel, err := selection.Compile(selection.Selector{
		Kind: monitoringv1alpha1.AlertmanagerConfigKind, Labels: a.Spec.AlertmanagerConfigSelector,
		Namespaces: a.Spec.AlertmanagerConfigNamespaceSelector, OwnNamespace: a.Namespace,
	})
	if err != nil {
		return nil, fmt.Errorf("spec.alertmanagerConfigSelector or spec.alertmanagerConfigNamespaceSelector: %w", err)
	}
	selected, _ := selection.Select(sel, all, scope, nsLabels) // sorted by namespace and name
	return selected, nil
}

// SplitConfigSecret splits the data of the user's config Secret into the configuration
// (the alertmanager.yaml key) and the other keys (templates and files the configuration
// references, copied to the generated Secret as prometheus-operator does).
func SplitConfigSecret(data map[string][]byte) (base []byte, extra map[string][]byte) {
	extra = map[string][]byte{}
	for k, v := range data {
		if k != layout.AlertmanagerConfigKey {
			extra[k] = v
		}
	}
	return data[layout.AlertmanagerConfigKey], extra
}
