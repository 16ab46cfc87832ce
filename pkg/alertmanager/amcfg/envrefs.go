package amcfg

import (
	"fmt"
	"regexp"

	yaml "go.yaml.in/yaml/v2"
)

// The config-reloader expands every $(NAME) of the Alertmanager configuration with its
// own environment before Alertmanager reads it. A tenant writes the text of its
// AlertmanagerConfig (and of the Secrets it references), so a reference there could copy
// the reloader's environment (a proxy URL with credentials, say) into a request to a
// server of the tenant's (issue 32, item 6). Only $(POD_NAME), which the operator sets
// for every Alertmanager reloader, may appear.

// envRef matches $(NAME) as the config-reloader expands it (pkg/reloader).
var envRef = regexp.MustCompile(`\$\(([A-Za-z0-9_]+)\)`)

// tenantEnv are the variables an AlertmanagerConfig may refer to.
var tenantEnv = map[string]bool{"POD_NAME": true}

// checkEnvRefs refuses a tenant's part whose text refers to another variable, naming the
// receiver, route, inhibit rule or time interval it is in.
func checkEnvRefs(pt *part, intervalsField string) *problem {
	check := func(field string, v any) *problem {
		b, err := yaml.Marshal(v)
		if err != nil {
			return invalid(field, "%v", err)
		}
		for _, m := range envRef.FindAllSubmatch(b, -1) {
			if !tenantEnv[string(m[1])] {
				return invalid(field, "refers to $(%s) (in its text or a Secret it reads): the config-reloader would replace it with a value from its own environment; an AlertmanagerConfig may refer only to $(POD_NAME)", m[1])
			}
		}
		return nil
	}
	for i, r := range pt.receivers {
		if p := check(fmt.Sprintf("spec.receivers[%d]", i), r); p != nil {
			return p
		}
	}
	if pt.route != nil {
		if p := check("spec.route", pt.route.ms); p != nil {
			return p
		}
	}
	for i, r := range pt.inhibit {
		if p := check(fmt.Sprintf("spec.inhibitRules[%d]", i), r); p != nil {
			return p
		}
	}
	for i, r := range pt.intervals {
		if p := check(fmt.Sprintf("spec.%s[%d]", intervalsField, i), r); p != nil {
			return p
		}
	}
	return nil
}
