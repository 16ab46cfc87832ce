package promcfg

import (
	"fmt"
	"regexp"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/relabel"
)

var invalidLabelChars = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// sanitizeLabelName turns a Kubernetes label key into a Prometheus label name the way
// Prometheus's Kubernetes discovery does (every invalid character becomes "_").
func sanitizeLabelName(name string) string {
	return invalidLabelChars.ReplaceAllString(name, "_")
}

// relabelRule builds one relabel rule. Only non-default fields are set.
type relabelRule struct {
	SourceLabels []string
	Separator    *string
	TargetLabel  string
	Regex        string
	Modulus      int64
	Replacement  *string
	Action       string
}

func (r relabelRule) yaml() M {
	m := M{}
	if len(r.SourceLabels) > 0 {
		m.Set("source_labels", r.SourceLabels)
	}
	setOptAlways(&m, "separator", r.Separator)
	m.Set("target_label", r.TargetLabel)
	m.Set("regex", r.Regex)
	if r.Modulus != 0 {
		m.Set("modulus", r.Modulus)
	}
	setOptAlways(&m, "replacement", r.Replacement)
	m.Set("action", r.Action)
	return m
}

func strp(s string) *string { return &s }

// checkPortRegex checks a port name (field) that the rule keeping the endpoint's port
// matches as a regular expression, as prometheus-operator writes it: one that does not
// compile makes Prometheus refuse the whole file.
func checkPortRegex(field, port string) error {
	if err := compileRelabelRegex(port); err != nil {
		return fmt.Errorf("%s %q is matched as a regular expression, and it does not compile: %w", field, port, err)
	}
	return nil
}

// userRelabelings converts and validates user-provided relabel configs. where names the
// field for error messages ("endpoints[0].relabelings").
func userRelabelings(rcs []monitoringv1.RelabelConfig, where string, scheme model.ValidationScheme) ([]M, error) {
	out := make([]M, 0, len(rcs))
	for i, rc := range rcs {
		r, err := convertRelabel(rc)
		if err == nil {
			err = validateRelabel(r, scheme)
		}
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", where, i, err)
		}
		out = append(out, r.yaml())
	}
	return out, nil
}

func convertRelabel(rc monitoringv1.RelabelConfig) (relabelRule, error) {
	r := relabelRule{
		TargetLabel: rc.TargetLabel,
		Regex:       rc.Regex,
		Modulus:     rc.Modulus,
		Separator:   rc.Separator,
		Replacement: rc.Replacement,
		Action:      strings.ToLower(rc.Action),
	}
	if rc.Modulus < 0 {
		return r, fmt.Errorf("modulus must not be negative, got %d", rc.Modulus)
	}
	for _, l := range rc.SourceLabels {
		r.SourceLabels = append(r.SourceLabels, string(l))
	}
	return r, nil
}

// validateRelabel applies Prometheus's own relabel validation, so messages match what
// Prometheus would say, with the field path added by the caller.
func validateRelabel(r relabelRule, scheme model.ValidationScheme) error {
	c := relabel.DefaultRelabelConfig
	if r.Action != "" {
		switch act := relabel.Action(r.Action); act {
		case relabel.Replace, relabel.Keep, relabel.Drop, relabel.HashMod, relabel.LabelMap, relabel.LabelDrop,
			relabel.LabelKeep, relabel.Lowercase, relabel.Uppercase, relabel.KeepEqual, relabel.DropEqual:
			c.Action = act
		default:
			return fmt.Errorf("unknown relabel action %q", r.Action)
		}
	}
	for _, l := range r.SourceLabels {
		if !scheme.IsValidLabelName(l) {
			return fmt.Errorf("%q is not a valid source label name", l)
		}
		c.SourceLabels = append(c.SourceLabels, model.LabelName(l))
	}
	if r.Separator != nil {
		c.Separator = *r.Separator
	}
	if r.Regex != "" {
		if err := compileRelabelRegex(r.Regex); err != nil {
			return fmt.Errorf("invalid regex %q: %w", r.Regex, err)
		}
		c.Regex = setRegex
	}
	c.Modulus = uint64(r.Modulus)
	if r.TargetLabel != "" {
		c.TargetLabel = r.TargetLabel
	}
	if r.Replacement != nil {
		c.Replacement = *r.Replacement
	}
	return c.Validate(scheme)
}
