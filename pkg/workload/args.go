package workload

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
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

// LogArgsUnlessDefault is LogArgs without the defaults, level info and format logfmt,
// which prometheus-operator leaves out of Prometheus's, Alertmanager's and the
// config-reloader's arguments.
func LogArgsUnlessDefault(level, format string, add func(name, value string)) error {
	return LogArgs(level, format, func(n, v string) {
		if (n == "level" && v == "info") || (n == "format" && v == "logfmt") {
			return
		}
		add(n, v)
	})
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

// goDuration is the syntax of the API's GoDuration fields (what the CRD enforces).
var goDuration = regexp.MustCompile(`^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$`)

// UserSets reports whether spec.additionalArgs sets the flag name.
func UserSets(extra []monitoringv1.Argument, name string) bool {
	for _, e := range extra {
		if argName(strings.TrimSpace(e.Name)) == name {
			return true
		}
	}
	return false
}

// CheckGoDuration rejects a value the API's GoDuration syntax does not allow.
func CheckGoDuration(field, value string) error {
	if !goDuration.MatchString(value) {
		return fmt.Errorf("%s %q is not a duration like 120h, 1h30m or 500ms", field, value)
	}
	return nil
}

// ParseByteSize parses the API's ByteSize ("512MB", "1.5GiB"): units are powers of two
// with or without the i, as Alertmanager reads them.
func ParseByteSize(s string) (int64, error) {
	if !ByteSize.MatchString(s) {
		return 0, fmt.Errorf("%q is not a size like 512MB or 1GiB", s)
	}
	num := strings.TrimSuffix(s, "B")
	num = strings.TrimSuffix(num, "i")
	mult := 1.0
	if n := len(num); n > 0 {
		if i := strings.IndexByte("KMGTPE", num[n-1]); i >= 0 {
			mult = math.Pow(1024, float64(i+1))
			num = num[:n-1]
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: %w", s, err)
	}
	return int64(f * mult), nil
}

// AddNonEmpty calls add for each {name, value} of flags whose value is not empty, in
// order.
func AddNonEmpty(add func(name, value string), flags ...[2]string) {
	for _, f := range flags {
		if f[1] != "" {
			add(f[0], f[1])
		}
	}
}
