package rules

import (
	"fmt"
	"maps"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// Prometheus --enable-feature values that change what a rule file may contain.
const (
	FeatureExperimentalFunctions = "promql-experimental-functions"
	FeatureBinopFillModifiers    = "promql-binop-fill-modifiers"
	FeatureUnquotedUTF8Names     = "promql-unquoted-utf8-names"
	// FeatureUTF8Names is the Prometheus 2.55 flag that allowed UTF-8 metric and label
	// names before 3.0 made them the default.
	FeatureUTF8Names = "utf8-names"
)

// AllFeatures lists every feature flag that widens what rules may contain. The admission
// webhook validates with all of them, since it does not know which Prometheus will load the
// rule; each Prometheus then checks with its own flags.
var AllFeatures = []string{
	FeatureExperimentalFunctions,
	FeatureBinopFillModifiers,
	FeatureUnquotedUTF8Names,
	FeatureUTF8Names,
}

// Options describe the Prometheus that will load the rules.
type Options struct {
	// Version is the Prometheus version, as in the Prometheus object's spec.version
	// ("v3.16.0", "2.45.0"); empty means versions.DefaultPrometheus.
	Version string
	// EnableFeatures are the Prometheus --enable-feature values (spec.enableFeatures).
	// Unknown values are ignored.
	EnableFeatures []string
	// SizeLimit is the most bytes one rule file, its ConfigMap key and header included,
	// may take; 0 means MaxConfigMapDataBytes.
	SizeLimit int
	// NameValidationScheme is the Prometheus's spec.nameValidationScheme. Prometheus 3
	// validates rule files with the configuration's metric_name_validation_scheme, so
	// Legacy restricts metric and label names to the legacy character set whatever the
	// version. UTF8, like "", leaves it to the version (UTF-8 from 3.0, and on 2.55 with
	// the utf8-names feature).
	NameValidationScheme monitoringv1.NameValidationSchemeOptions
	// Thanos makes the validator judge rules for a Thanos Ruler: Version is then the
	// Thanos version (required), fields are gated by the Thanos release that reads them,
	// PromQL by the Prometheus release whose rule engine that Thanos embeds (ThanosEngine),
	// names by Thanos's validation scheme (UTF-8 from v0.38.0), experimental functions are
	// refused (as prometheus-operator refuses them for a ThanosRuler), the groups'
	// partial_response_strategy is checked and kept in the rendered file. EnableFeatures
	// and NameValidationScheme are ignored.
	Thanos bool
}

// Validator checks PrometheusRule specs for one Prometheus configuration. It is safe for
// concurrent use.
type Validator struct {
	version      versions.Version
	parser       parser.Parser
	scheme       model.ValidationScheme
	experimental bool
	sizeLimit    int
	// templates remembers the alert templates this validator found valid.
	templates *templateSet
	// thanos is set for a Thanos Ruler: its version gates fields, and version is the
	// Prometheus release its rule engine comes from.
	thanos *versions.Version
}

// parsePrometheus reads a Prometheus version with versions.ParsePrometheus ("" is
// versions.DefaultPrometheus) and refuses releases before 2.0, which have no rule groups.
func parsePrometheus(s string) (versions.Version, error) {
	v, err := versions.ParsePrometheus(s)
	if err != nil {
		return versions.Version{}, err
	}
	if v.Major < 2 {
		return versions.Version{}, fmt.Errorf("unsupported Prometheus version %q: rule groups need Prometheus 2.0.0 or later", s)
	}
	return v, nil
}

// NewValidator builds a Validator; it fails only on a version it cannot read.
func NewValidator(o Options) (*Validator, error) {
	if o.Thanos {
		return newThanosValidator(o)
	}
	v, err := parsePrometheus(o.Version)
	if err != nil {
		return nil, err
	}
	feat := map[string]bool{}
	for _, f := range o.EnableFeatures {
		feat[f] = true
	}
	val := &Validator{
		version:      v,
		experimental: feat[FeatureExperimentalFunctions],
		scheme:       model.LegacyValidation,
		sizeLimit:    o.SizeLimit,
		templates:    newTemplateSet(),
	}
	if val.sizeLimit <= 0 {
		val.sizeLimit = MaxConfigMapDataBytes
	}
	if v.AtLeast(ver(3, 0)) || (feat[FeatureUTF8Names] && v.AtLeast(ver(2, 55))) {
		val.scheme = model.UTF8Validation
	}
	switch o.NameValidationScheme {
	case "", monitoringv1.UTF8NameValidationScheme:
	case monitoringv1.LegacyNameValidationScheme:
		val.scheme = model.LegacyValidation
	default:
		return nil, fmt.Errorf("invalid name validation scheme %q: want %s or %s", o.NameValidationScheme,
			monitoringv1.UTF8NameValidationScheme, monitoringv1.LegacyNameValidationScheme)
	}
	popts := parser.Options{
		EnableExperimentalFunctions: val.experimental,
		EnableBinopFillModifiers:    feat[FeatureBinopFillModifiers] && v.AtLeast(fillModifiersSince),
		EnableUnquotedUTF8Names:     feat[FeatureUnquotedUTF8Names] && v.AtLeast(ver(3, 0)),
		Functions:                   functionsFor(v),
	}
	val.parser = parser.NewParser(popts)
	return val, nil
}

// functionsFor returns the parser's function table adjusted for version v: releases
// before 3.0 still know holt_winters.
func functionsFor(v versions.Version) map[string]*parser.Function {
	if v.AtLeast(ver(3, 0)) {
		return nil // the parser's default table
	}
	fns := maps.Clone(parser.Functions)
	if des, ok := parser.Functions["double_exponential_smoothing"]; ok {
		hw := *des
		hw.Name = "holt_winters"
		hw.Experimental = false
		fns[hw.Name] = &hw
	}
	return fns
}

// Version returns the Prometheus version the validator checks for.
func (v *Validator) Version() versions.Version { return v.version }

// permissiveParser accepts everything any supported version accepts. Enforcement uses it
// to rewrite expressions that were validated with a stricter parser.
var permissiveParser = parser.NewParser(parser.Options{
	EnableExperimentalFunctions: true,
	EnableBinopFillModifiers:    true,
	EnableUnquotedUTF8Names:     true,
	Functions:                   functionsFor(ver(2, 0)),
})
