package pipeline

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Selectors are a Prometheus's compiled selectors of every kind it selects.
type Selectors struct {
	// Monitors are those of the monitor kinds, by kind name.
	Monitors map[string]*selection.Compiled
	// Rules is the PrometheusRule selector (an agent's selects none).
	Rules *selection.Compiled
}

// Compile compiles p's selectors; an error names the spec fields.
func Compile(p *promserver.Server) (*Selectors, error) {
	compile := func(kind, field string, lbl, ns *metav1.LabelSelector) (*selection.Compiled, error) {
		c, err := selection.Compile(selection.Selector{Kind: kind, Labels: lbl, Namespaces: ns, OwnNamespace: p.Namespace})
		if err != nil {
			return nil, fmt.Errorf("spec.%sSelector or spec.%sNamespaceSelector: %w", field, field, err)
		}
		return c, nil
	}
	s := &Selectors{Monitors: make(map[string]*selection.Compiled, len(monitorkind.All))}
	for _, k := range monitorkind.All {
		lbl, ns := k.Selectors(p.Spec)
		c, err := compile(k.Name, k.Field, lbl, ns)
		if err != nil {
			return nil, err
		}
		s.Monitors[k.Name] = c
	}
	var err error
	if s.Rules, err = compile(monitoringv1.PrometheusRuleKind, "rule", p.PrometheusOnly().RuleSelector, p.PrometheusOnly().RuleNamespaceSelector); err != nil {
		return nil, err
	}
	return s, nil
}

// ForKind returns the compiled selector of a monitor or rule kind (nil for another kind).
func (s *Selectors) ForKind(kind string) *selection.Compiled {
	if kind == monitoringv1.PrometheusRuleKind {
		return s.Rules
	}
	return s.Monitors[kind]
}
