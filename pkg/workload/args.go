package workload

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// ByteSize matches the sizes Prometheus accepts for --storage.tsdb.retention.size
// (powers of two, a unit is required).
var ByteSize = regexp.MustCompile(`^(0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$`)

// Arg is one command-line flag: "--name=value", or "--name" when value is empty.
type Arg struct {
	Name, Value string
}

func (a Arg) String() string {
	if a.Value == "" {
		return "--" + a.Name
	}
	return "--" + a.Name + "=" + a.Value
}

// LogArgs validates spec.logLevel and spec.logFormat and adds them as "level" and
// "format"; Prometheus and the config-reloader share both.
func LogArgs(level, format string, add func(name, value string)) error {
	if level != "" {
		if !slices.Contains([]string{"debug", "info", "warn", "error"}, level) {
			return fmt.Errorf("spec.logLevel %q: must be one of debug, info, warn, error", level)
		}
		add("level", level)
	}
	if format != "" {
		if format != "logfmt" && format != "json" {
			return fmt.Errorf("spec.logFormat %q: must be logfmt or json", format)
		}
		add("format", format)
	}
	return nil
}

// argName is a flag name without leading dashes, and without the "no-" of a negated
// boolean flag.
func argName(name string) string {
	return strings.TrimPrefix(strings.TrimLeft(name, "-"), "no-")
}

// MergeArgs renders the operator's flags followed by spec.additionalArgs in their order.
// An additional argument naming a flag the operator sets (also negated) is an error.
func MergeArgs(ours []Arg, extra []monitoringv1.Argument, field string) ([]string, error) {
	owned := map[string]bool{}
	out := make([]string, 0, len(ours)+len(extra))
	for _, a := range ours {
		owned[argName(a.Name)] = true
		out = append(out, a.String())
	}
	for i, e := range extra {
		name := strings.TrimLeft(strings.TrimSpace(e.Name), "-")
		if name == "" {
			return nil, fmt.Errorf("%s[%d]: the argument has no name", field, i)
		}
		if strings.ContainsAny(name, "= \t") {
			return nil, fmt.Errorf("%s[%d]: name %q must not contain '=' or spaces; put the value in value", field, i, e.Name)
		}
		if owned[argName(name)] {
			return nil, fmt.Errorf("%s[%d]: --%s is set by the operator and cannot be overridden; use the matching spec field instead", field, i, name)
		}
		out = append(out, Arg{name, e.Value}.String())
	}
	return out, nil
}
