package apiwatch

import (
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
)

// PolicyRules are the RBAC rules the targets need: get, list and watch on exactly the
// named Secrets and ConfigMaps. The API server authorizes a list or watch whose field
// selector names one object against resourceNames, so nothing else is readable. Bind
// them with a Role in the targets' namespace.
func PolicyRules(targets []Target) []rbacv1.PolicyRule {
	names := map[Kind][]string{}
	for _, t := range targets {
		if !slices.Contains(names[t.Kind], t.Name) {
			names[t.Kind] = append(names[t.Kind], t.Name)
		}
	}
	var rules []rbacv1.PolicyRule
	for _, k := range []Kind{KindSecret, KindConfigMap} {
		if len(names[k]) == 0 {
			continue
		}
		slices.Sort(names[k])
		rules = append(rules, rbacv1.PolicyRule{
			APIGroups:     []string{""},
			Resources:     []string{k.resource()},
			ResourceNames: names[k],
			Verbs:         []string{"get", "list", "watch"},
		})
	}
	return rules
}
