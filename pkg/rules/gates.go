package rules

import "github.com/lookout-operator/lookout/pkg/versions"

// The facts below come from Prometheus's CHANGELOG and the field documentation of the
// monitoring.coreos.com API. A function or field missing from these tables is taken to
// exist in every supported version: Lookout only rejects what it knows a version lacks.

// fieldGate is a rule-file field and the first Prometheus release that reads it. Older
// releases refuse the whole rule file because of the unknown field.
// thanosSince is the first Thanos release whose ruler reads it (prometheus-operator's
// gates for a ThanosRuler).
type fieldGate struct {
	field       string
	since       versions.Version
	thanosSince versions.Version
}

var (
	gateLimit         = fieldGate{"limit", ver(2, 31), thanosVer(0, 24)}           // #9260
	gateKeepFiringFor = fieldGate{"keep_firing_for", ver(2, 42), thanosVer(0, 34)} // #11827
	gateQueryOffset   = fieldGate{"query_offset", ver(2, 53), thanosVer(0, 38)}    // #14061
	gateGroupLabels   = fieldGate{"labels", ver(3, 0), thanosVer(0, 39)}           // API docs: "requires Prometheus >= 3.0.0"
)

// fillModifiersSince is the first release with the fill(), fill_left() and fill_right()
// binary operator modifiers (behind a feature flag), #17644.
var fillModifiersSince = ver(3, 10)

// funcGate describes when a PromQL function or aggregation operator appeared, and when it
// stopped needing the promql-experimental-functions feature flag.
type funcGate struct {
	// since is the first release that knows the name.
	since versions.Version
	// experimentalUntil is the first release where it is stable. The zero Version means
	// the function is experimental in every release up to the one Lookout is built with,
	// where the parser itself enforces the feature flag; a value equal to since means it
	// was never experimental.
	experimentalUntil versions.Version
	// removedIn is the first release that no longer knows the name (zero: never removed).
	removedIn versions.Version
	// renamedTo is the name that replaced it, if any.
	renamedTo string
}

func stableSince(v versions.Version) funcGate       { return funcGate{since: v, experimentalUntil: v} }
func experimentalSince(v versions.Version) funcGate { return funcGate{since: v} }
func stableLater(since, stable versions.Version) funcGate {
	return funcGate{since: since, experimentalUntil: stable}
}

// functionGates maps PromQL function and aggregator names to their history.
var functionGates = map[string]funcGate{
	"absent_over_time":  stableSince(ver(2, 16)), // #6490
	"group":             stableSince(ver(2, 20)), // aggregator, #7480
	"last_over_time":    stableSince(ver(2, 26)), // #8457
	"sgn":               stableSince(ver(2, 26)),
	"clamp":             stableSince(ver(2, 26)),
	"present_over_time": stableSince(ver(2, 29)), // #9097
	// Trigonometric functions, #9239 #9248 #9515.
	"acos": stableSince(ver(2, 31)), "acosh": stableSince(ver(2, 31)),
	"asin": stableSince(ver(2, 31)), "asinh": stableSince(ver(2, 31)),
	"atan": stableSince(ver(2, 31)), "atanh": stableSince(ver(2, 31)),
	"cos": stableSince(ver(2, 31)), "cosh": stableSince(ver(2, 31)),
	"sin": stableSince(ver(2, 31)), "sinh": stableSince(ver(2, 31)),
	"tan": stableSince(ver(2, 31)), "tanh": stableSince(ver(2, 31)),
	"deg": stableSince(ver(2, 31)), "rad": stableSince(ver(2, 31)), "pi": stableSince(ver(2, 31)),
	// Native histogram functions (2.40 introduced native histograms).
	"histogram_count":    stableSince(ver(2, 40)),
	"histogram_sum":      stableSince(ver(2, 40)),
	"histogram_fraction": stableSince(ver(2, 40)),
	"histogram_stddev":   stableSince(ver(2, 47)), // #12614
	"histogram_stdvar":   stableSince(ver(2, 47)),
	"histogram_avg":      stableSince(ver(2, 51)), // #13467
	// Experimental additions.
	"mad_over_time":                experimentalSince(ver(2, 49)), // #13059
	"sort_by_label":                experimentalSince(ver(2, 49)), // #11299
	"sort_by_label_desc":           experimentalSince(ver(2, 49)),
	"limitk":                       experimentalSince(ver(2, 54)), // aggregator, #12503
	"limit_ratio":                  experimentalSince(ver(2, 54)),
	"info":                         experimentalSince(ver(2, 55)), // #14495
	"double_exponential_smoothing": experimentalSince(ver(3, 0)),  // renamed from holt_winters
	"ts_of_min_over_time":          experimentalSince(ver(3, 5)),  // #16722 #16733
	"ts_of_max_over_time":          experimentalSince(ver(3, 5)),
	"ts_of_last_over_time":         experimentalSince(ver(3, 5)),
	"ts_of_first_over_time":        experimentalSince(ver(3, 7)),       // #16963 #17021
	"first_over_time":              stableLater(ver(3, 7), ver(3, 14)), // stable in 3.14, #19093
	"histogram_quantiles":          experimentalSince(ver(3, 11)),      // #17285
	"start":                        experimentalSince(ver(3, 12)),      // #17877
	"end":                          experimentalSince(ver(3, 12)),
	"range":                        experimentalSince(ver(3, 12)),
	"step":                         experimentalSince(ver(3, 12)),
	// holt_winters was renamed double_exponential_smoothing in 3.0.0.
	"holt_winters": {since: ver(2, 0), experimentalUntil: ver(2, 0), removedIn: ver(3, 0), renamedTo: "double_exponential_smoothing"},
}

// ver is a Prometheus release number major.minor.0.
func ver(major, minor int) versions.Version { return versions.New(major, minor, 0) }
